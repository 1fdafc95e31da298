import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import * as postgres from '../../stores/postgres.js';
import { findServerBinaries, missingReason, startPostgresServer } from '../../embedded/postgres-server.js';
import { payloads } from '../../stores/payloads.js';
import { storeConformance } from '../helpers/store-conformance.js';
import { sqlConnections, testPool } from '../helpers/sql-stores.js';
import { reachable, unavailable } from '../helpers/services.js';
import { startAppProcess } from '../../driver/app-process.js';
import { setTimeout as sleep } from 'node:timers/promises';

storeConformance(postgres, (t) => sqlConnections(t));

test('postgres: open() creates its table when missing, as key text primary key / value bytea', async (t) => {
  const connections = await sqlConnections(t);
  if (!connections) return;
  const pool = await testPool(t);
  const table = 'storebench_test_created';
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
  const store = await postgres.open(connections, { table });
  t.after(() => store.close());
  try {
    const { rows } = await pool.query(
      'SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position',
      [table],
    );
    assert.deepEqual(rows, [{ column_name: 'key', data_type: 'text' }, { column_name: 'value', data_type: 'bytea' }]);

    await store.set('key2', payloads.key2);
    const stored = await pool.query(`SELECT value FROM ${table} WHERE key = 'key2'`);
    assert.ok(stored.rows[0].value.equals(payloads.key2), 'the row holds the bytes as written');
    const second = await postgres.open(connections, { table });
    await second.close(); // opening again finds the table there and keeps its rows
    assert.ok((await store.get('key2')).equals(payloads.key2));
  } finally {
    await pool.query(`DROP TABLE IF EXISTS ${table}`);
  }
});

test('postgres: stats() reports the connection pool', async (t) => {
  const connections = await sqlConnections(t);
  if (!connections) return;
  const store = await postgres.open(connections);
  t.after(() => store.close());
  await Promise.all([store.get('key1'), store.get('key2')]);
  const { pool } = store.stats();
  assert.ok(pool.size >= 1, 'at least one connection opened');
  assert.equal(pool.waiting, 0);
});

test('postgres: a connection lost in the middle of setMany\'s transaction rejects the call and ' +
  'does not crash the process', async (t) => {
  const connections = await sqlConnections(t);
  if (!connections) return;
  const pool = await testPool(t);
  const table = 'storebench_test_lost';
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
  const store = await postgres.open(connections, { table });
  t.after(() => store.close());
  const uncaught = [];
  const onUncaught = (error) => uncaught.push(error);
  process.on('uncaughtException', onUncaught);
  t.after(() => process.removeListener('uncaughtException', onUncaught));
  // Another session holds the table locked, so the batch's transaction waits inside; then its
  // server process is ended, as when PostgreSQL stops mid-transaction.
  const locker = await pool.connect();
  await locker.query(`BEGIN; LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  const write = store.setMany([['lost-1', Buffer.from('a')], ['lost-2', Buffer.from('b')]]);
  let waiting = [];
  for (let tries = 0; tries < 100 && !waiting.length; tries += 1) {
    await sleep(20);
    ({ rows: waiting } = await pool.query(
      "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1", [`%${table}%`]));
  }
  assert.equal(waiting.length, 1, 'the batch waits for the lock');
  await pool.query('SELECT pg_terminate_backend($1)', [waiting[0].pid]);
  await assert.rejects(write, /terminat|Connection terminated|ECONNRESET/i);
  await locker.query('ROLLBACK');
  locker.release();
  await sleep(50); // an 'error' event nobody listens to would surface by now
  assert.deepEqual(uncaught.map((error) => error.message), []);
  // The store goes on: the pool hands out a fresh connection.
  await store.setMany([['lost-3', Buffer.from('c')]]);
  assert.deepEqual(await store.get('lost-3'), Buffer.from('c'));
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
});

test('postgres: a server that refuses connections makes open() reject with the reason', async () => {
  await assert.rejects(postgres.open({ postgres: { url: 'postgres://postgres@127.0.0.1:1/test' } }), /ECONNREFUSED/);
});

test('the embedded PostgreSQL is a throwaway cluster on a free port, removed when stopped', async (t) => {
  if (!findServerBinaries()) return unavailable(t, 'PostgreSQL server binaries are not installed');
  let server;
  try {
    server = await startPostgresServer();
  } catch (error) {
    return unavailable(t, error.message); // e.g. root with no postgres user to run it as
  }
  t.after(() => server.stop());
  assert.match(server.url, /^postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres$/);
  const store = await postgres.open({ postgres: { url: server.url } });
  await store.set('key3', payloads.key3);
  assert.ok((await store.get('key3')).equals(payloads.key3));
  await store.close();

  const { default: pg } = await import('pg');
  const client = new pg.Client(server.url);
  await client.connect();
  const { rows } = await client.query('SHOW data_directory');
  await client.end();
  const dataDir = rows[0].data_directory;
  assert.ok(existsSync(dataDir));
  await server.stop();
  assert.ok(!existsSync(dataDir), `${dataDir} removed`);
});

test('with no PostgreSQL binaries the embedded default gives the one-line reason', async () => {
  assert.equal(findServerBinaries('/nonexistent', '/nonexistent'), null);
  await assert.rejects(startPostgresServer({ path: '/nonexistent', root: '/nonexistent' }), { message: missingReason });
  assert.equal(
    missingReason,
    'no POSTGRES_URL and no PostgreSQL server binaries; install postgresql or set POSTGRES_URL',
  );
});

test('an app killed with SIGKILL leaves neither its embedded postgres nor the cluster dir behind', async (t) => {
  if (!findServerBinaries()) return unavailable(t, 'PostgreSQL server binaries are not installed');
  const env = { ...process.env };
  delete env.POSTGRES_URL;
  delete env.DATABASE_URL;
  const app = await startAppProcess({ stores: ['postgres'], env });
  t.after(() => app.stop());
  const { stores } = await (await fetch(`${app.url}/stores`)).json();
  if (stores[0].status !== 'up') return unavailable(t, stores[0].reason);
  const port = stores[0].servers.postgres.match(/^embedded: postgres:\/\/\*\*\*@127\.0\.0\.1:(\d+)\/postgres$/)?.[1];
  assert.ok(port, `an embedded cluster: ${stores[0].servers.postgres}`);
  const { default: pg } = await import('pg');
  const client = new pg.Client(`postgres://postgres@127.0.0.1:${port}/postgres`);
  await client.connect();
  const { rows } = await client.query('SHOW data_directory');
  await client.end();
  const dataDir = rows[0].data_directory;

  app.child.kill('SIGKILL');
  await app.exited;
  const deadline = Date.now() + 15_000;
  while (existsSync(dataDir) || (await reachable(`postgres://127.0.0.1:${port}`))) {
    assert.ok(Date.now() < deadline, `${dataDir} or the server on ${port} outlived the app`);
    await sleep(100);
  }
});

test('npm run seed (node data/seed.js) seeds a PostgreSQL given by POSTGRES_URL and ' +
  'skips what is not configured', async (t) => {
  // Regression: seed.js awaited main() at top level while stores/index.js imported it back, and exited 13.
  const connections = await sqlConnections(t);
  if (!connections) return;
  const pool = await testPool(t);
  await pool.query('DELETE FROM storebench WHERE key = ANY($1)', [Object.keys(payloads)]);
  const { execFile } = await import('node:child_process');
  const seedScript = new URL('../../data/seed.js', import.meta.url).pathname;
  const { code, stdout } = await new Promise((resolve) => {
    execFile(
      process.execPath,
      [seedScript],
      { env: { PATH: process.env.PATH, POSTGRES_URL: connections.postgres.url } },
      (error, out) => resolve({ code: error ? error.code : 0, stdout: out }),
    );
  });
  assert.equal(code, 0, stdout);
  assert.match(stdout, /^postgres: seeded key1, key2, key3$/m);
  assert.match(stdout, /^memcached: skipped \(.*not configured/m);
  const { rows } = await pool.query(
    'SELECT key, value FROM storebench WHERE key = ANY($1) ORDER BY key',
    [Object.keys(payloads)],
  );
  assert.deepEqual(rows.map((row) => row.key), ['key1', 'key2', 'key3']);
  for (const row of rows) assert.ok(row.value.equals(payloads[row.key]), `${row.key} byte-exact`);
});
