// A store's server failing mid-run turns into 503s for that store only, and the store
// recovers when the server returns, without restarting the app. The tests own the servers,
// so they can stop and restart them; each also starts the app while its server is down.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { startApp } from '../../app/start-app.js';
import { payloads } from '../../stores/payloads.js';
import { freePort, startServer } from '../../embedded/child-process.js';
import { which } from '../../util/which.js';
import { createCluster, findServerBinaries, postgresRunner, runCluster } from '../../embedded/postgres-server.js';
import { reachable, testRedisUrl, unavailable } from '../helpers/services.js';

const RECOVERY_DEADLINE_MS = 30_000; // a bound for a stuck store, not a speed expectation

// Polls GET path until it answers status; returns that response's body.
async function waitForStatus(app, path, status) {
  const deadline = Date.now() + RECOVERY_DEADLINE_MS;
  for (;;) {
    const response = await fetch(`${app.url}${path}`);
    const body = Buffer.from(await response.arrayBuffer());
    if (response.status === status) return body;
    assert.ok(Date.now() < deadline, `${path} still answers ${response.status} (${body}), not ${status}`);
    await sleep(200);
  }
}

async function assertDown(app, store) {
  const body = JSON.parse(await waitForStatus(app, `/${store}/key1`, 503));
  assert.equal(body.store, store);
  assert.equal(body.code, 'STORE_UNAVAILABLE');
}

async function assertServes(app, store) {
  const body = await waitForStatus(app, `/${store}/key1`, 200);
  assert.ok(body.equals(payloads.key1), `${store}/key1 is the seeded payload`);
}

// A redis-server of the test's own, with an append-only file so its data survives a restart.
async function ownRedis(t) {
  const command = which('redis-server');
  const dir = await mkdtemp(join(tmpdir(), 'storebench-recovery-redis-'));
  const port = await freePort();
  let server;
  const start = async () => {
    server = await startServer({
      name: 'redis-server',
      command,
      args: [
        '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always',
        '--dir', dir, '--logfile', '',
      ],
      port,
    });
  };
  const stop = () => server?.stop();
  t.after(async () => {
    await stop();
    await rm(dir, { recursive: true, force: true });
  });
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}

test('Redis down at start, then stopped mid-run: redis and ioredis answer 503, memory 200, ' +
  'and both recover without an app restart', async (t) => {
  if (!which('redis-server')) return unavailable(t, 'redis-server is not installed');
  const redis = await ownRedis(t);
  const app = await startApp({
    port: 0, host: '127.0.0.1', stores: ['memory', 'redis', 'ioredis'], env: { REDIS_URL: redis.url }, embedded: false,
  });
  t.after(() => app.close());

  await assertDown(app, 'redis');
  await assertDown(app, 'ioredis');
  await redis.start(); // the StoreSet opens (and seeds) them in the background
  await assertServes(app, 'redis');
  await assertServes(app, 'ioredis');

  await redis.stop();
  await assertDown(app, 'redis');
  await assertDown(app, 'ioredis');
  await assertServes(app, 'memory');
  const { stores } = await (await fetch(`${app.url}/stores`)).json();
  assert.deepEqual(stores.map((s) => s.status), ['up', 'down', 'down']);

  await redis.start();
  await assertServes(app, 'redis');
  await assertServes(app, 'ioredis');
});

test('PostgreSQL down at start, then stopped mid-run: its stores answer 503 (write-behind keeps serving from Redis), ' +
  'and recover without an app restart', async (t) => {
  if (!findServerBinaries()) {
    return unavailable(t, 'PostgreSQL server binaries are not installed (they run the test\'s own cluster)');
  }
  if (!(await reachable(testRedisUrl))) return unavailable(t, `no Redis at ${testRedisUrl}`);
  const runner = await postgresRunner();
  const dataDir = await createCluster(runner);
  const port = await freePort();
  let cluster;
  const start = async () => { cluster = await runCluster(runner, dataDir, port); };
  t.after(async () => {
    await cluster?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });
  const postgresUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const app = await startApp({
    port: 0,
    host: '127.0.0.1',
    stores: ['memory', 'postgres', 'postgres+redis', 'redis+postgres'],
    env: { POSTGRES_URL: postgresUrl, REDIS_URL: testRedisUrl },
    embedded: false,
  });
  t.after(() => app.close());
  const sqlStores = ['postgres', 'postgres+redis', 'redis+postgres'];

  for (const store of sqlStores) await assertDown(app, store);
  await start();
  for (const store of sqlStores) await assertServes(app, store);

  await cluster.stop();
  await assertDown(app, 'postgres');
  // A cached key would still be served from Redis; key3 was never read, so it must go to PostgreSQL.
  assert.equal((await fetch(`${app.url}/postgres+redis/key3`)).status, 503);
  await assertServes(app, 'memory');
  await assertServes(app, 'redis+postgres'); // Redis is its primary
  // A write acknowledged during the outage is kept, and reaches PostgreSQL once it is back.
  const writeBehind = app.stores.entry('redis+postgres').store;
  await writeBehind.set('written-during-outage', payloads.key2);

  await start();
  await assertServes(app, 'postgres');
  await assertServes(app, 'postgres+redis');
  const { default: pg } = await import('pg');
  const client = new pg.Client(postgresUrl);
  await client.connect();
  try {
    const deadline = Date.now() + RECOVERY_DEADLINE_MS;
    for (;;) {
      const { rows } = await client.query(
        'SELECT value FROM storebench_write_behind WHERE key = \'written-during-outage\'');
      if (rows.length) {
        assert.ok(rows[0].value.equals(payloads.key2));
        break;
      }
      assert.ok(Date.now() < deadline,
        `the write made during the outage never reached PostgreSQL: ${JSON.stringify(writeBehind.stats())}`);
      await sleep(200);
    }
  } finally {
    await client.end(); // before the after-hooks stop the cluster under it
  }
});
