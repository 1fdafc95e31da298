// Redis through node-redis (the `redis` package), values read back as Buffers.
import { redisClientOptions, connectWithin } from './redis-options.js';

export const name = 'redis';
export const description = 'Redis through node-redis (the redis package)';
export const needs = ['redis'];

export async function open({ redis }) {
  const { createClient, RESP_TYPES } = await import('redis');
  const client = createClient(redisClientOptions(redis));
  // Errors reach each command's caller as a rejection; this keeps them from crashing the app.
  client.on('error', () => {});
  await connectWithin(client);
  const bytes = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });

  return {
    get: (key) => bytes.get(key),
    async set(key, value) {
      await bytes.set(key, value);
    },
    async delete(key) {
      await bytes.del(key);
    },
    async ping() {
      await client.ping();
    },
    async close() {
      if (client.isOpen) await client.close();
    },
  };
}
