// The bulk-load body format: records encoded by the driver, parsed by the app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { encodeRecords, parseRecords } from '../../util/records.js';

test('records round-trip: keys, empty and binary values, in order, each value a view into the body', () => {
  const entries = [
    ['user0000000001', randomBytes(100)],
    ['a', Buffer.alloc(0)],
    ['user0000000001', Buffer.from([0, 255, 10, 13])],
  ];
  const body = encodeRecords(entries);
  assert.equal(body.length, entries.reduce((sum, [key, bytes]) => sum + 2 + key.length + 4 + bytes.length, 0));
  const parsed = parseRecords(body);
  assert.deepEqual(parsed.map(([key]) => key), entries.map(([key]) => key));
  parsed.forEach(([, bytes], i) => assert.ok(bytes.equals(entries[i][1])));
  assert.equal(parsed[0][1].buffer, body.buffer, 'no copy');
  assert.deepEqual(parseRecords(Buffer.alloc(0)), []);
});

test('the layout is uint16 BE key length, key, uint32 BE value length, value', () => {
  assert.deepEqual([...encodeRecords([['ab', Buffer.from('xyz')]])], [0, 2, 0x61, 0x62, 0, 0, 0, 3, 0x78, 0x79, 0x7a]);
});

test('a body cut short anywhere is BAD_RECORDS, naming the record and where it starts', () => {
  const body = encodeRecords([['k1', Buffer.from('v1')], ['k2', Buffer.from('value 2')]]);
  for (let end = 1; end < body.length; end++) {
    if (end === 10) continue; // a whole first record: valid
    assert.throws(() => parseRecords(body.subarray(0, end)), { code: 'BAD_RECORDS', status: 400 }, `cut at ${end}`);
  }
  assert.throws(() => parseRecords(body.subarray(0, 12)), { message: /^not a records body: record 2 at byte 10: a 2-byte key and its value length do not fit/ });
  assert.throws(() => parseRecords(Buffer.from([0, 1, 0x61, 0xff, 0xff, 0xff, 0xff])), { message: /record 1 at byte 0: a 4294967295-byte value does not fit in the 0 bytes left/ });
  assert.throws(() => parseRecords(Buffer.from([0])), { message: /record 1 at byte 0: the body ends inside its key length/ });
});

test('keys come back as latin1, so bytes outside ASCII become characters the key check refuses', () => {
  const body = Buffer.concat([Buffer.from([0, 2, 0xc3, 0xa9]), Buffer.from([0, 0, 0, 0])]);
  assert.equal(parseRecords(body)[0][0], 'Ã©');
});
