// redis+postgres under a real write load, through HTTP, in the app's own process: after
// 10,000 acknowledged writes (overwrites, appends and deletes among them) and a clean SIGTERM,
// PostgreSQL holds exactly what was acknowledged last for every key; after a kill -9 and a
// restart, it holds every acknowledged write too.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { startAppProcess } from '../../driver/app-process.js';
import { TABLE, KEY_PREFIX, QUEUE_KEY } from '../../stores/layers/redis+postgres.js';
import { sqlConnections, testPool, testRedis } from '../helpers/sql-stores.js';
import { testPostgresUrl, testRedisUrl } from '../helpers/services.js';

const WRITES = 10_000;
// Each as one process, and as app.js --workers 2: a key's writes then go through either worker,
// each with its own queue over the one journal (stores/layers/shared-flush.js keeps them in order).
const WORKER_COUNTS = [1, 2];
const WORKERS = 32; // each owns its keys, so each key's writes happen in a known order
const KEYS_PER_WORKER = 120;

for (const appWorkers of WORKER_COUNTS) {
  const args = ['--workers', String(appWorkers)];
  const as = appWorkers > 1 ? ` (--workers ${appWorkers})` : '';

  const title = 'redis+postgres: 10,000 writes over HTTP, then SIGTERM: PostgreSQL holds every acknowledged value';
  test(`${title}${as}`, async (t) => {
    if (!(await sqlConnections(t, { redis: true }))) return;
    const prefix = `durable-${randomUUID()}`;
    // Registered before the clients' own after-hooks, which run first-registered first.
    t.after(async () => {
      await pool.query(`DELETE FROM ${TABLE} WHERE key LIKE $1`, [`${prefix}%`]);
      for await (const keys of redis.scanIterator({ MATCH: `${KEY_PREFIX}${prefix}*`, COUNT: 1000 })) {
        if (keys.length) await redis.del(keys);
      }
    });
    const pool = await testPool(t);
    const redis = await testRedis(t);

    const env = { ...process.env, REDIS_URL: testRedisUrl, POSTGRES_URL: testPostgresUrl };
    const app = await startAppProcess({ stores: ['redis+postgres'], env, args });
    t.after(() => app.child.kill('SIGKILL'));

    const expected = new Map(); // key -> the bytes last acknowledged, or null: deleted
    let sent = 0;
    const worker = async (w) => {
      for (let i = 0; sent < WRITES; i++) {
        sent++;
        const key = `${prefix}-${w}-${i % KEYS_PER_WORKER}`;
        const url = `${app.url}/redis+postgres/${key}`;
        const current = expected.get(key);
        let response;
        if (i % 47 === 46) {
          response = await fetch(url, { method: 'DELETE' });
          if (response.status === 204) expected.set(key, null);
        } else if (i % 13 === 12 && current) {
          const tail = randomBytes(16);
          response = await fetch(`${url}/append`, { method: 'POST', body: tail });
          if (response.status === 204) expected.set(key, Buffer.concat([current, tail]));
        } else {
          const bytes = randomBytes(20 + (i % 200));
          response = await fetch(url, { method: 'PUT', body: bytes });
          if (response.status === 204) expected.set(key, bytes);
        }
        assert.equal(response.status, 204, await response.text());
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
    assert.ok(sent >= WRITES);

    app.child.kill('SIGTERM');
    assert.deepEqual(await app.exited, { code: 0, signal: null });
    const { rows } = await pool.query(`SELECT key, value FROM ${TABLE} WHERE key LIKE $1`, [`${prefix}%`]);
    const durable = new Map(rows.map((row) => [row.key, row.value]));
    const live = [...expected].filter(([, bytes]) => bytes !== null);
    const wrong = live.filter(([key, bytes]) => !durable.get(key)?.equals(bytes)).map(([key]) => key);
    assert.deepEqual(wrong, [], `${wrong.length} of ${live.length} keys do not hold their last acknowledged value`);
    const resurrected = [...expected].filter(([key, bytes]) => bytes === null && durable.has(key)).map(([key]) => key);
    assert.deepEqual(resurrected, [], 'deleted keys stay deleted');
    assert.equal(durable.size, live.length);
  });

  test('redis+postgres: kill -9 of the app under a write load (PUT, append, DELETE), then a restart: ' +
  `PostgreSQL has every acknowledged write${as}`, { timeout: 120_000 }, async (t) => {
  // Regression: the writes acknowledged in the last flush window never reached PostgreSQL after
  // a kill -9 of the app.
    if (!(await sqlConnections(t, { redis: true }))) return;
    const prefix = `killed-${randomUUID()}`;
    t.after(async () => {
      await pool.query(`DELETE FROM ${TABLE} WHERE key LIKE $1`, [`${prefix}%`]);
      for await (const keys of redis.scanIterator({ MATCH: `${KEY_PREFIX}${prefix}*`, COUNT: 1000 })) {
        if (keys.length) await redis.del(keys);
      }
      const left = (await redis.hKeys(QUEUE_KEY)).map(String).filter((key) => key.startsWith(prefix));
      if (left.length) await redis.hDel(QUEUE_KEY, left);
    });
    const pool = await testPool(t);
    const redis = await testRedis(t);
    // No timed flush before the kill (16 x 25 keys stay under a batch of 500, which would flush at
    // once), so that every acknowledged write is still waiting for PostgreSQL when the app dies.
    // The default queue, whatever this shell sets.
    const { STOREBENCH_WRITE_BEHIND_QUEUE: _mode, ...inherited } = process.env;
    const env = {
      ...inherited, REDIS_URL: testRedisUrl, POSTGRES_URL: testPostgresUrl, STOREBENCH_FLUSH_INTERVAL_MS: '600000',
    };
    const first = await startAppProcess({ stores: ['redis+postgres'], env, args });
    t.after(() => first.child.kill('SIGKILL'));

    // key -> what PostgreSQL may hold for it in the end: the value (null: deleted) of its last
    // acknowledged write, and also a write's that was in flight when the app died (it may have landed).
    const possible = new Map();
    const acknowledged = new Map(); // key -> its value (null: deleted) after its last acknowledged write
    let killed = false;
    let puts = 0;
    const worker = async (w) => {
      for (let i = 0; !killed; i++) {
        const key = `${prefix}-${w}-${i % 25}`;
        const url = `${first.url}/redis+postgres/${key}`;
        const current = acknowledged.get(key);
        let after;
        let request;
        if (i % 11 === 10) {
          after = null;
          request = { method: 'DELETE' };
        } else if (i % 7 === 6 && current) {
          const tail = randomBytes(8);
          after = Buffer.concat([current, tail]);
          request = { method: 'POST', body: tail, path: '/append' };
        } else {
          after = randomBytes(16 + (i % 64));
          request = { method: 'PUT', body: after };
        }
        let response;
        try {
          response = await fetch(`${url}${request.path ?? ''}`, { method: request.method, body: request.body });
        } catch {
          possible.set(key, [...(possible.get(key) ?? [null]), after]);
          return;
        }
        if (response.status !== 204) {
          assert.ok(killed, `${request.method} ${key}: ${response.status} ${await response.text()}`);
          return;
        }
        acknowledged.set(key, after);
        possible.set(key, [after]);
        puts++;
      }
    };
    const load = Promise.all(Array.from({ length: 16 }, (_, w) => worker(w)));
    const started = Date.now();
    while (puts < 300 && Date.now() - started < 30_000) await sleep(20);
    first.child.kill('SIGKILL');
    killed = true;
    assert.equal((await first.exited).signal, 'SIGKILL');
    await load;
    assert.ok(puts >= 300, `only ${puts} writes acknowledged before the kill`);
    assert.ok([...acknowledged.values()].includes(null), 'deletes among them');

    const second = await startAppProcess({
      stores: ['redis+postgres'], env: { ...env, STOREBENCH_FLUSH_INTERVAL_MS: '200' }, args,
    });
    t.after(() => second.child.kill('SIGKILL'));
    const wrongKeys = async () => {
      const { rows } = await pool.query(`SELECT key, value FROM ${TABLE} WHERE key LIKE $1`, [`${prefix}%`]);
      const durable = new Map(rows.map((row) => [row.key, row.value]));
      const holds = (key, value) => (value === null ? !durable.has(key) : Boolean(durable.get(key)?.equals(value)));
      return [...possible].filter(([key, values]) => !values.some((value) => holds(key, value)));
    };
    const deadline = Date.now() + 30_000;
    let wrong = await wrongKeys();
    while (wrong.length && Date.now() < deadline) {
      await sleep(200);
      wrong = await wrongKeys();
    }
    assert.deepEqual(wrong.map(([key]) => key), [], `${wrong.length} of ${possible.size} keys lack their last ` +
    `acknowledged value in PostgreSQL after the restart (${puts} writes acknowledged)`);
    second.child.kill('SIGTERM');
    assert.deepEqual(await second.exited, { code: 0, signal: null });
    const left = (await redis.hKeys(QUEUE_KEY)).map(String).filter((key) => key.startsWith(prefix));
    assert.deepEqual(left, [], 'the durable queue holds nothing of them once PostgreSQL has them');
  });
}
