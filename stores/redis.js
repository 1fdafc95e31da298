// Redis through node-redis (the `redis` package), values read back as Buffers.
import { redisClientOptions, connectWithin } from './clients/redis-options.js';

export const name = 'redis';
export const description = 'Redis through node-redis (the redis package)';
export const needs = ['redis'];

/**
 * @param {{ redis: object }} connections
 * @param {{ keyPrefix?: string, ttlSeconds?: number }} [options]  for stores built on this one:
 *   a prefix keeps their keys apart from plain redis's; ttlSeconds makes every set() expire.
 */
export async function open({ redis }, { keyPrefix = '', ttlSeconds } = {}) {
  const { createClient, RESP_TYPES } = await import('redis');
  const client = createClient(redisClientOptions(redis));
  // Errors reach each command's caller as a rejection; this keeps them from crashing the app.
  client.on('error', () => {});
  await connectWithin(client);
  const bytes = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  const setOptions = ttlSeconds ? { expiration: { type: 'EX', value: ttlSeconds } } : undefined;

  return {
    get: (key) => bytes.get(keyPrefix + key),
    async set(key, value) {
      await bytes.set(keyPrefix + key, value, setOptions);
    },
    async delete(key) {
      await bytes.del(keyPrefix + key);
    },
    async ping() {
      await client.ping();
    },
    async close() {
      if (client.isOpen) await client.close();
    },
  };
}
