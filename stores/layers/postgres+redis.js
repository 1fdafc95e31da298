// Cache-aside: PostgreSQL holds the data, Redis caches it (built from the postgres and redis
// adapters). A read misses to PostgreSQL and fills Redis with a TTL; a write goes to PostgreSQL, then
// drops the copy. A read never fills a value a write was replacing meanwhile (key-writes.js; across
// app processes, a version per key checked by a script). Either server down answers 503: serving
// from PostgreSQL alone would quietly benchmark a different setup.
import * as postgres from '../postgres.js';
import * as redis from '../redis.js';
import { KeyWrites } from './key-writes.js';
import { INTERNAL_SEPARATOR } from '../keys.js';

export const name = 'postgres+redis';
export const description = 'Cache-aside: Redis in front of PostgreSQL (miss -> PostgreSQL, fill Redis with a TTL)';
export const needs = ['postgres', 'redis'];
export const writes = { append: true, bulk: 'native', hash: false };
export const pipelining = {
  pipelines: false,
  reason: 'a layer of two stores: a call that reaches PostgreSQL goes through a pool, which hands a connection ' +
    'to one query at a time (pipeline redis and postgres themselves)',
};

export const TABLE = 'storebench_cache_aside';
// # is outside the key alphabet: no key a user can send reaches these.
export const KEY_PREFIX = ['storebench', 'cache-aside', ''].join(INTERNAL_SEPARATOR);
export const TTL_SECONDS = 300;
// The version of each key written, with several app processes: outside the key alphabet too.
export const VERSION_PREFIX = ['storebench', 'cache-aside-version', ''].join(INTERNAL_SEPARATOR);
// Must outlive any read that noted it: a fill may run to the longest operation deadline.
const VERSION_TTL_SECONDS = 600;
// Fills KEYS[1] with ARGV[1] for ARGV[2] seconds if the version KEYS[2] is still ARGV[3] ('' for none).
const FILL_IF_UNCHANGED = `if (redis.call('GET', KEYS[2]) or '') ~= ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
return 1`;

export async function open(connections, {
  ttlSeconds = TTL_SECONDS, workers = 1, ...settings
} = {}) {
  const database = await postgres.open(connections, { ...settings, table: TABLE });
  let cache;
  try {
    cache = await redis.open(connections, { keyPrefix: KEY_PREFIX, ttlSeconds });
  } catch (error) {
    await database.close();
    throw error;
  }
  const counts = { hits: 0, misses: 0 };
  const underWay = new KeyWrites();
  const versioned = workers > 1 ? versionedCache(cache, ttlSeconds) : null;

  // A write to the database, then the cached copies dropped; reads meanwhile do not refill them.
  async function writeThrough(keys, toDatabase) {
    const writes = keys.map((key) => underWay.begin(key));
    try {
      await toDatabase();
      await Promise.all(keys.map((key) => (versioned ? versioned.drop(key) : cache.delete(key))));
    } finally {
      for (const write of writes) write.end();
    }
  }

  return {
    async get(key) {
      const cached = await cache.get(key);
      if (cached != null) {
        counts.hits++;
        return cached;
      }
      counts.misses++;
      const watcher = underWay.watch(key);
      let fill;
      try {
        const version = versioned ? await versioned.version(key) : undefined;
        const bytes = await database.get(key);
        // Sent now, in this tick, or not at all: see key-writes.js.
        if (bytes != null && !watcher.dirty) {
          fill = versioned ? versioned.fill(key, bytes, version) : cache.set(key, bytes);
        }
        if (fill) await fill;
        return bytes;
      } finally {
        watcher.end();
      }
    },
    set: (key, bytes) => writeThrough([key], () => database.set(key, bytes)),
    delete: (key) => writeThrough([key], () => database.delete(key)),
    append: (key, bytes) => writeThrough([key], () => database.append(key, bytes)),
    setMany: (entries) => writeThrough(entries.map(([key]) => key), () => database.setMany(entries)),
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
        ...(versioned ? { workers } : {}),
      };
    },
  };
}

// The cache's calls that see other processes' writes: a write bumps the key's version and drops the copy
// in one MULTI; a miss notes the version before reading PostgreSQL, and fills only if it is unchanged.
function versionedCache(cache, ttlSeconds) {
  const { client, keyOf } = cache;
  const versionOf = (key) => VERSION_PREFIX + key;
  return {
    async drop(key) {
      await client.multi().incr(versionOf(key)).expire(versionOf(key), VERSION_TTL_SECONDS).del(keyOf(key)).exec();
    },
    version: async (key) => String((await client.get(versionOf(key))) ?? ''),
    async fill(key, bytes, version) {
      await client.eval(FILL_IF_UNCHANGED, {
        keys: [keyOf(key), versionOf(key)],
        arguments: [bytes, String(ttlSeconds), version],
      });
    },
  };
}
