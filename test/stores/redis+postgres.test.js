import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import * as writeBehind from '../../stores/layers/redis+postgres.js';
import { payloads } from '../../stores/payloads.js';
import { storeConformance } from '../helpers/store-conformance.js';
import { sqlConnections, testPool, testRedis } from '../helpers/sql-stores.js';
import { startAppProcess } from '../../driver/app-process.js';
import { testPostgresUrl, testRedisUrl } from '../helpers/services.js';

const { TABLE, KEY_PREFIX, QUEUE_KEY } = writeBehind;

storeConformance(writeBehind, (t) => sqlConnections(t, { redis: true }));

// Opens the store plus plain clients to look behind it; every key under `prefix` is
// removed from both servers afterwards.
async function openWriteBehind(t, options) {
  const connections = await sqlConnections(t, { redis: true });
  if (!connections) return undefined;
  const prefix = `wb-${randomUUID()}-`;
  const store = await writeBehind.open(connections, options);
  // Registered before the clients' own after-hooks, which run first-registered first.
  t.after(async () => {
    await store.close().catch(() => {});
    await pool.query(`DELETE FROM ${TABLE} WHERE key LIKE $1`, [`${prefix}%`]);
    const keys = await redis.keys(`${KEY_PREFIX}${prefix}*`);
    if (keys.length) await redis.del(keys);
    const journaled = (await redis.hKeys(QUEUE_KEY)).map(String).filter((key) => key.startsWith(prefix));
    if (journaled.length) await redis.hDel(QUEUE_KEY, journaled);
  });
  const pool = await testPool(t);
  const redis = await testRedis(t);
  const rowsOf = async () => {
    const { rows } = await pool.query(`SELECT key, value FROM ${TABLE} WHERE key LIKE $1`, [`${prefix}%`]);
    return new Map(rows.map((row) => [row.key, row.value]));
  };
  return { store, prefix, redis, rowsOf };
}

test('redis+postgres: close() flushes every acknowledged write to PostgreSQL, newest bytes winning', async (t) => {
  // A flush interval far longer than the test, so nothing reaches PostgreSQL before close().
  const opened = await openWriteBehind(t, { flushIntervalMs: 600_000, batchSize: 1000 });
  if (!opened) return;
  const { store, prefix, rowsOf } = opened;
  const expected = new Map();
  for (let i = 0; i < 300; i++) {
    const bytes = Buffer.from(`{"n":${i}}`);
    await store.set(`${prefix}${i}`, bytes);
    expected.set(`${prefix}${i}`, bytes);
  }
  await store.set(`${prefix}7`, payloads.key3); // overwritten: only the newest may land
  expected.set(`${prefix}7`, payloads.key3);
  for (const i of [10, 11, 12]) {
    await store.delete(`${prefix}${i}`); // deleted before any flush: must not land at all
    expected.delete(`${prefix}${i}`);
  }
  assert.ok((await store.get(`${prefix}7`)).equals(payloads.key3), 'reads come from Redis at once');
  assert.equal((await rowsOf()).size, 0, 'acknowledged, not yet in PostgreSQL');
  assert.equal(store.stats().pendingWrites, 300, 'one pending write per key: 300 keys, 3 of them deletes');

  await store.close();
  const rows = await rowsOf();
  assert.equal(rows.size, expected.size);
  for (const [key, bytes] of expected) assert.ok(rows.get(key)?.equals(bytes), `${key} in PostgreSQL, byte-exact`);
});

test('redis+postgres: writes reach PostgreSQL in the background, in batches, without close()', async (t) => {
  const opened = await openWriteBehind(t, { flushIntervalMs: 50, batchSize: 10 });
  if (!opened) return;
  const { store, prefix, rowsOf } = opened;
  for (let i = 0; i < 35; i++) await store.set(`${prefix}${i}`, payloads.key1);
  // A batch is counted once its journal entries are gone too, a moment after PostgreSQL has its
  // rows: wait for the count, then look at the rows (CI once read 26 while the last batch was
  // between its commit and the journal).
  const deadline = Date.now() + 20_000;
  while (store.stats().flushedWrites < 35) {
    assert.ok(Date.now() < deadline, `only ${store.stats().flushedWrites} of 35 writes flushed after 20 s`);
    await sleep(50);
  }
  assert.equal((await rowsOf()).size, 35);
  const stats = store.stats();
  assert.equal(stats.flushedWrites, 35);
  assert.equal(stats.pendingWrites, 0);
  assert.ok(
    stats.batches >= 4 && stats.batches < 35,
    `35 writes in batches of at most 10 took ${stats.batches} statements`,
  );
  await store.delete(`${prefix}0`);
  while ((await rowsOf()).has(`${prefix}0`)) {
    assert.ok(Date.now() < deadline, 'the delete never reached PostgreSQL');
    await sleep(50);
  }
});

test('redis+postgres: a write after a timer found nothing to flush still reaches PostgreSQL', async (t) => {
  // Regression: a flush that found the queue empty left a settled promise behind, and no later write was flushed.
  const opened = await openWriteBehind(t, { flushIntervalMs: 20, batchSize: 2 });
  if (!opened) return;
  const { store, prefix, rowsOf } = opened;
  await store.set(`${prefix}a`, payloads.key1); // starts the 20 ms timer
  await store.set(`${prefix}b`, payloads.key1); // a full batch: flushed at once, the timer then finds nothing
  await sleep(200);
  await store.set(`${prefix}c`, payloads.key1);
  const deadline = Date.now() + 20_000;
  while (!(await rowsOf()).has(`${prefix}c`)) {
    assert.ok(Date.now() < deadline, 'the later write never reached PostgreSQL');
    await sleep(50);
  }
  assert.equal((await rowsOf()).size, 3);
});

test('redis+postgres: its Redis keys and table are its own', async (t) => {
  const opened = await openWriteBehind(t);
  if (!opened) return;
  const { store, prefix, redis } = opened;
  await store.set(`${prefix}x`, payloads.key1);
  assert.equal(await redis.exists(`${prefix}x`), 0, 'nothing under the bare key');
  assert.ok((await redis.get(`storebench#write-behind#${prefix}x`)).equals(payloads.key1));
  assert.equal(await redis.ttl(`storebench#write-behind#${prefix}x`), -1, 'the primary copy never expires');
});

test('redis+postgres: SIGTERM to the app (twice, even) flushes what seeding wrote before it exits', async (t) => {
  if (!(await sqlConnections(t, { redis: true }))) return;
  const pool = await testPool(t);
  const seeded = async () =>
    (await pool.query(`SELECT key, value FROM ${TABLE} WHERE key = ANY($1)`, [Object.keys(payloads)])).rows;
  await pool.query(`DELETE FROM ${TABLE} WHERE key = ANY($1)`, [Object.keys(payloads)]);

  const app = await startAppProcess({
    stores: ['redis+postgres'],
    env: {
      ...process.env,
      POSTGRES_URL: testPostgresUrl,
      REDIS_URL: testRedisUrl,
      STOREBENCH_FLUSH_INTERVAL_MS: '600000', // so only the shutdown flush can write them
    },
  });
  t.after(() => app.child.kill('SIGKILL'));
  const { stores } = await (await fetch(`${app.url}/stores`)).json();
  assert.equal(stores[0].status, 'up', stores[0].reason);
  assert.equal(stores[0].stats.pendingWrites, 3, 'seeding was acknowledged, not yet flushed');
  assert.deepEqual(await seeded(), []);

  app.child.kill('SIGTERM');
  app.child.kill('SIGTERM'); // an impatient second signal must not cut the flush short
  assert.deepEqual(await app.exited, { code: 0, signal: null });
  const rows = new Map((await seeded()).map((row) => [row.key, row.value]));
  for (const [key, bytes] of Object.entries(payloads)) {
    assert.ok(rows.get(key)?.equals(bytes), `${key} flushed on SIGTERM`);
  }
});

test('redis+postgres: writes still on their way to Redis when close() starts reach PostgreSQL too', async (t) => {
  const opened = await openWriteBehind(t, { flushIntervalMs: 600_000, batchSize: 1000 });
  if (!opened) return;
  const { store, prefix, rowsOf } = opened;
  const writes = Array.from({ length: 50 }, (_, i) => store.set(`${prefix}${i}`, payloads.key1));
  const closed = store.close(); // not awaiting the writes first
  await Promise.all(writes);
  await closed;
  assert.equal((await rowsOf()).size, 50);
  await assert.rejects(store.set(`${prefix}late`, payloads.key1), /closing/);
});

test('redis+postgres: a key Redis has lost is read through to PostgreSQL and put back in Redis', async (t) => {
  const opened = await openWriteBehind(t, { flushIntervalMs: 20 });
  if (!opened) return;
  const { store, prefix, redis, rowsOf } = opened;
  const key = `${prefix}lost`;
  await store.set(key, payloads.key2);
  const deadline = Date.now() + 20_000;
  while (!(await rowsOf()).has(key)) {
    assert.ok(Date.now() < deadline, 'never flushed');
    await sleep(20);
  }
  await redis.del(`${KEY_PREFIX}${key}`); // evicted, or Redis restarted empty
  assert.ok((await store.get(key)).equals(payloads.key2), 'read through to PostgreSQL');
  assert.ok((await redis.get(`${KEY_PREFIX}${key}`)).equals(payloads.key2), 'and Redis has it again');
  assert.equal(store.stats().readThroughs, 1);
  assert.equal(await store.get(`${prefix}never-written`), null, 'a key in neither is absent');
});

test('redis+postgres: read-through takes writes not yet flushed from the queue: a newer value, ' +
  'or a delete, beats PostgreSQL\'s', async (t) => {
  const opened = await openWriteBehind(t, { flushIntervalMs: 600_000 });
  if (!opened) return;
  const { store, prefix, redis } = opened;
  const [updated, deleted] = [`${prefix}updated`, `${prefix}deleted`];
  await store.setMany([[updated, Buffer.from('old')], [deleted, Buffer.from('old')]]);
  await store.close(); // both flushed: PostgreSQL has "old"
  const again = await writeBehind.open(await sqlConnections(t, { redis: true }), { flushIntervalMs: 600_000 });
  t.after(() => again.close());
  await again.set(updated, Buffer.from('new'));
  await again.delete(deleted);
  await redis.del([`${KEY_PREFIX}${updated}`, `${KEY_PREFIX}${deleted}`]); // Redis loses both before any flush
  assert.deepEqual(await again.get(updated), Buffer.from('new'));
  assert.equal(await again.get(deleted), null, 'a delete not yet in PostgreSQL still reads as deleted');
});

test('redis+postgres: an append to a key Redis has lost lands on the durable value, ' +
  'and PostgreSQL gets the whole of it', async (t) => {
  const opened = await openWriteBehind(t, { flushIntervalMs: 600_000 });
  if (!opened) return;
  const { store, prefix, redis, rowsOf } = opened;
  const key = `${prefix}appended`;
  await store.set(key, Buffer.from('head-'));
  await store.append(key, Buffer.from('1'));
  await store.close();
  const again = await writeBehind.open(await sqlConnections(t, { redis: true }), { flushIntervalMs: 600_000 });
  await redis.del(`${KEY_PREFIX}${key}`);
  await Promise.all([again.append(key, Buffer.from('2')), again.append(key, Buffer.from('2'))]);
  assert.deepEqual(await again.get(key), Buffer.from('head-122'));
  await again.close();
  assert.deepEqual((await rowsOf()).get(key), Buffer.from('head-122'));
});

test('redis+postgres: at open, the writes a run that died left in the journal reach PostgreSQL before the store ' +
  'serves; a value Redis lost is never taken for a delete', async (t) => {
  // Regression: after a kill -9 of the app, the writes acknowledged in the last flush window never reached PostgreSQL.
  const opened = await openWriteBehind(t, { flushIntervalMs: 600_000 });
  if (!opened) return;
  const { store, prefix, redis, rowsOf } = opened;
  await store.close();
  const [written, deleted, lost] = ['written', 'deleted', 'lost'].map((name) => `${prefix}${name}`);
  const { default: pg } = await import('pg');
  const client = new pg.Client(testPostgresUrl);
  await client.connect();
  await client.query(
    `INSERT INTO ${TABLE} (key, value) VALUES ($1, 'old'), ($2, 'old'), ($3, 'old')`,
    [written, deleted, lost],
  );
  await client.end();
  // What a run killed before its flush leaves: each value (or its absence) in Redis, and its journal entry.
  await redis.set(`${KEY_PREFIX}${written}`, Buffer.from('new'));
  await redis.hSet(QUEUE_KEY, { [written]: 'sdead:1', [deleted]: 'ddead:2', [lost]: 'sdead:3' });

  const again = await writeBehind.open(await sqlConnections(t, { redis: true }), { flushIntervalMs: 600_000 });
  t.after(() => again.close());
  const rows = await rowsOf();
  assert.deepEqual(rows.get(written), Buffer.from('new'), 'the value Redis holds, replayed');
  assert.equal(rows.has(deleted), false, 'the delete, replayed');
  assert.deepEqual(rows.get(lost), Buffer.from('old'), 'a value Redis no longer has leaves PostgreSQL\'s as it was');
  const stats = again.stats();
  assert.equal(stats.queue, 'redis');
  assert.ok(stats.replayed >= 2 && stats.replayLost >= 1, JSON.stringify(stats));
  assert.equal(stats.pendingWrites, 0, 'replayed before open() resolved');
  assert.equal(
    await redis.hmGet(QUEUE_KEY, [written, deleted, lost]).then((tokens) => tokens.filter(Boolean).length),
    0,
    'their journal entries gone',
  );
});

test('redis+postgres: a write\'s journal entry is in Redis from its acknowledgement until PostgreSQL has it; ' +
  'the in-memory queue writes none', async (t) => {
  const opened = await openWriteBehind(t, { flushIntervalMs: 600_000 });
  if (!opened) return;
  const { store, prefix, redis, rowsOf } = opened;
  const key = `${prefix}journaled`;
  await store.set(key, payloads.key1);
  await store.setMany([[`${prefix}bulk`, payloads.key1]]);
  await store.delete(`${prefix}bulk`);
  assert.match(String(await redis.hGet(QUEUE_KEY, key)), /^s/, 'a set: its entry, with the acknowledgement');
  assert.match(String(await redis.hGet(QUEUE_KEY, `${prefix}bulk`)), /^d/, 'the newest write of a key is its entry: the delete');
  await store.close();
  assert.deepEqual((await rowsOf()).get(key), payloads.key1);
  assert.equal(Number(await redis.hExists(QUEUE_KEY, key)), 0, 'gone once PostgreSQL committed it');

  const inMemory = await writeBehind.open(
    await sqlConnections(t, { redis: true }),
    { flushIntervalMs: 600_000, writeBehindQueue: 'memory' },
  );
  t.after(() => inMemory.close());
  await inMemory.set(`${prefix}unjournaled`, payloads.key1);
  assert.equal(Number(await redis.hExists(QUEUE_KEY, `${prefix}unjournaled`)), 0, 'no entry');
  assert.equal(inMemory.stats().queue, 'memory');
});
