import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import * as memory from '../../stores/memory.js';
import {
  bytesOfFields, fieldsOf, fieldsOfJson, hashStorageOf, jsonOfFields, shapedStore,
} from '../../driver/workloads/value-shape.js';
import { HASH_FIELDS } from '../../config/workloads.js';

test('a value splits into 10 fields f0..f9 of consecutive slices, ' +
  'and joins back to the same bytes, whatever its size', () => {
  for (const size of [0, 1, 9, 10, 11, 99, 100, 101, 10 * 1024]) {
    const bytes = randomBytes(size);
    const fields = fieldsOf(bytes);
    assert.deepEqual(Object.keys(fields), Array.from({ length: HASH_FIELDS }, (_, i) => `f${i}`));
    assert.equal(Object.values(fields).reduce((sum, part) => sum + part.length, 0), size);
    assert.ok(bytesOfFields(fields).equals(bytes), `${size} bytes back`);
  }
  const fields = fieldsOf(Buffer.from('0123456789abcdefghij'));
  assert.equal(fields.f0.toString(), '01');
  assert.equal(fields.f9.toString(), 'ij');
});

test('a hash missing a field is an error, not a shorter value', () => {
  assert.throws(() => bytesOfFields({ f0: Buffer.from('a'), f2: Buffer.from('c') }), /lacks field f1/);
});

test('the JSON of the fields is {"f0": base64, ...} in UTF-8, and reads back to the same bytes', () => {
  const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  const json = jsonOfFields(fieldsOf(bytes));
  const document = JSON.parse(json.toString('utf8'));
  assert.deepEqual(Object.keys(document), Array.from({ length: HASH_FIELDS }, (_, i) => `f${i}`));
  assert.equal(document.f0, bytes.subarray(0, 25).toString('base64'));
  assert.ok(bytesOfFields(fieldsOfJson(json)).equals(bytes));
});

test('shapedStore: bytes is the store itself; hash on a store without a hash type (memory) ' +
  'stores the JSON document and reads back the bytes, with no append', async (t) => {
  const store = await memory.open({});
  t.after(() => store.close());
  assert.equal(shapedStore(store, 'bytes'), store);
  assert.equal(hashStorageOf(store), 'json');
  const shaped = shapedStore(store, 'hash');
  const bytes = randomBytes(100);
  await shaped.set('k', bytes);
  assert.ok((await shaped.get('k')).equals(bytes));
  assert.deepEqual(
    JSON.parse(await store.get('k')),
    Object.fromEntries(Object.entries(fieldsOf(bytes)).map(([name, part]) => [name, part.toString('base64')])),
  );
  assert.equal(await shaped.get('absent'), null);
  assert.equal(shaped.append, undefined);
  await shaped.delete('k');
  assert.equal(await store.get('k'), null);
});
