// Redis through node-redis (the `redis` package), values read back as Buffers.
import { redisClientOptions, connectWithin } from './clients/redis-options.js';
import { chunksOf } from './bulk.js';

export const name = 'redis';
export const description = 'Redis through node-redis (the redis package)';
export const needs = ['redis'];
export const writes = { append: true, bulk: 'native', hash: true };
// --pipeline (docs/direct.md): node-redis queues the commands issued in one tick and writes them
// together at the next turn of the event loop (a corked socket).
export const pipelining = {
  pipelines: true,
  reason: 'node-redis writes the commands issued in one tick in one write, on its one connection',
};

// An MSET of this many keys (or bytes) at most: one command must not hold the server long.
const MSET_CHUNK = { maxEntries: 500, maxBytes: 1024 * 1024 };

// APPEND only to a key that exists, and return the value after it (nil when the key is absent).
const APPEND_IF_EXISTS = "if redis.call('EXISTS', KEYS[1]) == 0 then return false end " +
  "redis.call('APPEND', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])";

// HGETALL answers an absent key with no fields.
export const emptyAsNull = (fields) => (Object.keys(fields).length ? fields : null);

/**
 * @param {{ redis: object }} connections
 * @param {{ keyPrefix?: string, ttlSeconds?: number }} [options]  for stores built on this one:
 *   a prefix keeps their keys apart from plain redis's (it must hold a character outside the
 *   key alphabet, so no user key reaches them); ttlSeconds makes every set() expire.
 */
export async function open({ redis }, { keyPrefix = '', ttlSeconds } = {}) {
  const { createClient, RESP_TYPES } = await import('redis');
  const client = createClient(redisClientOptions(redis));
  // Errors reach each command's caller as a rejection; this keeps them from crashing the app.
  client.on('error', () => {});
  await connectWithin(client);
  const bytes = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  const setOptions = ttlSeconds ? { expiration: { type: 'EX', value: ttlSeconds } } : undefined;
  const k = (key) => keyPrefix + key;

  return {
    get: (key) => bytes.get(k(key)),
    async set(key, value) {
      await bytes.set(k(key), value, setOptions);
    },
    async delete(key) {
      await bytes.del(k(key));
    },
    async append(key, value) {
      await bytes.append(k(key), value);
    },
    // KEYS, as study 003 listed its keys: one call that walks every key the server holds.
    async keys(prefix) {
      const found = await client.keys(`${k(prefix)}*`);
      return found.map((key) => key.slice(keyPrefix.length));
    },
    // MSET per chunk: one round trip for many keys. With a TTL, SET EX per key instead (MSET
    // has none), sent together: node-redis pipelines commands issued in the same tick.
    async setMany(entries) {
      if (setOptions) {
        await Promise.all(entries.map(([key, value]) => bytes.set(k(key), value, setOptions)));
        return;
      }
      await Promise.all(chunksOf(entries, MSET_CHUNK)
        .map((chunk) => bytes.mSet(chunk.map(([key, value]) => [k(key), value]))));
    },
    // DEL and HSET in one MULTI (one round trip): the key holds exactly these fields after,
    // whatever it held before (a string from a bytes run would make a bare HSET fail).
    async setHash(key, fields) {
      const multi = bytes.multi().del(k(key)).hSet(k(key), fields);
      if (ttlSeconds) multi.expire(k(key), ttlSeconds);
      await multi.exec();
    },
    getHash: (key) => bytes.hGetAll(k(key)).then(emptyAsNull),
    async ping() {
      await client.ping();
    },
    async close() {
      if (client.isOpen) await client.close();
    },

    // Beyond the contract, for the layers built on this store (stores/layers/). Every command
    // goes over this one connection, so Redis runs them in the order they are issued.

    /** Sets key only if it is absent (a read-through refill must never overwrite a write). */
    async setIfAbsent(key, value) {
      await bytes.set(k(key), value, { ...setOptions, condition: 'NX' });
    },
    /** Appends to a key that exists, atomically; resolves to the whole value after, or null when it is absent. */
    appendIfExists(key, value) {
      return bytes.eval(APPEND_IF_EXISTS, { keys: [k(key)], arguments: [value] });
    },
    /** Appends (an absent key starts empty), atomically; resolves to the whole value after. */
    async appendAndRead(key, value) {
      const [, after] = await bytes.multi().append(k(key), value).get(k(key)).exec();
      return after;
    },
    /**
     * The client (values as Buffers) and a key's name in Redis, for a layer that puts several
     * commands in one MULTI.
     */
    client: bytes,
    keyOf: k,
  };
}
