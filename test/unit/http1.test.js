// The fast engine's HTTP/1.1 wire code (driver/engines/http1.js): request heads, and the
// response reader fed the same bytes whole, split at every byte, and several responses at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ERROR_BODY_BYTES, ResponseReader, commonHeaders, requestHead } from '../../driver/engines/http1.js';

// Feeds `text` to a reader in pieces of `size` bytes; resolves to [[status, keepAlive(, body)], ...]
// (a body only where the reader gave one) and whether it ended partial.
function read(text, size = Infinity, { close = false } = {}) {
  const seen = [];
  const reader = new ResponseReader((status, keepAlive, body) => {
    seen.push(body === undefined ? [status, keepAlive] : [status, keepAlive, body]);
  });
  const bytes = Buffer.from(text, 'latin1');
  for (let at = 0; at < bytes.length; at += size) reader.push(bytes.subarray(at, Math.min(bytes.length, at + size)));
  if (close) reader.closed();
  return { seen, partial: reader.partial };
}

// Every way of cutting the bytes gives the same responses.
function readsAs(text, expected, options) {
  for (const size of [Infinity, 1, 2, 3, 7]) {
    const { seen, partial } = read(text, size, options);
    assert.deepEqual(seen, expected, `in pieces of ${size} bytes`);
    assert.equal(partial, false, `in pieces of ${size} bytes: nothing left over`);
  }
}

test('a Content-Length body ends the response; the connection stays open in HTTP/1.1', () => {
  readsAs('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello', [[200, true]]);
  readsAs('HTTP/1.1 404 Not Found\r\ncontent-length:0\r\n\r\n', [[404, true]]);
});

test('several responses in one read are each reported, in order (keep-alive, pipelined bytes)', () => {
  const one = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';
  const two = 'HTTP/1.1 503 Service Unavailable\r\nCONTENT-LENGTH: 4\r\n\r\nbusy';
  readsAs(one + two + one, [[200, true], [503, true, 'busy'], [200, true]]);
});

test('an error answer\'s body is kept, chunked coding removed; a 2xx body is not', () => {
  const chunked = '7;ext=1\r\n{"code"\r\nD\r\n:"NOT_FOUND"}\r\n0\r\nX-Trailer: 1\r\n\r\n';
  const head = 'Transfer-Encoding: chunked\r\n\r\n';
  readsAs(`HTTP/1.1 404 Not Found\r\n${head}${chunked}`, [[404, true, '{"code":"NOT_FOUND"}']]);
  readsAs(`HTTP/1.1 200 OK\r\n${head}${chunked}`, [[200, true]]);
  const untilClose = 'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\nbusy until the close';
  readsAs(untilClose, [[503, false, 'busy until the close']], { close: true });
  readsAs('HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n', [[500, true]]); // no body, no text
});

test('an error body split across pushes of a reused buffer is kept whole, cut at ERROR_BODY_BYTES', () => {
  const seen = [];
  const reader = new ResponseReader((status, keepAlive, body) => seen.push([status, body]));
  const buffer = Buffer.alloc(4096);
  const long = 'é'.repeat(ERROR_BODY_BYTES); // 2 bytes each: twice the limit
  const pieces = [
    'HTTP/1.1 413 Payload Too Large\r\nContent-Length: 26\r\n\r\n{"code":"VALUE',
    '_TOO_LARGE"}HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n',
    'ok!!HTTP/1.1 500 Internal Server Error\r\nTransfer-Encoding: chunked\r\n\r\n',
    `${(long.length * 2).toString(16)}\r\n${long.slice(0, 1000)}`,
    `${long.slice(1000)}\r\n0\r\n\r\n`,
  ];
  for (const piece of pieces) {
    buffer.fill('#'); // each read overwrites the last one's bytes: the reader kept its own copy
    const length = buffer.write(piece);
    reader.push(buffer, length);
  }
  assert.deepEqual(seen.slice(0, 2), [[413, '{"code":"VALUE_TOO_LARGE"}'], [200, undefined]]);
  assert.equal(seen.length, 3);
  assert.equal(seen[2][0], 500);
  assert.equal(seen[2][1], 'é'.repeat(ERROR_BODY_BYTES / 2), 'the first 2048 bytes, not a byte more');
});

test('a chunked body with extensions and trailers ends at its last chunk', () => {
  const body = '5;name=value\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n';
  readsAs(
    `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${body}HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n`,
    [[200, true], [201, true]],
  );
  readsAs('HTTP/1.1 200 OK\r\ntransfer-encoding: gzip, chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n', [[200, true]]);
});

test('204, 304 and 1xx have no body; a 100 Continue is skipped for the response that follows', () => {
  readsAs(
    'HTTP/1.1 204 No Content\r\n\r\nHTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n',
    [[204, true], [304, true]],
  );
  readsAs('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx', [[200, true]]);
});

test('Connection: close and HTTP/1.0 end the connection after the response; keep-alive keeps an HTTP/1.0 one', () => {
  readsAs('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 1\r\n\r\nx', [[200, false]]);
  readsAs('HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx', [[200, false]]);
  readsAs('HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 1\r\n\r\nx', [[200, true]]);
});

test('a body with neither length nor chunks runs until the connection closes', () => {
  const text = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nall of this until the close';
  assert.deepEqual(read(text).seen, [], 'not complete before the close');
  assert.equal(read(text).partial, true);
  readsAs(text, [[200, false]], { close: true });
});

test('a response cut short by the close is left partial, never reported', () => {
  const reader = new ResponseReader(() => assert.fail('reported'));
  reader.push(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
  assert.equal(reader.closed(), false);
  assert.equal(reader.partial, true);
});

test('a reused read buffer: only the first `length` bytes count, and a split head is kept as a copy', () => {
  const seen = [];
  const reader = new ResponseReader((status) => seen.push(status));
  const buffer = Buffer.alloc(256);
  // What an earlier read left in the buffer past this read's bytes must not complete a head.
  buffer.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
  const first = Buffer.from('HTTP/1.1 201 Created\r\nContent-');
  first.copy(buffer);
  reader.push(buffer, first.length);
  assert.deepEqual(seen, [], 'stale bytes after `length` completed nothing');
  buffer.fill('#'); // the next read overwrites the buffer: the reader kept its own copy
  const second = Buffer.from('Length: 0\r\n\r\n');
  second.copy(buffer);
  reader.push(buffer, second.length);
  assert.deepEqual(seen, [201]);
});

test('bytes that are not an HTTP/1.x response throw HPE_INVALID_RESPONSE', () => {
  const bad = [
    'SSH-2.0-OpenSSH_9.6\r\n\r\n',
    'HTTP/1.1 2x0 OK\r\n\r\n',
    'HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n',
    'HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n',
  ];
  for (const text of bad) assert.throws(() => read(text), { code: 'HPE_INVALID_RESPONSE' }, JSON.stringify(text));
  assert.throws(
    () => read(`HTTP/1.1 200 OK\r\nX: ${'y'.repeat(70_000)}`, 1000),
    { code: 'HPE_INVALID_RESPONSE' },
    'a head that never ends',
  );
});

test('request heads: the target GET, a write with its length, type and token, ' +
  'credentials and Connection: close', () => {
  const url = new URL('http://user:p%40ss@127.0.0.1:8080/memory/key1?x=1');
  const headers = commonHeaders(url, { keepAlive: false });
  assert.equal(
    headers,
    'Host: 127.0.0.1:8080\r\nUser-Agent: storebench\r\nAccept: */*\r\n' +
    `Authorization: Basic ${Buffer.from('user:p@ss').toString('base64')}\r\nConnection: close\r\n`,
  );
  const plain = commonHeaders(new URL('http://localhost:3000/'));
  assert.equal(
    requestHead('GET', '/memory/key1?x=1', plain),
    'GET /memory/key1?x=1 HTTP/1.1\r\nHost: localhost:3000\r\nUser-Agent: storebench\r\nAccept: */*\r\n\r\n',
  );
  assert.equal(
    requestHead('PUT', '/redis/user1', plain, 100, 'Bearer t'),
    'PUT /redis/user1 HTTP/1.1\r\nHost: localhost:3000\r\nUser-Agent: storebench\r\nAccept: */*\r\n' +
    'Content-Type: application/octet-stream\r\nContent-Length: 100\r\nAuthorization: Bearer t\r\n\r\n',
  );
  assert.equal(
    requestHead('DELETE', '/redis/user1', plain, -1, 'Bearer t'),
    'DELETE /redis/user1 HTTP/1.1\r\nHost: localhost:3000\r\nUser-Agent: storebench\r\nAccept: */*\r\n' +
    'Authorization: Bearer t\r\n\r\n',
  );
});
