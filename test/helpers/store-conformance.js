// The one suite every store adapter passes against its real server. A store's test file
// calls storeConformance() with a way to open it, as undici's cache stores share one suite.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { assertAdapter, assertStore } from '../../stores/contract.js';
import { payloads, payloadObjects } from '../../stores/payloads.js';
import { seedStore } from '../../stores/seed.js';

/**
 * @param {object} adapter  the adapter module (stores/<name>.js)
 * @param {(t) => Promise<object|undefined>} connect  resolves the connections to pass to
 *   adapter.open(), or undefined after it has skipped/failed the test (see helpers/services.js)
 * @param {object} [options]
 * @param {object} [options.settings]  store settings for adapter.open() (config/settings.js)
 */
export function storeConformance(adapter, connect, { settings } = {}) {
  const name = adapter.name;
  // A fresh key per test, so runs never see each other's data.
  const freshKey = () => `conformance-${randomUUID()}`;

  async function openStore(t) {
    const connections = await connect(t);
    if (!connections) return undefined;
    const store = assertStore(await adapter.open(connections, settings), adapter);
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
    assert.ok(bytes.equals(payloads.key3), 'same bytes as stores/payloads.js key3');
    await store.delete(key);
  });

  test(`${name}: arbitrary binary bytes (every byte value) round-trip exactly`, async (t) => {
    const store = await openStore(t);
    if (!store) return;
    const key = freshKey();
    const bytes = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(4096)]);
    await store.set(key, bytes);
    assert.ok((await store.get(key)).equals(bytes));
    await store.delete(key);
  });

  // 1,000,000 bytes: under the 1 MiB item and tuple limits memcached and Tarantool have by default.
  test(`${name}: 1 MB of random bytes round-trip exactly, and so do an empty value and text`, async (t) => {
    const store = await openStore(t);
    if (!store) return;
    const key = freshKey();
    const text = [Buffer.from('not JSON at all'), Buffer.from('{ "almost": "JSON" }')];
    for (const bytes of [randomBytes(1_000_000), Buffer.alloc(0), ...text]) {
      await store.set(key, bytes);
      const back = await store.get(key);
      assert.equal(back?.length, bytes.length);
      assert.ok(back.equals(bytes), `${bytes.length} bytes back exactly`);
    }
    await store.delete(key);
  });

  test(`${name}: set overwrites: get returns the last bytes written, whatever their size`, async (t) => {
    const store = await openStore(t);
    if (!store) return;
    const key = freshKey();
    for (const bytes of [payloads.key3, Buffer.from('short'), randomBytes(300)]) {
      await store.set(key, bytes);
      assert.ok((await store.get(key)).equals(bytes));
    }
    await store.delete(key);
  });

  if (adapter.writes.append) {
    test(`${name}: append adds bytes to the value, an absent key starting empty`, async (t) => {
      const store = await openStore(t);
      if (!store) return;
      const key = freshKey();
      const [first, second] = [randomBytes(100), Buffer.from([0, 255, 10])];
      await store.append(key, first);
      assert.ok((await store.get(key)).equals(first), 'append to an absent key');
      await store.append(key, second);
      assert.ok((await store.get(key)).equals(Buffer.concat([first, second])));
      await Promise.all(Array.from({ length: 20 }, () => store.append(key, Buffer.from('x'))));
      assert.equal((await store.get(key)).length, 103 + 20, 'concurrent appends all land');
      await store.delete(key);
    });
  } else {
    test(`${name}: has no append, and says so (writes.append false, no append())`, async (t) => {
      const store = await openStore(t);
      if (!store) return;
      assert.equal(store.append, undefined);
    });
  }

  if (adapter.writes.hash) {
    test(`${name}: setHash stores fields of exact bytes, getHash reads them back; ` +
      'it replaces whatever the key held; an absent key reads null', async (t) => {
      const store = await openStore(t);
      if (!store) return;
      const key = freshKey();
      assert.equal(await store.getHash(key), null);
      const fields = {
        f0: Buffer.from(Array.from({ length: 256 }, (_, i) => i)), f1: randomBytes(10_000), f2: Buffer.alloc(0),
      };
      await store.set(key, Buffer.from('a string first')); // a hash write must replace another type
      await store.setHash(key, fields);
      const back = await store.getHash(key);
      assert.deepEqual(Object.keys(back).sort(), ['f0', 'f1', 'f2']);
      for (const [field, bytes] of Object.entries(fields)) {
        assert.ok(back[field].equals(bytes), `${field} back exactly`);
      }
      await store.setHash(key, { f0: Buffer.from('only') });
      assert.deepEqual(await store.getHash(key), { f0: Buffer.from('only') }, 'fields not written again are gone');
      await store.delete(key);
      assert.equal(await store.getHash(key), null);
    });
  } else {
    test(`${name}: has no hash type, and says so (writes.hash false, no setHash()/getHash())`, async (t) => {
      const store = await openStore(t);
      if (!store) return;
      assert.equal(store.setHash, undefined);
      assert.equal(store.getHash, undefined);
    });
  }

  test(`${name}: a bulk write (${adapter.writes.bulk}) stores every entry, ` +
    'a later one for a key winning', async (t) => {
    const store = await openStore(t);
    if (!store) return;
    const prefix = freshKey();
    const valueOf = (i) => (i % 3 ? randomBytes(i * 10) : Buffer.from(`{"n":${i}}`));
    const entries = Array.from({ length: 120 }, (_, i) => [`${prefix}-${i}`, valueOf(i)]);
    await store.set(`${prefix}-5`, payloads.key2); // overwritten by the bulk write
    entries.push([`${prefix}-7`, Buffer.from('again')]);
    if (adapter.writes.bulk === 'native') await store.setMany(entries);
    else {
      assert.equal(store.setMany, undefined);
      for (const [key, bytes] of entries) await store.set(key, bytes);
    }
    const expected = new Map(entries);
    for (const [key, bytes] of expected) assert.ok((await store.get(key))?.equals(bytes), key);
    await Promise.all([...expected.keys()].map((key) => store.delete(key)));
  });

  // Every kind of key the alphabet allows is a value of the store's own, never a server resource
  // (CouchDB's _all_docs, _changes, its root via ..) nor another store's internal key.
  test(`${name}: keys at the edges of the alphabet are plain keys: ` +
    'absent until written, then their own bytes', async (t) => {
    const store = await openStore(t);
    if (!store) return;
    const unique = randomUUID().slice(0, 8);
    const keys = [
      '.', '..', '_all_docs', '_changes', '_design', '_local', '_users', '~', '-', ':', 'a:b',
      `storebench:write-behind:${unique}`, `x${unique}`.padEnd(250, '~'),
    ];
    for (const key of keys) await store.delete(key);
    for (const key of keys) {
      assert.equal(await store.get(key), null, `${key} reads as absent, not as a server resource`);
    }
    for (const [i, key] of keys.entries()) await store.set(key, Buffer.from(`value ${i}`));
    for (const [i, key] of keys.entries()) assert.deepEqual(await store.get(key), Buffer.from(`value ${i}`), key);
    for (const key of keys) await store.delete(key);
  });

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
