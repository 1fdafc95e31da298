// Redis through node-redis (the `redis` package), values read back as Buffers.
import { redisClientOptions, connectWithin } from './clients/redis-options.js';
import { closeNodeRedis } from './clients/close-within.js';
import { chunksOf } from './bulk.js';

export const name = 'redis';
export const description = 'Redis through node-redis (the redis package)';
export const needs = ['redis'];
export const writes = { append: true, bulk: 'native', hash: true };
// node-redis writes the commands issued in one tick together at the next turn (a corked socket).
export const pipelining = {
  pipelines: true,
  reason: 'node-redis writes the commands issued in one tick in one write, on its one connection',
};

// One command must not hold the server long.
const MSET_CHUNK = { maxEntries: 500, maxBytes: 1024 * 1024 };

const APPEND_IF_EXISTS = "if redis.call('EXISTS', KEYS[1]) == 0 then return false end " +
  "redis.call('APPEND', KEYS[1], ARGV[1]) return redis.call('GET', KEYS[1])";

export const emptyAsNull = (fields) => (Object.keys(fields).length ? fields : null);

// keyPrefix keeps a layer's keys apart (it must hold a character outside the key alphabet);
// ttlSeconds makes every set() expire.
export async function open({ redis }, { keyPrefix = '', ttlSeconds } = {}) {
  const { createClient, RESP_TYPES } = await import('redis');
  const client = createClient(redisClientOptions(redis));
  client.on('error', () => {});
  await connectWithin(client);
  const bytes = client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  const setOptions = ttlSeconds ? { expiration: { type: 'EX', value: ttlSeconds } } : undefined;
  const k = (key) => keyPrefix + key;

  return {
    get: (key) => bytes.get(k(key)),
    // --direct --pipeline N: N GETs as node-redis's explicit pipeline, about half the CPU per
    // command of N get() calls (docs/direct.md). It rejects as a whole on any error reply.
    getMany(keys) {
      const pipeline = bytes.multi();
      for (const key of keys) pipeline.get(k(key));
      return pipeline.execAsPipeline();
    },
    async set(key, value) {
      await bytes.set(k(key), value, setOptions);
    },
    async delete(key) {
      await bytes.del(k(key));
    },
    async append(key, value) {
      await bytes.append(k(key), value);
    },
    async keys(prefix) {
      const found = await client.keys(`${k(prefix)}*`);
      return found.map((key) => key.slice(keyPrefix.length));
    },
    // With a TTL, SET EX per key instead (MSET has none), pipelined in one tick.
    async setMany(entries) {
      if (setOptions) {
        await Promise.all(entries.map(([key, value]) => bytes.set(k(key), value, setOptions)));
        return;
      }
      await Promise.all(chunksOf(entries, MSET_CHUNK)
        .map((chunk) => bytes.mSet(chunk.map(([key, value]) => [k(key), value]))));
    },
    // DEL and HSET in one MULTI: the key holds exactly these fields after (a bare HSET on a string fails).
    async setHash(key, fields) {
      const multi = bytes.multi().del(k(key)).hSet(k(key), fields);
      if (ttlSeconds) multi.expire(k(key), ttlSeconds);
      await multi.exec();
    },
    getHash: (key) => bytes.hGetAll(k(key)).then(emptyAsNull),
    async ping() {
      await client.ping();
    },
    close: () => closeNodeRedis(client),

    // Beyond the contract, for the layers (stores/layers/). One connection: Redis runs these in issue order.

    // A read-through refill must never overwrite a write.
    async setIfAbsent(key, value) {
      await bytes.set(k(key), value, { ...setOptions, condition: 'NX' });
    },
    appendIfExists(key, value) {
      return bytes.eval(APPEND_IF_EXISTS, { keys: [k(key)], arguments: [value] });
    },
    async appendAndRead(key, value) {
      const [, after] = await bytes.multi().append(k(key), value).get(k(key)).exec();
      return after;
    },
    client: bytes,
    keyOf: k,
  };
}
