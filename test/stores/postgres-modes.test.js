// The PostgreSQL store's two modes study 004 ran: writes one at a time (serial) and reads that
// join an item_locations row to its locations row (join), against the real server.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as postgres from '../../stores/postgres.js';
import { storeConformance } from '../helpers/store-conformance.js';
import { sqlConnections, testPool } from '../helpers/sql-stores.js';

storeConformance(
  postgres,
  (t) => sqlConnections(t),
  { settings: { postgresReads: 'join', postgresWrites: 'serial', table: 'storebench_test_modes' } },
);

// A write to key a waits on a row lock another connection holds; does a write to key b wait too?
async function secondWriteWaits(t, postgresWrites) {
  const connections = await sqlConnections(t);
  if (!connections) return undefined;
  const table = `storebench_test_${postgresWrites}`;
  const store = await postgres.open(connections, { table, postgresWrites });
  t.after(() => store.close());
  await store.set('a', Buffer.from('0'));
  const pool = await testPool(t);
  const holder = await pool.connect();
  await holder.query('BEGIN');
  await holder.query(`SELECT value FROM ${table} WHERE key = 'a' FOR UPDATE`);
  const first = store.set('a', Buffer.from('1'));
  let secondDone = false;
  const second = store.set('b', Buffer.from('2')).then(() => { secondDone = true; });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const waited = !secondDone;
  await holder.query('COMMIT');
  holder.release();
  await Promise.all([first, second]);
  assert.equal((await store.get('a')).toString(), '1');
  assert.equal((await store.get('b')).toString(), '2');
  await pool.query(`DROP TABLE IF EXISTS ${table}`);
  return waited;
}

test('postgres serial writes: a write waits for the one before it, even to another key', async (t) => {
  const waited = await secondWriteWaits(t, 'serial');
  if (waited !== undefined) assert.equal(waited, true);
});

test('postgres concurrent writes: a write to another key passes one that waits on a row lock', async (t) => {
  const waited = await secondWriteWaits(t, 'concurrent');
  if (waited !== undefined) assert.equal(waited, false);
});

test('postgres join reads: a value lives in <table>_locations, ' +
  'pointed at by <table>_item_locations, both indexed', async (t) => {
  const connections = await sqlConnections(t);
  if (!connections) return;
  const pool = await testPool(t);
  const table = 'storebench_test_join';
  const drop = () => pool.query(`DROP TABLE IF EXISTS ${table}, ${table}_locations, ${table}_item_locations`);
  await drop();
  const store = await postgres.open(connections, { table, postgresReads: 'join' });
  t.after(() => store.close());
  await store.set('item5', Buffer.from('first'));
  await store.set('item5', Buffer.from('second'));
  await store.append('item5', Buffer.from('+'));
  assert.equal((await store.get('item5')).toString(), 'second+');
  const { rows } = await pool.query(
    `SELECT i.item, l.value FROM ${table}_item_locations i JOIN ${table}_locations l ON l.id = i.location_id`,
  );
  assert.deepEqual(
    rows.map((row) => [row.item, row.value.toString()]),
    [['item5', 'second+']],
    'one item row, updated in place',
  );
  const { rows: indexes } = await pool.query(
    'SELECT tablename FROM pg_indexes WHERE tablename IN ($1, $2) ORDER BY tablename',
    [`${table}_item_locations`, `${table}_locations`],
  );
  assert.deepEqual(indexes.map((row) => row.tablename), [`${table}_item_locations`, `${table}_locations`]);
  await store.delete('item5');
  assert.equal(await store.get('item5'), null);
  const { rows: left } = await pool.query(`SELECT count(*)::int AS n FROM ${table}_locations`);
  assert.equal(left[0].n, 0, 'a delete removes the locations row too');
  const { rows: keyRows } = await pool.query(`SELECT count(*)::int AS n FROM ${table}`);
  assert.equal(keyRows[0].n, 0, 'the key table is not written in join mode');
  await drop();
});
