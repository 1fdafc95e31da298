import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stripCouchFields } from '../../stores/clients/couch-document.js';
import { payloads, payloadObjects } from '../../stores/payloads.js';

const strip = (text) => JSON.parse(stripCouchFields(Buffer.from(text)));

test('_id and _rev first (CouchDB, Cloudant) are cut off, the rest byte-exact', () => {
  const document = Buffer.concat([Buffer.from('{"_id":"key3","_rev":"2-abc",'), payloads.key3.subarray(1)]);
  assert.ok(stripCouchFields(document).equals(payloads.key3));
});

test('_id and _rev last (PouchDB) are cut off, the rest byte-exact', () => {
  const document = Buffer.concat([payloads.key2.subarray(0, -1), Buffer.from(',"_id":"key2","_rev":"1-def"}')]);
  assert.ok(stripCouchFields(document).equals(payloads.key2));
});

test('other layouts and underscore fields fall back to JSON with the same meaning', () => {
  assert.deepEqual(strip('{"message":"Text data","_rev":"1-a","_id":"key1"}'), payloadObjects.key1);
  assert.deepEqual(strip('{"_id":"key1","_rev":"1-a","_deleted_conflicts":["x"],"message":"Text data"}'), {
    _deleted_conflicts: ['x'],
    message: 'Text data',
  });
  assert.deepEqual(
    strip('{"_id":"k","_rev":"1-a","message":"_looks like a field"}'),
    { message: '_looks like a field' },
  );
  assert.deepEqual(strip('{"_id":"a\\",\\"_rev\\":\\"x","_rev":"1-a","m":1}'), { m: 1 });
  assert.deepEqual(strip('{"_id":"empty","_rev":"1-a"}'), {});
});

test('the newline CouchDB ends a body with is not part of the payload, in either layout', () => {
  // Regression: CouchDB-ordered documents came back with a trailing newline, so not byte-exact.
  const first = Buffer.concat([
    Buffer.from('{"_id":"key3","_rev":"2-abc",'),
    payloads.key3.subarray(1),
    Buffer.from('\n'),
  ]);
  assert.ok(stripCouchFields(first).equals(payloads.key3));
  const last = Buffer.concat([payloads.key2.subarray(0, -1), Buffer.from(',"_id":"key2","_rev":"1-def"}\r\n')]);
  assert.ok(stripCouchFields(last).equals(payloads.key2));
});
