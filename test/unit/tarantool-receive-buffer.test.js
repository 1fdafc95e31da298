// tarantool-driver's receive buffer (its own SliderBuffer class, from node_modules) with the
// bounded add of stores/clients/tarantool-driver-fix.js, against the library's own add: a
// stream of large responses that never leaves the buffer empty, as a loaded connection sees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { boundedAdd } from '../../stores/clients/tarantool-driver-fix.js';

const require = createRequire(import.meta.url);
const SliderBuffer = require('tarantool-driver/lib/sliderBuffer.js');

const CHUNK = 64 * 1024; // one TCP read
const RESPONSE = 200 * 1024; // one 200 KB value's response

// The stream repeats every 251 bytes: each read is a fresh copy of the pattern at its phase.
const PATTERN = Buffer.alloc(Math.max(CHUNK, RESPONSE) + 251, 0).map((_, i) => i % 251);
const streamAt = (position, length) => PATTERN.subarray(position % 251, (position % 251) + length);
const readAt = (position) => Buffer.from(streamAt(position, CHUNK));

// Reads `chunks` reads of CHUNK bytes (byte i of the stream is i % 251) and consumes whole
// responses as the driver's parser does (offset forward, never back), keeping a view of each
// consumed response as msgpack-lite hands a bin value out. Returns the largest buffer seen and
// the views with the stream position each began at.
function stream(buffer, chunks) {
  let position = 0;
  let consumedAt = 0;
  let largest = buffer.buffer.length;
  const views = [];
  for (let read = 0; read < chunks; read += 1) {
    const data = readAt(position);
    position += CHUNK;
    buffer.add(data, 0, data.length);
    largest = Math.max(largest, buffer.buffer.length);
    while (buffer.bufferLength >= RESPONSE) {
      const bytes = buffer.buffer.subarray(buffer.bufferOffset, buffer.bufferOffset + RESPONSE);
      views.push({ at: consumedAt, bytes });
      buffer.bufferOffset += RESPONSE;
      buffer.bufferLength -= RESPONSE;
      consumedAt += RESPONSE;
    }
  }
  return { largest, views };
}

const intact = ({ at, bytes }) => bytes.equals(streamAt(at, bytes.length));

test('the bounded add keeps the buffer near what it holds, however long the stream runs', () => {
  const buffer = new SliderBuffer();
  buffer.add = boundedAdd;
  const { largest } = stream(buffer, 2000); // 125 MB through one connection
  // At most a response and a read unread, twice that for room: about 0.5 MB.
  assert.ok(largest <= 2 * (RESPONSE + CHUNK), `largest buffer ${largest} bytes`);
});

test('tarantool-driver 3.1.0\'s own add doubles the buffer again and again on the same stream', () => {
  const buffer = new SliderBuffer();
  const { largest } = stream(buffer, 400); // 25 MB: enough to show it, little enough to run
  // Its buffer grows with everything that went through it (20 MB here), not with what it holds.
  assert.ok(largest >= 16 * 1024 * 1024, `largest buffer ${largest} bytes: the bug this file's fix is for`);
});

test('values handed out before a new buffer keep their bytes (the buffer is never moved in place)', () => {
  const buffer = new SliderBuffer();
  buffer.add = boundedAdd;
  const { views } = stream(buffer, 300);
  assert.ok(views.length > 80);
  assert.ok(views.every(intact), 'every response view still holds the stream\'s bytes');
});
