// memcached through memjs (binary protocol): the multi-threaded cache people put where Redis would go.
import { ValueTooLargeError } from '../util/errors.js';
import { withDeadline } from './deadline.js';
import { memcachedMaxValue, raiseText, valueLimit } from './value-limits.js';
import { defaults } from '../config/settings.js';

export const name = 'memcached';
export const description = 'memcached through memjs (binary protocol)';
export const needs = ['memcached'];
// Bulk: sets pipelined on memjs's one connection per server (its protocol has no multi-set).
export const writes = { append: true, bulk: 'native', hash: false };
// memjs leaves Nagle's algorithm on: the kernel holds a batch's later requests until the first is acknowledged.
export const pipelining = {
  pipelines: true,
  reason: 'memjs writes each request to its one connection per server as it is issued, without waiting for ' +
    'the answers before it; with Nagle\'s algorithm on (memjs sets no noDelay) a batch takes two round trips',
};

// Over the item size limit (-I, 1 MB by default): a refusal, not an outage.
const refusedForSize = (error, bytes) => (/Value too large/i.test(error?.message)
  ? new ValueTooLargeError(`the memcached server refused a value of ${bytes.length} bytes: ` +
    'over its item size limit (memcached -I, 1 MB by default)', { cause: error })
  : error);

export const serverList = (url) => url.replace(/(^|,)\s*memcached?:\/\//gi, '$1').replace(/\/+(?=,|$)/g, '');

const quiet = { log() {} }; // memjs logs every failed request to the console; the 503 says it instead

const STATS_TIMEOUT_MS = 2000;

// The smallest item limit binds, as memjs spreads keys over the servers; null when one will not say.
const itemLimitOf = (client) => withDeadline(new Promise((resolve) => {
  let waiting = client.servers.length;
  let smallest = null;
  client.statsWithKey('settings', (error, server, stats) => {
    if (waiting <= 0) return;
    const itemSizeMax = Number(stats?.item_size_max);
    if (error || !(itemSizeMax > 0)) {
      waiting = 0;
      resolve(null);
      return;
    }
    const limit = { itemSizeMax, cas: stats.cas_enabled !== 'no' };
    const largest = ({ itemSizeMax, cas }) => memcachedMaxValue(itemSizeMax, cas);
    if (!smallest || largest(limit) < largest(smallest)) smallest = limit;
    if (--waiting === 0) resolve(smallest);
  });
}), STATS_TIMEOUT_MS, () => new Error('no answer to stats settings')).catch(() => null);

function limitOf(connection, fromServer, settings) {
  const embedded = connection.source === 'embedded';
  const asStarted = { itemSizeMax: settings.memcachedItemSize ?? defaults.memcachedItemSize, cas: true };
  const known = fromServer ?? (embedded ? asStarted : null);
  if (!known) return null;
  const largest = memcachedMaxValue(known.itemSizeMax, known.cas);
  const where = fromServer ? 'as the server says' : 'as the embedded server was started';
  const limit = `memcached -I: item_size_max ${known.itemSizeMax} bytes ${where}, ` +
    `less ${known.itemSizeMax - largest} for the item header${known.cas ? ', CAS' : ''} and the longest key`;
  return valueLimit(largest, limit, raiseText(connection, 'memcachedItemSize', 'memcached -I'));
}

export async function open({ memcached }, settings = defaults) {
  const { default: memjs } = await import('memjs');
  const client = memjs.Client.create(serverList(memcached.url), {
    retries: 0, // fail fast: a down server is a 503 now, and the next request connects anew
    timeout: 5, // seconds per request: a hung server errors, a busy one under a load sweep need not
    conntimeout: 2, // seconds to connect: a down server is a 503 soon
    keepAlive: true,
    logger: quiet,
  });
  // memjs has no NOOP/VERSION call; STATS answers once per server.
  const ping = () => new Promise((resolve, reject) => {
    let waiting = client.servers.length;
    client.stats((error) => {
      if (error) reject(error);
      else if (--waiting === 0) resolve();
    });
  });
  try {
    await ping();
  } catch (error) {
    client.close();
    throw error;
  }
  const limit = limitOf(memcached, await itemLimitOf(client), settings);
  // false when the key is missing (the server's "Item not stored").
  const appendExisting = (key, bytes) => client.append(key, bytes).catch((error) => {
    if (/Item not stored/i.test(error.message)) return false;
    throw refusedForSize(error, bytes);
  });

  return {
    async get(key) {
      return (await client.get(key)).value;
    },
    async set(key, bytes) {
      await client.set(key, bytes, { expires: 0 }).catch((error) => { throw refusedForSize(error, bytes); });
    },
    async delete(key) {
      await client.delete(key);
    },
    // Append works only on an existing key: else add it; if another writer added it meanwhile, append.
    async append(key, bytes) {
      for (let attempt = 0; attempt < 3; attempt++) {
        if (await appendExisting(key, bytes)) return;
        if (await client.add(key, bytes, { expires: 0 })
          .catch((error) => { throw refusedForSize(error, bytes); })) return;
      }
      throw new Error(`memcached append of "${key}" kept racing with other writers`);
    },
    async setMany(entries) {
      await Promise.all(entries.map(([key, bytes]) => client.set(key, bytes, { expires: 0 })
        .catch((error) => { throw refusedForSize(error, bytes); })));
    },
    ping,
    valueLimit: () => limit,
    async close() {
      client.close();
    },
  };
}
