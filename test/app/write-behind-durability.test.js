// redis+postgres under a real write load, through HTTP, in the app's own process: after
// 10,000 acknowledged writes (overwrites, appends and deletes among them) and a clean SIGTERM,
// PostgreSQL holds exactly what was acknowledged last for every key.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { startAppProcess } from '../../driver/app-process.js';
import { TABLE, KEY_PREFIX } from '../../stores/layers/redis+postgres.js';
import { sqlConnections, testPool, testRedis } from '../helpers/sql-stores.js';
import { testPostgresUrl, testRedisUrl } from '../helpers/services.js';

const WRITES = 10_000;
const WORKERS = 32; // each owns its keys, so each key's writes happen in a known order
const KEYS_PER_WORKER = 120;

test('redis+postgres: 10,000 writes through HTTP, then SIGTERM: PostgreSQL holds every acknowledged value', async (t) => {
  if (!(await sqlConnections(t, { redis: true }))) return;
  const prefix = `durable-${randomUUID()}`;
  // Registered before the clients' own after-hooks, which run first-registered first.
  t.after(async () => {
    await pool.query(`DELETE FROM ${TABLE} WHERE key LIKE $1`, [`${prefix}%`]);
    for await (const keys of redis.scanIterator({ MATCH: `${KEY_PREFIX}${prefix}*`, COUNT: 1000 })) if (keys.length) await redis.del(keys);
  });
  const pool = await testPool(t);
  const redis = await testRedis(t);

  const app = await startAppProcess({ stores: ['redis+postgres'], env: { ...process.env, REDIS_URL: testRedisUrl, POSTGRES_URL: testPostgresUrl } });
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
