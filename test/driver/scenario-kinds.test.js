// The serial and batch kinds' per-store runs on the real memory store, in this process: the
// scripts' operations all succeed with read-modify-write standing in for a missing append, the
// read-back catches an append that loses bytes, and the batch methods leave no key behind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as memory from '../../stores/memory.js';
import { runClient } from '../../studies/kinds/serial.js';
import { runMethods, runAtOnce, noopStore } from '../../studies/kinds/batch.js';
import { planScripts } from '../../studies/sequences/client-libraries.js';
import { methodOps, usersOf, keysOf } from '../../studies/sequences/redis-vs-memory.js';

const iterations = { serial_put_large: 15, serial_put_big: 2, get_random: 10, get_random_large: 3, get_random_big: 1 };
const bigValueBytes = 100_000;
const plan = planScripts({ iterations, bigValueBytes });

// The memory store as a store without append: what the CouchDB stores are to the serial kind.
async function withoutAppend() {
  const { append: _append, ...store } = await memory.open();
  return store;
}

test('serial: a store without append runs every script with read-modify-write, ' +
  'and reads back the sizes the plan meant', async () => {
  const store = await withoutAppend();
  const steps = [];
  const result = await runClient(store, { name: 'memory', writes: { append: false } }, plan, {
    iterations,
    bigValueBytes,
    measure: async (script, run) => {
      const step = await run();
      steps.push([script, step]);
      return step;
    },
  });
  assert.equal(result.nativeAppend, false);
  assert.deepEqual(result.wrong, []);
  assert.deepEqual(Object.keys(result.scripts),
    ['serial_put_large', 'serial_put_big', 'get_random', 'get_random_large', 'get_random_big']);
  for (const [script, outcome] of Object.entries(result.scripts)) {
    assert.equal(outcome.failed, 0, script);
    assert.ok(outcome.ms > 0, script);
  }
  const [, putLarge] = steps[0];
  assert.deepEqual(putLarge.operations.map((operation) => [operation.operation, operation.requests]),
    [['read-modify-write', 30], ['write', 30]]);
  assert.equal(putLarge.peakInFlight, 1);
  for (const key of plan.keys) assert.equal(await store.get(key), null, `${key} was cleaned up`);
});

test('serial: an append that loses bytes is caught by the read-back, with the key and both sizes', async () => {
  const store = await memory.open();
  store.append = async () => {}; // acknowledges and stores nothing
  const options = { iterations, bigValueBytes };
  const result = await runClient(store, { name: 'memory', writes: { append: true } }, plan, options);
  assert.deepEqual(result.wrong, ['kt:La:00000000 holds 0 B, not 462 B']);
});

test('batch: the study\'s methods and the two updates over real users on the memory store, ' +
  'para all in flight at once, no key left behind', async () => {
  const store = await memory.open();
  const byMethod = await runMethods(store, 500);
  assert.deepEqual(Object.keys(byMethod),
    ['set para', 'get para', 'update own key', 'set once', 'get once', 'update in one key']);
  assert.deepEqual(Object.values(byMethod).map((outcome) => [outcome.operations, outcome.failed]),
    [[500, 0], [500, 0], [1, 0], [1, 0], [1, 0], [1, 0]]);
  assert.deepEqual(byMethod['get para'].byStatus, { 200: 500 });
  for (const key of keysOf(500)) assert.equal(await store.get(key), null);

  const floor = await runAtOnce(noopStore, methodOps('get para', usersOf(100)));
  assert.deepEqual([floor.operations, floor.failed], [100, 0]);
});
