// The largest value memcached and Tarantool accept, as their stores report it (valueLimit()),
// against the real servers: the value of exactly that size is accepted under the longest key
// and reads back byte-exact, one byte more is refused as VALUE_TOO_LARGE. That pins the
// per-item overheads of stores/value-limits.js, measured on these servers.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import * as memcached from '../../stores/memcached.js';
import * as tarantool from '../../stores/tarantool.js';
import * as tarantoolMemtx from '../../stores/tarantool-memtx.js';
import { startMemcachedServer } from '../../embedded/memcached-server.js';
import { startTarantool } from '../../embedded/tarantool.js';
import { KEY_MAX_LENGTH } from '../../stores/keys.js';
import { memcachedMaxValue, tarantoolMaxValue } from '../../stores/value-limits.js';
import { which } from '../../util/which.js';
import { unavailable } from '../helpers/services.js';

const MB = 1024 ** 2;
const longestKey = 'k'.repeat(KEY_MAX_LENGTH);

/** The value of exactly the reported size is stored and read back byte-exact; one byte more is refused. */
async function assertExactLimit(store, maxValueSize, { dropsOld = false } = {}) {
  const fits = randomBytes(maxValueSize);
  await store.set(longestKey, fits);
  assert.ok((await store.get(longestKey)).equals(fits), 'the value at the limit reads back byte-exact');
  await assert.rejects(store.set(longestKey, randomBytes(maxValueSize + 1)), { code: 'VALUE_TOO_LARGE', status: 413 });
  // memcached unlinks the key's old item when it refuses a new one for its size (no stale
  // value survives a failed set); Tarantool keeps it.
  if (dropsOld) assert.equal(await store.get(longestKey), null, 'memcached dropped the old value');
  else assert.ok((await store.get(longestKey)).equals(fits), 'the refused value left the stored one alone');
  // A shorter key leaves room for more: the figure is the one every key can have.
  await store.set('short', randomBytes(maxValueSize + 1));
  await store.delete(longestKey);
  await store.delete('short');
}

async function ownMemcached(t, itemSize) {
  if (!which('memcached')) return void unavailable(t, 'memcached is not installed');
  const server = await startMemcachedServer({ itemSize });
  t.after(() => server.stop());
  return server;
}

async function ownTarantool(t, maxTupleSize) {
  if (!which('tarantool')) return void unavailable(t, 'tarantool is not installed (apt-get install tarantool)');
  const server = await startTarantool({ maxTupleSize });
  t.after(() => server.stop());
  return server;
}

test('the embedded memcached (-I 1 MB) takes 1048267 bytes under the longest key, and not one more', async (t) => {
  const server = await ownMemcached(t);
  if (!server) return;
  const store = await memcached.open({ memcached: { url: server.url, source: 'embedded' } });
  t.after(() => store.close());
  assert.deepEqual(store.valueLimit(), {
    maxValueSize: 1048267,
    limit: 'memcached -I: item_size_max 1048576 bytes as the server says, less 309 for the item header, CAS ' +
      'and the longest key',
    raise: 'STOREBENCH_MEMCACHED_ITEM_SIZE or app.js --memcached-item-size for the embedded server',
  });
  await assertExactLimit(store, 1048267, { dropsOld: true });
});

test('a configured memcached with -I 1536k: its limit comes from stats settings, raised with its own -I', async (t) => {
  const server = await ownMemcached(t, 1.5 * MB);
  if (!server) return;
  // Opened as a configured server, with the setting left at 1 MB: the figure can only be the server's.
  const store = await memcached.open({ memcached: { url: server.url, source: 'MEMCACHED_URL' } });
  t.after(() => store.close());
  assert.equal(store.valueLimit().maxValueSize, 1.5 * MB - 309);
  assert.equal(store.valueLimit().raise, 'the server\'s own memcached -I');
  await assertExactLimit(store, 1.5 * MB - 309, { dropsOld: true });
});

test('memcached -I 2m, as --memcached-item-size 2MB starts it: 2 MB less 309 bytes, and not one more', async (t) => {
  const server = await ownMemcached(t, 2 * MB);
  if (!server) return;
  const connections = { memcached: { url: server.url, source: 'embedded' } };
  const store = await memcached.open(connections, { memcachedItemSize: 2 * MB });
  t.after(() => store.close());
  assert.equal(store.valueLimit().maxValueSize, memcachedMaxValue(2 * MB));
  assert.equal(memcachedMaxValue(2 * MB), 2 * MB - 309);
  await assertExactLimit(store, 2 * MB - 309, { dropsOld: true });
});

test('the embedded Tarantool (1 MB tuples): vinyl takes 1048286 bytes, memtx 1048304, and not one more', async (t) => {
  const server = await ownTarantool(t);
  if (!server) return;
  for (const [adapter, engine, largest] of [[tarantool, 'vinyl', 1048286], [tarantoolMemtx, 'memtx', 1048304]]) {
    const store = await adapter.open({ tarantool: { url: server.url, source: 'embedded' } });
    t.after(() => store.close());
    assert.deepEqual(store.valueLimit(), {
      maxValueSize: largest,
      limit: `box.cfg ${engine}_max_tuple_size: 1048576 bytes as the server says, less ${MB - largest} ` +
        'for the tuple header and the longest key',
      raise: 'STOREBENCH_TARANTOOL_TUPLE_SIZE or app.js --tarantool-tuple-size for the embedded server',
    });
    await assertExactLimit(store, largest);
  }
});

test('Tarantool with 3 MB tuples (--tarantool-tuple-size 3MB): both engines take the raised figure', async (t) => {
  const server = await ownTarantool(t, 3 * MB);
  if (!server) return;
  for (const [adapter, engine] of [[tarantool, 'vinyl'], [tarantoolMemtx, 'memtx']]) {
    // A configured server (its box.cfg is asked): the raise names the server's own option.
    const store = await adapter.open({ tarantool: { url: server.url, source: 'TARANTOOL_URL' } });
    t.after(() => store.close());
    const largest = tarantoolMaxValue(3 * MB, engine);
    assert.equal(largest, 3 * MB - (engine === 'vinyl' ? 290 : 272));
    assert.equal(store.valueLimit().maxValueSize, largest);
    assert.equal(store.valueLimit().raise, `the server's own box.cfg ${engine}_max_tuple_size`);
    await assertExactLimit(store, largest);
  }
});
