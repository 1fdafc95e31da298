// The one suite every store adapter passes against its real server. A store's test file
// calls storeConformance() with a way to open it, as undici's cache stores share one suite.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { assertAdapter, assertStore } from '../../stores/contract.js';
import { payloads, payloadObjects } from '../../data/payloads.js';
import { seedStore } from '../../stores/seed.js';

/**
 * @param {object} adapter  the adapter module (stores/<name>.js)
 * @param {(t) => Promise<object|undefined>} connect  resolves the connections to pass to
 *   adapter.open(), or undefined after it has skipped/failed the test (see helpers/services.js)
 * @param {object} [options]
 * @param {boolean} [options.jsonOnly]  the store holds JSON documents only (Cloudant, CouchDB)
 * @param {object} [options.settings]  store settings for adapter.open() (config/settings.js)
 */
export function storeConformance(adapter, connect, { jsonOnly = false, settings } = {}) {
  const name = adapter.name;
  // A fresh key per test, so runs never see each other's data.
  const freshKey = () => `conformance-${randomUUID()}`;

  async function openStore(t) {
    const connections = await connect(t);
    if (!connections) return undefined;
    const store = assertStore(await adapter.open(connections, settings), name);
    t.after(() => store.close());
    return store;
  }

  test(`${name}: the adapter module has everything the contract asks`, () => {
    assertAdapter(adapter);
    assert.ok(adapter.description.length > 10, 'a description a person can read');
  });

  test(`${name}: set then get returns the same bytes`, async (t) => {
    const store = await openStore(t);
    if (!store) return;
    const key = freshKey();
    await store.set(key, payloads.key1);
    const bytes = await store.get(key);
    assert.ok(Buffer.isBuffer(bytes), 'get() returns a Buffer');
    assert.deepEqual(JSON.parse(bytes), payloadObjects.key1);
    await store.delete(key);
  });

  test(`${name}: the 200 KB key3 payload comes back byte-exact`, async (t) => {
    const store = await openStore(t);
    if (!store) return;
    const key = freshKey();
    await store.set(key, payloads.key3);
    const bytes = await store.get(key);
    assert.equal(bytes.length, payloads.key3.length);
    assert.ok(bytes.equals(payloads.key3), 'same bytes as data/payloads.js key3');
    await store.delete(key);
  });

  if (!jsonOnly) {
    test(`${name}: arbitrary binary bytes (every byte value) round-trip exactly`, async (t) => {
      const store = await openStore(t);
      if (!store) return;
      const key = freshKey();
      const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(4096)]);
      await store.set(key, bytes);
      assert.ok((await store.get(key)).equals(bytes));
      await store.delete(key);
    });
  }

  test(`${name}: a missing key reads as null`, async (t) => {
    const store = await openStore(t);
    if (!store) return;
    assert.equal(await store.get(freshKey()), null);
  });

  test(`${name}: set overwrites, so seeding twice succeeds and keeps the payloads`, async (t) => {
    const store = await openStore(t);
    if (!store) return;
    assert.deepEqual(await seedStore(store), ['key1', 'key2', 'key3']);
    assert.deepEqual(await seedStore(store), ['key1', 'key2', 'key3']);
    for (const [key, bytes] of Object.entries(payloads)) {
      assert.ok((await store.get(key)).equals(bytes), `${key} after seeding twice`);
    }
  });

  test(`${name}: delete removes a key, and deleting an absent key is fine`, async (t) => {
    const store = await openStore(t);
    if (!store) return;
    const key = freshKey();
    await store.set(key, payloads.key1);
    await store.delete(key);
    assert.equal(await store.get(key), null);
    await store.delete(key);
  });

  test(`${name}: ping answers, and close() can be called twice`, async (t) => {
    const connections = await connect(t);
    if (!connections) return;
    const store = await adapter.open(connections);
    await store.ping();
    await store.close();
    await store.close();
  });
}
