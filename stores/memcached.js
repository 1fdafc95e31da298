// memcached through memjs (binary protocol): the multi-threaded cache people put where
// Redis would go. Values are stored and returned as raw bytes.
import { ValueTooLargeError } from '../util/errors.js';
import { withDeadline } from './deadline.js';
import { memcachedMaxValue, raiseText, valueLimit } from './value-limits.js';
import { defaults } from '../config/settings.js';

export const name = 'memcached';
export const description = 'memcached through memjs (binary protocol)';
export const needs = ['memcached'];
// Bulk: sets sent at once over memjs's one connection per server (memcached has no multi-set
// in the binary protocol memjs speaks; the requests pipeline).
export const writes = { append: true, bulk: 'native', hash: false };
// --pipeline (docs/direct.md): memjs writes a request at once, whatever is in flight; the binary
// protocol's opaque field matches each answer to its request. It leaves Nagle's algorithm on,
// so the kernel holds a batch's later requests until the first is acknowledged: with its answer.
export const pipelining = {
  pipelines: true,
  reason: 'memjs writes each request to its one connection per server as it is issued, without waiting for ' +
    'the answers before it; with Nagle\'s algorithm on (memjs sets no noDelay) a batch takes two round trips',
};

// memcached refuses an item over its size limit (-I, 1 MB by default) with status 3, which
// memjs reports as this message: a refusal, not an outage.
const refusedForSize = (error, bytes) => (/Value too large/i.test(error?.message)
  ? new ValueTooLargeError(`the memcached server refused a value of ${bytes.length} bytes: ` +
    'over its item size limit (memcached -I, 1 MB by default)', { cause: error })
  : error);

// memjs takes "user:pass@host:port,host:port"; MEMCACHED_URL may carry a memcached:// scheme.
export const serverList = (url) => url.replace(/(^|,)\s*memcached?:\/\//gi, '$1').replace(/\/+(?=,|$)/g, '');

const quiet = { log() {} }; // memjs logs every failed request to the console; the 503 says it instead

const STATS_TIMEOUT_MS = 2000;

// `stats settings` of every server: the smallest item size limit binds, as memjs spreads keys
// over them. null when a server does not answer it (a managed service may refuse it).
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

// The largest value, from the server's own answer; for the embedded server, else from the
// setting it was started with; unknown (null) for a configured server that does not say.
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
  // true when appended; false when the key is missing (memjs says false for "not found",
  // the server says "Item not stored" for an append to a missing key).
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
    // memcached's append works only on a key that exists: on a missing one, add it instead;
    // if another writer added it in between (add refused), append to theirs.
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
