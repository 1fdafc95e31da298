// StoreSet's write operations: the checks made before any store is called, bulk loads through
// a store's setMany or set by set, deadlines, and refusals that are not outages. In-process
// stores stand in for servers here; against real ones: test/app/writes.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreSet } from '../../stores/store-set.js';
import { ValueTooLargeError } from '../../util/errors.js';

/** A Map store that counts its calls; with bulk, it has setMany; hold makes every call wait for ever. */
function countingStore({ bulk = false, append = false } = {}) {
  const data = new Map();
  const calls = { get: 0, set: 0, delete: 0, append: 0, setMany: [] };
  const store = {
    data,
    calls,
    hold: false,
    async run(work) {
      if (store.hold) return new Promise(() => {});
      return work();
    },
    get: (key) => store.run(() => { calls.get++; return data.get(key) ?? null; }),
    set: (key, bytes) => store.run(() => {
      calls.set++;
      if (bytes.length > 1000) throw new ValueTooLargeError(`the server refused ${bytes.length} bytes`);
      data.set(key, bytes);
    }),
    delete: (key) => store.run(() => { calls.delete++; data.delete(key); }),
    ping: () => store.run(() => {}),
    close: async () => {},
    ...(append
      ? {
          append: (key, bytes) =>
            store.run(() => {
              calls.append++;
              data.set(key, Buffer.concat([data.get(key) ?? Buffer.alloc(0), bytes]));
            }),
        }
      : {}),
    ...(bulk
      ? {
          setMany: (entries) =>
            store.run(() => {
              calls.setMany.push(entries.length);
              for (const [key, bytes] of entries) data.set(key, bytes);
            }),
        }
      : {}),
  };
  return store;
}

function storeSet(stores, { opTimeoutMs = 1000 } = {}) {
  return new StoreSet(Object.entries(stores).map(([name, store]) => ({
    adapter: {
      name,
      description: name,
      needs: ['x'],
      writes: { append: Boolean(store.append), bulk: store.setMany ? 'native' : 'one by one' },
    },
    connections: {},
    open: async () => ({ store, keys: [] }),
  })), [], { opTimeoutMs });
}

const b = (text) => Buffer.from(text);

test('write, append and remove reach the store; GET reads back what was written', async (t) => {
  const store = countingStore({ append: true });
  const stores = storeSet({ s: store });
  t.after(() => stores.close());
  await stores.openAll();
  await stores.write('s', 'k', b('ab'));
  await stores.append('s', 'k', b('cd'));
  assert.deepEqual(await stores.read('s', 'k'), b('abcd'));
  await stores.remove('s', 'k');
  await stores.remove('s', 'k');
  await assert.rejects(stores.read('s', 'k'), { code: 'KEY_NOT_FOUND' });
});

test('checks come before any store call, in order: 404 store, 400 key, 405 append, 503 unavailable', async (t) => {
  const store = countingStore();
  const stores = new StoreSet([
    {
      adapter: { name: 's', description: 's', needs: [], writes: { append: false, bulk: 'one by one' } },
      connections: {},
      open: async () => ({ store, keys: [] }),
    },
    {
      adapter: { name: 'down', description: 'down', needs: [], writes: { append: true, bulk: 'native' } },
      reason: 'no server',
      reasonCode: 'NOT_CONFIGURED',
    },
  ]);
  t.after(() => stores.close());
  await stores.openAll();
  assert.throws(() => stores.prepare('nosuch', '%%'), { code: 'UNKNOWN_STORE', status: 404 });
  for (const key of ['', 'a b', '..\0', 'x'.repeat(251), 'storebench#write-behind#key1']) {
    await assert.rejects(stores.read('s', key), { code: 'INVALID_KEY', status: 400, store: 's' }, JSON.stringify(key));
    await assert.rejects(stores.write('s', key, b('x')), { code: 'INVALID_KEY' });
    await assert.rejects(stores.remove('s', key), { code: 'INVALID_KEY' });
  }
  await assert.rejects(stores.append('s', 'k', b('x')), { code: 'APPEND_UNSUPPORTED', status: 405, store: 's' });
  assert.throws(() => stores.prepare('down', 'bad key'), { code: 'INVALID_KEY' });
  await assert.rejects(stores.append('down', 'k', b('x')), { code: 'STORE_UNAVAILABLE', status: 503 });
  await assert.rejects(stores.writeMany('s', [['ok', b('1')], ['not ok', b('2')]]), { code: 'INVALID_KEY', message: /not U\+0020$/ });
  assert.deepEqual(store.calls, { get: 0, set: 0, delete: 0, append: 0, setMany: [] }, 'the store was never called');
  assert.equal(store.data.size, 0, 'a bulk load with one bad key writes nothing');
});

test('a bulk load goes through setMany in chunks where the store has one, set by set where it has none, ' +
  'a later entry for a key winning', async (t) => {
  const native = countingStore({ bulk: true });
  const single = countingStore();
  const stores = storeSet({ native, single });
  t.after(() => stores.close());
  await stores.openAll();
  const entries = Array.from({ length: 2500 }, (_, i) => [`user${String(i).padStart(10, '0')}`, b(String(i))]);
  entries.push(['user0000000007', b('last')]);
  for (const name of ['native', 'single']) assert.equal(await stores.writeMany(name, entries), 2501);
  assert.deepEqual(native.calls.setMany, [1000, 1000, 500]);
  assert.equal(native.calls.set, 0);
  assert.equal(single.calls.set, 2500);
  for (const store of [native, single]) {
    assert.equal(store.data.size, 2500);
    assert.deepEqual(store.data.get('user0000000007'), b('last'));
  }
  assert.deepEqual(
    (await stores.status()).map((s) => s.writes),
    [{ append: false, bulk: 'native' }, { append: false, bulk: 'one by one' }],
  );
});

test('every write operation is under the operation deadline: 503 STORE_TIMEOUT naming it', async (t) => {
  const store = countingStore({ bulk: true, append: true });
  const stores = storeSet({ s: store }, { opTimeoutMs: 40 });
  t.after(() => stores.close());
  await stores.openAll();
  store.hold = true;
  await assert.rejects(
    stores.write('s', 'k', b('x')),
    { code: 'STORE_TIMEOUT', message: 'store "s" did not answer set within 40 ms' },
  );
  await assert.rejects(stores.remove('s', 'k'), { code: 'STORE_TIMEOUT', message: /delete/ });
  await assert.rejects(stores.append('s', 'k', b('x')), { code: 'STORE_TIMEOUT', message: /append/ });
  await assert.rejects(stores.writeMany('s', [['k', b('x')]]), { code: 'STORE_TIMEOUT', message: /setMany/ });
});

test('a value the server refuses for its size is a 413 naming the store, not an outage', async (t) => {
  const store = countingStore();
  const stores = storeSet({ s: store });
  t.after(() => stores.close());
  await stores.openAll();
  await assert.rejects(
    stores.write('s', 'k', Buffer.alloc(2000)),
    { code: 'VALUE_TOO_LARGE', status: 413, store: 's' },
  );
  const writes = store.calls.set;
  await sleep(10);
  assert.equal(store.calls.set, writes, 'no re-seed: the server never failed');
  assert.equal((await stores.status())[0].status, 'up');
});
