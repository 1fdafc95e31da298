// StoreSet's own rules, with small in-process stores standing in for servers that are slow,
// silent or forgetful on cue. The same rules against real servers: test/app/op-deadline.test.js,
// test/app/open-deadline.test.js and test/app/reseed.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreSet } from '../../stores/store-set.js';
import { seedStore } from '../../stores/seed.js';
import { payloads } from '../../stores/payloads.js';

/** A Map-backed store whose every operation can be held or failed by the test. */
function controlledStore() {
  const data = new Map();
  const store = {
    hold: false, // operations wait for ever
    fail: false, // operations reject
    closed: 0,
    writes: 0,
    data,
    async run(work) {
      if (store.hold) return new Promise(() => {});
      if (store.fail) throw new Error('connection lost');
      return work();
    },
    get: (key) => store.run(() => data.get(key) ?? null),
    set: (key, bytes) => store.run(() => { store.writes++; data.set(key, bytes); }),
    delete: (key) => store.run(() => { data.delete(key); }),
    ping: () => store.run(() => {}),
    close: async () => { store.closed++; },
  };
  return store;
}

/** An entry whose open() resolves (connected and seeded) after openMs. */
function entry(name, store, openMs = 0, { fails } = {}) {
  return {
    adapter: { name, description: `${name} store`, needs: ['x'] },
    connections: {},
    open: async () => {
      await sleep(openMs);
      if (fails) throw new Error(fails);
      return { store, keys: await seedStore(store) };
    },
  };
}

test('an open past the deadline leaves the store unavailable with OPEN_TIMEOUT, ' +
  'then adopts it when it completes', async (t) => {
  const store = controlledStore();
  const stores = new StoreSet([entry('slow', store, 300)], [], { openTimeoutMs: 50, opTimeoutMs: 1000 });
  t.after(() => stores.close());
  const started = Date.now();
  await stores.openAll();
  assert.ok(Date.now() - started < 250, 'openAll waited for the deadline, not the open');
  const [listed] = await stores.status();
  assert.equal(listed.status, 'unavailable');
  assert.equal(listed.reasonCode, 'OPEN_TIMEOUT');
  assert.equal(
    listed.reason,
    'connecting and seeding took longer than 50 ms (STOREBENCH_OPEN_TIMEOUT_MS); retried in the background',
  );
  await assert.rejects(stores.read('slow', 'key1'), { code: 'STORE_UNAVAILABLE', status: 503 });

  await sleep(400);
  assert.ok((await stores.read('slow', 'key1')).equals(payloads.key1), 'the late open was adopted');
  assert.equal(store.closed, 0);
});

test('an open that completes after close() is closed, not leaked', async () => {
  const store = controlledStore();
  const stores = new StoreSet([entry('slow', store, 150)], [], { openTimeoutMs: 20 });
  await stores.openAll();
  await stores.close();
  assert.equal(store.closed, 0, 'nothing opened yet');
  await sleep(250);
  assert.equal(store.closed, 1, 'the late store was closed');
  assert.equal(stores.entry('slow').store, undefined);
});

test('an open that fails in time is OPEN_FAILED with the error as the reason; ' +
  'one that fails late replaces OPEN_TIMEOUT with it', async (t) => {
  const stores = new StoreSet([
    entry('refused', controlledStore(), 0, { fails: 'connect ECONNREFUSED 127.0.0.1:1' }),
    entry('late', controlledStore(), 120, { fails: 'no connection within 5000 ms' }),
  ], [], { openTimeoutMs: 40 });
  t.after(() => stores.close());
  await stores.openAll();
  assert.deepEqual(
    (await stores.status()).map(({ reason, reasonCode }) => ({ reason, reasonCode })),
    [
      { reason: 'connect ECONNREFUSED 127.0.0.1:1', reasonCode: 'OPEN_FAILED' },
      {
        reason:
            'connecting and seeding took longer than 40 ms (STOREBENCH_OPEN_TIMEOUT_MS); retried in the background',
        reasonCode: 'OPEN_TIMEOUT',
      },
    ],
  );
  await sleep(150);
  const late = (await stores.status())[1];
  assert.deepEqual([late.reason, late.reasonCode], ['no connection within 5000 ms', 'OPEN_FAILED']);
});

test('while an open is still under way past its deadline, no second one starts', async (t) => {
  let opens = 0;
  const silent = {
    adapter: { name: 'silent', description: 'silent store', needs: ['x'] },
    connections: {},
    open: () => { opens++; return new Promise(() => {}); },
  };
  const stores = new StoreSet([silent], [], { openTimeoutMs: 20 });
  t.after(() => stores.close());
  await stores.openAll();
  silent.triedAt = 0; // as if the retry interval had passed
  await stores.status();
  await assert.rejects(stores.read('silent', 'key1'), { code: 'STORE_UNAVAILABLE' });
  assert.equal(opens, 1);
});

test('a set opened for one run (reopen: false) says a store past the deadline is not used in this ' +
  'run, and never retries it', async (t) => {
  // Pins the review's finding: "retried in the background" was said where nothing retries (the driver's sets).
  let opens = 0;
  const silent = {
    adapter: { name: 'silent', description: 'silent store', needs: ['x'] },
    connections: {},
    open: () => { opens++; return new Promise(() => {}); },
  };
  const stores = new StoreSet([silent], [], { openTimeoutMs: 20, reopen: false });
  t.after(() => stores.close());
  await stores.openAll();
  const [listed] = await stores.status();
  assert.equal(
    listed.reason,
    'connecting and seeding took longer than 20 ms (STOREBENCH_OPEN_TIMEOUT_MS); not used in this run',
  );
  silent.attempt = undefined; // as if that attempt had ended
  silent.triedAt = 0; // and the retry interval had passed
  await stores.status();
  await assert.rejects(stores.read('silent', 'key1'), { code: 'STORE_UNAVAILABLE' });
  assert.equal(opens, 1);
});

test('an operation past the deadline is a 503 STORE_TIMEOUT, /stores says down, ' +
  'and the store answers again when its server does', async (t) => {
  const store = controlledStore();
  const stores = new StoreSet([entry('frozen', store)], [], { opTimeoutMs: 60 });
  t.after(() => stores.close());
  await stores.openAll();
  store.hold = true;
  const started = Date.now();
  await assert.rejects(
    stores.read('frozen', 'key1'),
    { code: 'STORE_TIMEOUT', status: 503, store: 'frozen', message: 'store "frozen" did not answer get within 60 ms' },
  );
  assert.ok(Date.now() - started < 1000);
  const [listed] = await stores.status();
  assert.deepEqual(
    [listed.status, listed.reasonCode, listed.reason],
    ['down', 'STORE_TIMEOUT', 'store "frozen" did not answer ping within 60 ms'],
  );

  store.hold = false;
  const writes = store.writes;
  assert.ok((await stores.read('frozen', 'key1')).equals(payloads.key1));
  assert.equal((await stores.status())[0].status, 'up');
  await sleep(20);
  assert.equal(store.writes, writes, 'a server that was only slow keeps its data: no re-seed');
});

test('a seeded key found missing is re-seeded and served; ' +
  'a key never seeded is still a 404 and re-seeds nothing', async (t) => {
  const store = controlledStore();
  const stores = new StoreSet([entry('forgetful', store)], [], {});
  t.after(() => stores.close());
  await stores.openAll();
  store.data.clear(); // the server restarted empty
  const writes = store.writes;
  const answers = await Promise.all([1, 2, 3, 4, 5].map(() => stores.read('forgetful', 'key2')));
  for (const bytes of answers) assert.ok(bytes.equals(payloads.key2));
  assert.equal(store.writes - writes, 3, 'concurrent readers shared one re-seed of key1..key3');
  await assert.rejects(stores.read('forgetful', 'key4'), { code: 'KEY_NOT_FOUND', status: 404 });
  assert.equal(store.writes - writes, 3);
});

test('the first answer after an outage re-seeds in the background what the server lost, and only that', async (t) => {
  const store = controlledStore();
  const stores = new StoreSet([entry('flaky', store)], [], {});
  t.after(() => stores.close());
  await stores.openAll();
  store.fail = true;
  await assert.rejects(
    stores.read('flaky', 'key1'),
    { code: 'STORE_UNAVAILABLE', message: 'store "flaky" is unavailable: connection lost' },
  );
  store.fail = false;
  store.data.delete('key1');
  store.data.delete('key3'); // lost in the outage; key2 kept
  const writes = store.writes;
  assert.equal((await stores.status())[0].status, 'up');
  await sleep(20);
  assert.equal(store.writes - writes, 2, 'key1 and key3 written back, key2 left as it was');
  assert.ok(store.data.get('key3').equals(payloads.key3));
});

test('a seeded key the app deleted is never re-seeded: not by a read, not after an outage; ' +
  'written again, it is seeded data again', async (t) => {
  // Regression: DELETE of key1 answered 204, and the next read re-seeded it.
  const store = controlledStore();
  const stores = new StoreSet([entry('s', store)], [], {});
  t.after(() => stores.close());
  await stores.openAll();
  await stores.remove('s', 'key1');
  await assert.rejects(stores.read('s', 'key1'), { code: 'KEY_NOT_FOUND', status: 404 });
  store.fail = true;
  await assert.rejects(stores.read('s', 'key2'), { code: 'STORE_UNAVAILABLE' });
  store.fail = false;
  store.data.clear(); // the server came back empty
  assert.ok((await stores.read('s', 'key2')).equals(payloads.key2), 'what the app did not delete comes back');
  await sleep(20);
  await assert.rejects(stores.read('s', 'key1'), { code: 'KEY_NOT_FOUND', status: 404 });
  assert.equal(store.data.has('key1'), false);

  await stores.write('s', 'key1', Buffer.from('mine'));
  store.data.clear();
  const now = Date.now;
  t.mock.method(Date, 'now', () => now() + 1100); // past the re-seed interval, without the wait
  assert.ok((await stores.read('s', 'key1')).equals(payloads.key1), 'written again then lost by the server: re-seeded');
});
