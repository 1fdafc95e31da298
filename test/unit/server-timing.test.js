// Reading the store's time out of a Server-Timing header (driver/engines/server-timing-parse.js), as
// both engines do for every 2xx response: the W3C grammar's corners (spaces, quoted values,
// other metrics and params, several header lines), values that are no time, and the fast
// engine's reader (http1.js) finding the header in bytes cut anywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { storeDurationInRawHeaders, storeDurationMs } from '../../driver/engines/server-timing-parse.js';
import { ResponseReader } from '../../driver/engines/http1.js';

test('the store metric\'s dur, wherever it stands among metrics and params', () => {
  assert.equal(storeDurationMs('store;dur=0.42, app;dur=0.61'), 0.42);
  assert.equal(storeDurationMs('app;dur=0.61, store;dur=0.042'), 0.042);
  assert.equal(storeDurationMs('store;desc="Redis GET; key1, fast";dur=12'), 12);
  assert.equal(storeDurationMs('  store ; dur = 3.5 ;desc=x,app;dur=4'), 3.5);
  assert.equal(storeDurationMs('cache;desc="hit, store;dur=9",store;dur=1.25'), 1.25, 'a quoted comma is not a list');
  assert.equal(storeDurationMs('store;dur="0.5"'), 0.5, 'a quoted value is the same value');
  assert.equal(storeDurationMs('store;dur=1.5;dur=9'), 1.5, 'the first dur counts');
  assert.equal(storeDurationMs('store;dur=2e-1'), 0.2, 'any number JavaScript reads');
  assert.equal(storeDurationMs('store;dur=0'), 0);
});

test('no store time: no store metric, no dur, a dur that is no time, a name that only begins with store', () => {
  for (const value of [
    '', 'app;dur=1', 'store', 'store;desc=x', 'stored;dur=1', 'storex;dur=2, app;dur=3', 'Store;dur=1',
    'store;dur=', 'store;dur=-1', 'store;dur=abc', 'store;dur=1ms', 'store;dur', 'store dur=1', ';dur=1',
  ]) {
    assert.equal(storeDurationMs(value), -1, JSON.stringify(value));
  }
});

test('rawHeaders: the header in any case, several lines read in order; none gives -1', () => {
  assert.equal(storeDurationInRawHeaders(['Content-Length', '2', 'Server-Timing', 'store;dur=0.3']), 0.3);
  assert.equal(storeDurationInRawHeaders(['SERVER-TIMING', 'app;dur=1', 'server-timing', 'store;dur=0.7']), 0.7);
  assert.equal(storeDurationInRawHeaders(['Server-Timings', 'store;dur=1', 'X-Server-Timing', 'store;dur=1']), -1);
  assert.equal(storeDurationInRawHeaders([]), -1);
});

// Feeds text to a reader in pieces of size bytes; resolves to [status, storeMs] per response.
function storeTimes(text, size) {
  const seen = [];
  const reader = new ResponseReader((status, keepAlive, body, storeMs) => seen.push([status, storeMs]));
  const bytes = Buffer.from(text, 'latin1');
  for (let at = 0; at < bytes.length; at += size) reader.push(bytes.subarray(at, Math.min(bytes.length, at + size)));
  return seen;
}

test('the fast engine\'s reader gives each 2xx response\'s store time, whatever cuts its bytes; others none', () => {
  const text = [
    'HTTP/1.1 200 OK\r\nServer-Timing: store;dur=0.042, app;dur=0.061\r\nContent-Length: 2\r\n\r\nok',
    'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok', // no header: none, not the last one's
    'HTTP/1.1 404 Not Found\r\nserver-timing: store;dur=0.5\r\nContent-Length: 2\r\n\r\nno', // not a success
    'HTTP/1.1 100 Continue\r\nServer-Timing: store;dur=9\r\n\r\n' + // an interim head says nothing of the answer
      'HTTP/1.1 204 No Content\r\nSERVER-TIMING: app;dur=2\r\nServer-Timing: store;dur=1.5\r\n\r\n',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nServer-Timing: store;dur=12.25\r\n\r\n2\r\nok\r\n0\r\n\r\n',
  ].join('');
  for (const size of [Infinity, 1, 5, 13]) {
    assert.deepEqual(storeTimes(text, size), [[200, 0.042], [200, -1], [404, -1], [204, 1.5], [200, 12.25]],
      `in pieces of ${size} bytes`);
  }
});
