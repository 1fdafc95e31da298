// memcached through memjs (binary protocol): the multi-threaded cache people put where
// Redis would go. Values are stored and returned as raw bytes.
export const name = 'memcached';
export const description = 'memcached through memjs (binary protocol)';
export const needs = ['memcached'];

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

  return {
    async get(key) {
      return (await client.get(key)).value;
    },
    async set(key, bytes) {
      await client.set(key, bytes, { expires: 0 });
    },
    async delete(key) {
      await client.delete(key);
    },
    ping,
    async close() {
      client.close();
    },
  };
}
