// The app's --metrics gauge of store operations in flight: what a store's client has been asked
// and not yet answered (for Redis, its command queue), read from the StoreSet when scraped. An
// in-process store whose reads wait for the test stands in for a server here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StoreSet } from '../../stores/store-set.js';
import { createAppMetrics } from '../../app/metrics.js';

function heldStore() {
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  const store = {
    get: async () => { await held; return Buffer.from('v'); },
    set: async () => {},
    delete: async () => {},
    ping: async () => {},
    close: async () => {},
  };
  return { store, release };
}

const inFlightOf = async (registry) => {
  const text = await registry.getSingleMetricAsString('storebench_app_store_operations_in_flight');
  return Object.fromEntries([...text.matchAll(/\{store="([^"]+)"\} (\d+)/g)].map(([, store, n]) => [store, Number(n)]));
};

test('--metrics counts each store\'s operations in flight while they wait, and none once answered', async (t) => {
  const held = heldStore();
  const idle = heldStore();
  const entry = (name, store) => ({
    adapter: { name, description: name, needs: [], writes: { append: false, bulk: 'one by one' } },
    connections: {},
    open: async () => ({ store, keys: [] }),
  });
  const stores = new StoreSet([entry('held', held.store), entry('idle', idle.store)], [], { opTimeoutMs: 10_000 });
  t.after(() => stores.close());
  await stores.openAll();
  const metrics = createAppMetrics(stores);
  stores.observer = metrics.observeOperation;

  assert.deepEqual(await inFlightOf(metrics.registry), { held: 0, idle: 0 });
  const reads = [1, 2, 3].map(() => stores.read('held', 'key1'));
  assert.deepEqual(await inFlightOf(metrics.registry), { held: 3, idle: 0 });
  held.release();
  for (const bytes of await Promise.all(reads)) assert.deepEqual(bytes, Buffer.from('v'));
  assert.deepEqual(await inFlightOf(metrics.registry), { held: 0, idle: 0 });
  idle.release();
});
