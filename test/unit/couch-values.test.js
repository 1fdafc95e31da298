// How values become CouchDB documents and back: byte-exact either way, never ambiguous.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { BYTES_FIELD, docIdOf, fromDocument, toDocument } from '../../stores/clients/couch-values.js';
import { stripCouchFields } from '../../stores/clients/couch-document.js';
import { payloads } from '../../stores/payloads.js';

// What a server sends back for a stored document, in CouchDB's layout and in PouchDB's.
const asStored = (body, id = 'k:x') => [
  Buffer.from(JSON.stringify({ _id: id, _rev: '1-abc', ...body })),
  Buffer.from(JSON.stringify({ ...body, _id: id, _rev: '1-abc' })),
];
const roundTrip = (bytes) => asStored(toDocument(bytes)).map((stored) => fromDocument(stripCouchFields(stored)));

test('a key is document k:<key>, so no key is an id CouchDB reserves or a dot segment', () => {
  for (const key of ['_all_docs', '_changes', '_design', '.', '..', 'key1']) {
    const id = docIdOf(key);
    assert.match(id, /^k:/);
    assert.notEqual(encodeURIComponent(id), '..');
  }
});

test('the seeded payloads are stored as the documents themselves, and come back byte-exact', () => {
  for (const bytes of Object.values(payloads)) {
    assert.deepEqual(toDocument(bytes), JSON.parse(bytes));
    for (const back of roundTrip(bytes)) assert.ok(back.equals(bytes));
  }
});

test('anything CouchDB might not hand back byte for byte is stored base64, and comes back byte-exact', () => {
  const values = [
    randomBytes(4096), Buffer.alloc(0), Buffer.from('plain text'), Buffer.from('[1,2]'), Buffer.from('{ "spaced": 1 }'),
    Buffer.from('{"a":1.5}'), Buffer.from('{"a":1e21}'), Buffer.from('{"big":12345678901234567890}'),
    Buffer.from('{"q":"say \\"hi\\""}'), Buffer.from('{"_id":"x"}'), Buffer.from(`{"${BYTES_FIELD}":"AAAA"}`),
    Buffer.from('{"a":1,"2":2}'), Buffer.from([0x7b, 0xff, 0x7d]), Buffer.from('{"a":1,"a":2}'), Buffer.from('{"a":'),
  ];
  for (const bytes of values) {
    assert.deepEqual(Object.keys(toDocument(bytes)), [BYTES_FIELD], String(bytes));
    for (const back of roundTrip(bytes)) assert.ok(back.equals(bytes), String(bytes));
  }
});

test('plain JSON objects (whole numbers, nesting, unicode) are stored as documents', () => {
  for (const text of ['{}', '{"n":-42,"list":[1,{"x":null}],"ok":true}', '{"name":"Zoë 😀"}']) {
    const bytes = Buffer.from(text);
    assert.notDeepEqual(Object.keys(toDocument(bytes)), [BYTES_FIELD], text);
    for (const back of roundTrip(bytes)) assert.ok(back.equals(bytes), text);
  }
});
