// Cache-aside: PostgreSQL holds the data, Redis caches it. Built from the postgres and
// redis adapters (each opened with its own table / key prefix), not a copy of them.
//   read:  Redis; on a miss, PostgreSQL, then fill Redis with a TTL
//   write: PostgreSQL, then drop the Redis copy (the next read refills it)
// The usual cache-aside race (a slow miss refilling a value a write just replaced) is
// bounded by the TTL. If either server is down the store answers 503: serving from
// PostgreSQL alone would quietly benchmark a different setup.
import * as postgres from '../postgres.js';
import * as redis from '../redis.js';

export const name = 'postgres+redis';
export const description = 'Cache-aside: Redis in front of PostgreSQL (miss -> PostgreSQL, fill Redis with a TTL)';
export const needs = ['postgres', 'redis'];

export const TABLE = 'storebench_cache_aside';
export const KEY_PREFIX = 'storebench:cache-aside:';
export const TTL_SECONDS = 300;

/**
 * @param {{ postgres: object, redis: object }} connections
 * @param {{ ttlSeconds?: number, postgresPoolSize?: number }} [settings]  the resolved store
 *   settings (the PostgreSQL ones go on to the postgres adapter)
 */
export async function open(connections, { ttlSeconds = TTL_SECONDS, ...settings } = {}) {
  const database = await postgres.open(connections, { ...settings, table: TABLE });
  let cache;
  try {
    cache = await redis.open(connections, { keyPrefix: KEY_PREFIX, ttlSeconds });
  } catch (error) {
    await database.close();
    throw error;
  }
  const counts = { hits: 0, misses: 0 };

  return {
    async get(key) {
      const cached = await cache.get(key);
      if (cached != null) {
        counts.hits++;
        return cached;
      }
      counts.misses++;
      const bytes = await database.get(key);
      if (bytes != null) await cache.set(key, bytes);
      return bytes;
    },
    async set(key, bytes) {
      await database.set(key, bytes);
      await cache.delete(key);
    },
    async delete(key) {
      await database.delete(key);
      await cache.delete(key);
    },
    async ping() {
      await Promise.all([database.ping(), cache.ping()]);
    },
    async close() {
      await Promise.all([database.close(), cache.close()]);
    },
    stats() {
      const reads = counts.hits + counts.misses;
      return {
        cacheHits: counts.hits,
        cacheMisses: counts.misses,
        hitRatio: reads ? Number((counts.hits / reads).toFixed(4)) : null,
        ttlSeconds,
      };
    },
  };
}
