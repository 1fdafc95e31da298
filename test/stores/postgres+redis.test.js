import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import * as cacheAside from '../../stores/layers/postgres+redis.js';
import { payloads } from '../../stores/payloads.js';
import { startApp } from '../../app/start-app.js';
import { storeConformance } from '../helpers/store-conformance.js';
import { sqlConnections, testPool, testRedis } from '../helpers/sql-stores.js';

storeConformance(cacheAside, (t) => sqlConnections(t, { redis: true }));

async function openCacheAside(t, options) {
  const connections = await sqlConnections(t, { redis: true });
  if (!connections) return undefined;
  const store = await cacheAside.open(connections, options);
  const key = `cache-${randomUUID()}`;
  // One hook, in order: after-hooks run first-registered first.
  t.after(async () => {
    await store.delete(key);
    await store.close();
  });
  return { store, key, pool: await testPool(t), redis: await testRedis(t) };
}

test('postgres+redis: the first read misses and fills Redis, later reads are hits served from Redis', async (t) => {
  const opened = await openCacheAside(t);
  if (!opened) return;
  const { store, key, pool, redis } = opened;
  const cacheKey = cacheAside.KEY_PREFIX + key;

  await store.set(key, payloads.key1);
  assert.equal(await redis.exists(cacheKey), 0, 'a write leaves nothing in the cache');
  const before = store.stats();

  assert.ok((await store.get(key)).equals(payloads.key1));
  assert.ok((await redis.get(cacheKey)).equals(payloads.key1), 'the miss filled Redis');
  const ttl = await redis.ttl(cacheKey);
  assert.ok(ttl > 0 && ttl <= cacheAside.TTL_SECONDS, `the cached copy expires (TTL ${ttl} s)`);

  // Change the row behind the store's back: a hit must not see it, which proves it came from Redis.
  await pool.query(`UPDATE ${cacheAside.TABLE} SET value = $2 WHERE key = $1`, [key, payloads.key2]);
  assert.ok((await store.get(key)).equals(payloads.key1), 'second read: the cached bytes');
  assert.ok((await store.get(key)).equals(payloads.key1), 'third read: the cached bytes');

  const after = store.stats();
  assert.equal(after.cacheMisses - before.cacheMisses, 1);
  assert.equal(after.cacheHits - before.cacheHits, 2);
  assert.equal(after.ttlSeconds, cacheAside.TTL_SECONDS);
});

test('postgres+redis: a write goes to PostgreSQL and invalidates the cached copy', async (t) => {
  const opened = await openCacheAside(t);
  if (!opened) return;
  const { store, key, pool, redis } = opened;

  await store.set(key, payloads.key1);
  await store.get(key); // cached now
  await store.set(key, payloads.key3);
  assert.equal(await redis.exists(cacheAside.KEY_PREFIX + key), 0, 'the stale copy is gone');
  const { rows } = await pool.query(`SELECT value FROM ${cacheAside.TABLE} WHERE key = $1`, [key]);
  assert.ok(rows[0].value.equals(payloads.key3), 'PostgreSQL has the new bytes');
  const misses = store.stats().cacheMisses;
  assert.ok((await store.get(key)).equals(payloads.key3), 'the next read sees the new bytes');
  assert.equal(store.stats().cacheMisses, misses + 1, 'and had to miss to get them');

  await store.delete(key);
  assert.equal(await redis.exists(cacheAside.KEY_PREFIX + key), 0);
  assert.equal(await store.get(key), null);
});

test('postgres+redis: its Redis keys carry their own prefix, apart from the plain redis store\'s', async (t) => {
  const opened = await openCacheAside(t, { ttlSeconds: 30 });
  if (!opened) return;
  const { store, key, redis } = opened;
  await store.set(key, payloads.key1);
  await store.get(key);
  assert.equal(await redis.exists(key), 0, 'nothing under the bare key');
  assert.equal(await redis.exists(`storebench#cache-aside#${key}`), 1);
  assert.ok((await redis.ttl(`storebench#cache-aside#${key}`)) <= 30, 'the TTL option is used');
});

test('postgres+redis: GET /stores shows the cache hits and misses of the requests served', async (t) => {
  const connections = await sqlConnections(t, { redis: true });
  if (!connections) return;
  const app = await startApp({
    port: 0,
    host: '127.0.0.1',
    stores: ['postgres+redis'],
    env: { POSTGRES_URL: connections.postgres.url, REDIS_URL: connections.redis.url },
  });
  t.after(() => app.close());
  // Seeding wrote key1..key3 and so dropped their cached copies: one miss, then hits.
  for (let i = 0; i < 3; i++) {
    const response = await fetch(`${app.url}/postgres+redis/key2`);
    assert.equal(response.status, 200);
    assert.ok(Buffer.from(await response.arrayBuffer()).equals(payloads.key2));
  }
  const { stores } = await (await fetch(`${app.url}/stores`)).json();
  assert.deepEqual(
    stores[0].stats,
    { cacheHits: 2, cacheMisses: 1, hitRatio: 0.6667, ttlSeconds: cacheAside.TTL_SECONDS },
  );
});

test('postgres+redis: under concurrent reads, a GET that starts after a PUT has answered ' +
  'never returns an older value', async (t) => {
  // The race this pins: a read misses, reads the old row, the write commits and drops the
  // cached copy, then the read fills Redis with the old row (see stores/layers/key-writes.js).
  const opened = await openCacheAside(t);
  if (!opened) return;
  const { store, key } = opened;
  const version = (bytes) => Number(String(bytes));
  let written = 0;
  const writing = { done: false }; // read by the readers while the writer runs
  const stale = [];
  await store.set(key, Buffer.from('0'));
  const reader = async () => {
    while (!writing.done) {
      const floor = written; // every PUT up to this one had answered when this read started
      const bytes = await store.get(key);
      if (version(bytes) < floor) stale.push(`read ${version(bytes)} after PUT ${floor} answered`);
    }
  };
  const readers = Array.from({ length: 8 }, reader);
  for (let i = 1; i <= 300; i++) {
    await store.set(key, Buffer.from(String(i)));
    written = i;
  }
  writing.done = true;
  await Promise.all(readers);
  assert.deepEqual(stale, []);
  assert.equal(version(await store.get(key)), 300);
  assert.ok(store.stats().cacheMisses > 300, 'the readers kept missing and filling while the writes went on');
});

test('postgres+redis: append and bulk writes go to PostgreSQL and drop the cached copies', async (t) => {
  const opened = await openCacheAside(t);
  if (!opened) return;
  const { store, key, redis } = opened;
  await store.set(key, Buffer.from('ab'));
  await store.get(key); // cached
  await store.append(key, Buffer.from('cd'));
  assert.equal(await redis.exists(cacheAside.KEY_PREFIX + key), 0);
  assert.deepEqual(await store.get(key), Buffer.from('abcd'));
  await store.setMany([[key, Buffer.from('bulk')]]);
  assert.equal(await redis.exists(cacheAside.KEY_PREFIX + key), 0);
  assert.deepEqual(await store.get(key), Buffer.from('bulk'));
});
