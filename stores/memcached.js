// memcached through memjs (binary protocol): the multi-threaded cache people put where
// Redis would go. Values are stored and returned as raw bytes.
import { ValueTooLargeError } from '../util/errors.js';

export const name = 'memcached';
export const description = 'memcached through memjs (binary protocol)';
export const needs = ['memcached'];
// Bulk: sets sent at once over memjs's one connection per server (memcached has no multi-set
// in the binary protocol memjs speaks; the requests pipeline).
export const writes = { append: true, bulk: 'native', hash: false };

// memcached refuses an item over its size limit (-I, 1 MB by default) with status 3, which
// memjs reports as this message: a refusal, not an outage.
const refusedForSize = (error, bytes) => (/Value too large/i.test(error?.message)
  ? new ValueTooLargeError(`the memcached server refused a value of ${bytes.length} bytes: over its item size limit (memcached -I, 1 MB by default)`, { cause: error })
  : error);

// memjs takes "user:pass@host:port,host:port"; MEMCACHED_URL may carry a memcached:// scheme.
export const serverList = (url) => url.replace(/(^|,)\s*memcached?:\/\//gi, '$1').replace(/\/+(?=,|$)/g, '');

const quiet = { log() {} }; // memjs logs every failed request to the console; the 503 says it instead

export async function open({ memcached }) {
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
        if (await client.add(key, bytes, { expires: 0 }).catch((error) => { throw refusedForSize(error, bytes); })) return;
      }
      throw new Error(`memcached append of "${key}" kept racing with other writers`);
    },
    async setMany(entries) {
      await Promise.all(entries.map(([key, bytes]) => client.set(key, bytes, { expires: 0 }).catch((error) => { throw refusedForSize(error, bytes); })));
    },
    ping,
    async close() {
      client.close();
    },
  };
}
