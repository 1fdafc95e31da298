// The same Redis through ioredis, with auto-pipelining on, to compare with node-redis. No offline
// queue, as stores/clients/redis-options.js: a request while the server is down gets a 503 at once.
import { withDeadline } from './deadline.js';
import { chunksOf } from './bulk.js';
import { closeWithin } from './clients/close-within.js';

export const name = 'ioredis';
export const description = 'Redis through ioredis, auto-pipelining on (same server as redis)';
export const needs = ['redis'];
export const writes = { append: true, bulk: 'native', hash: true };
export const pipelining = {
  pipelines: true,
  reason: 'auto-pipelining: ioredis sends the commands issued in one tick as one pipeline, in one write',
};

const MSET_CHUNK = { maxEntries: 500, maxBytes: 1024 * 1024 }; // as stores/redis.js

const CONNECT_TIMEOUT_MS = 5000;

export async function open({ redis }) {
  const { default: Redis } = await import('ioredis');
  const client = new Redis(redis.url, {
    lazyConnect: true,
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0, // a command cut off by a dropped connection fails, not retried later
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(50 * 2 ** attempt, 2000),
    ...(redis.ca ? { tls: { ca: redis.ca } } : {}),
  });
  let lastError;
  client.on('error', (error) => { lastError = error; });
  try {
    // connectTimeout ends at the TCP connect; the ready check would wait forever on a silent server.
    await withDeadline(client.connect(), CONNECT_TIMEOUT_MS,
      () => new Error(`no answer from Redis within ${CONNECT_TIMEOUT_MS} ms of connecting`));
  } catch (error) {
    client.disconnect();
    throw lastError ?? error;
  }

  return {
    get: (key) => client.getBuffer(key),
    keys: (prefix) => client.keys(`${prefix}*`),
    async set(key, bytes) {
      await client.set(key, bytes);
    },
    async delete(key) {
      await client.del(key);
    },
    async append(key, bytes) {
      await client.append(key, bytes);
    },
    async setMany(entries) {
      await Promise.all(chunksOf(entries, MSET_CHUNK).map((chunk) => client.mset(chunk.flat())));
    },
    async setHash(key, fields) {
      // exec() resolves to [error, reply] per command: an error inside is no rejection.
      const replies = await client.multi().del(key).hset(key, fields).exec();
      const failed = replies.find(([error]) => error);
      if (failed) throw failed[0];
    },
    getHash: (key) => client.hgetallBuffer(key).then((fields) => (Object.keys(fields).length ? fields : null)),
    async ping() {
      await client.ping();
    },
    async close() {
      if (client.status === 'ready') await closeWithin(() => client.quit(), () => {});
      client.disconnect();
    },
  };
}
