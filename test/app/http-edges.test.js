// The HTTP edges: every error answer is JSON with a registered code, Node's own answers
// (malformed requests, over-large headers, CONNECT) included, and OPTIONS tells the truth.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { startApp } from '../../app/start-app.js';
import { ERROR_CODES } from '../../util/errors.js';

let app;
before(async () => {
  app = await startApp({
    port: 0, host: '127.0.0.1', stores: ['memory'], embedded: false, env: { PATH: process.env.PATH },
  });
});
after(() => app?.close());

/**
 * Sends raw bytes and resolves to the parsed answer ({ status, headers, body }),
 * or null when the socket closed unanswered.
 */
function raw(text) {
  return new Promise((resolve, reject) => {
    const socket = connect(app.port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk) => { received += chunk; });
    socket.on('error', reject);
    socket.on('close', () => {
      if (!received) return resolve(null);
      const [head, body] = received.split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const header = (line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
      };
      const headers = Object.fromEntries(lines.map(header));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
    socket.setTimeout(3000, () => socket.destroy());
  });
}

/** Asserts a JSON error answer with a registered code, matching its status. */
function assertJsonError(answer, status, code) {
  assert.ok(answer, 'an answer, not a closed socket');
  assert.equal(answer.status, status);
  assert.match(answer.headers['content-type'], /^application\/json/);
  const body = JSON.parse(answer.body);
  assert.equal(body.code, code);
  assert.equal(typeof body.error, 'string');
  assert.equal(ERROR_CODES[code]?.status, status, `${code} is registered with status ${status}`);
}

test('CONNECT gets a JSON 405, not a closed socket', async () => {
  // Pins #9.7: CONNECT closed the socket with no answer.
  const answer = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
  assertJsonError(answer, 405, 'METHOD_NOT_ALLOWED');
  assert.equal(answer.headers.allow, 'GET, HEAD, PUT, DELETE, POST, OPTIONS');
});

test('a malformed request and over-large headers get JSON answers with stable codes', async () => {
  // Pins #9.7: Node's own 400 and 431 answers had no body.
  assertJsonError(await raw('GARBAGE\r\n\r\n'), 400, 'BAD_REQUEST');
  assertJsonError(await raw('GET /memory/key1 HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n'), 400, 'BAD_REQUEST');
  const bigHeader = `X-Big: ${'a'.repeat(20_000)}`;
  assertJsonError(await raw(`GET /memory/key1 HTTP/1.1\r\nHost: x\r\n${bigHeader}\r\n\r\n`), 431, 'HEADERS_TOO_LARGE');
});

test('a request without Host gets a JSON 400 with a code, not an empty one', async () => {
  // Pins #18.8: no Host header got 400 with an empty body, though every error answer is JSON.
  const answer = await raw('GET /memory/key1 HTTP/1.1\r\n\r\n');
  assertJsonError(answer, 400, 'BAD_REQUEST');
  assert.match(JSON.parse(answer.body).error, /Host header/);
  assert.equal(answer.headers.connection, 'close');
  // HTTP/1.0 has no Host requirement: still served
  assert.equal((await raw('GET /memory/key1 HTTP/1.0\r\n\r\n')).status, 200);
});

/**
 * Sends a request's head only, never its body, and resolves to what arrives as text: up to a
 * 100 Continue, else all until the server closes the connection.
 */
function firstAnswer(head) {
  return new Promise((resolve, reject) => {
    const socket = connect(app.port, '127.0.0.1', () => socket.write(head));
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk;
      if (received === 'HTTP/1.1 100 Continue\r\n\r\n') socket.destroy();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.setTimeout(3000, () => socket.destroy());
  });
}

test('Expect: 100-continue with a Content-Length over the limit gets 413 at once, never 100 Continue', async () => {
  // Pins #18.7: an oversized upload got 100 Continue, inviting the whole body, and only then 413.
  const limit = (await (await fetch(`${app.url}/stores`)).json()).limits.maxValueSize;
  const received = await firstAnswer(
    `PUT /memory/big HTTP/1.1\r\nHost: x\r\nContent-Length: ${limit + 1}\r\nExpect: 100-continue\r\n\r\n`);
  assert.match(received, /^HTTP\/1\.1 413 /, `the first answer: ${received.split('\r\n')[0]}`);
  assert.doesNotMatch(received, /100 Continue/);
  assert.match(received, /\r\nconnection: close\r\n/i);
  assert.equal(JSON.parse(received.split('\r\n\r\n')[1]).code, 'VALUE_TOO_LARGE');
  // Refused before the body for another reason (an unknown store): no 100 either
  assert.match(await firstAnswer('PUT /nosuch/k HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n'), /^HTTP\/1\.1 404 /);
});

test('Expect: 100-continue within the limit gets 100 Continue, then the write lands', async () => {
  const received = await firstAnswer(
    'PUT /memory/continued HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n');
  assert.equal(received, 'HTTP/1.1 100 Continue\r\n\r\n');
  // And as a client sends it: fetch-like clients through node:http
  const { request } = await import('node:http');
  const status = await new Promise((resolve, reject) => {
    const headers = { Expect: '100-continue', 'Content-Length': 5 };
    const req = request(`${app.url}/memory/continued`, { method: 'PUT', headers }, (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('continue', () => req.end('hello'));
    req.on('error', reject);
  });
  assert.equal(status, 204);
  assert.equal(await (await fetch(`${app.url}/memory/continued`)).text(), 'hello');
});

test('OPTIONS lists the methods of a path that exists (204) and is a JSON 404 for one that does not', async () => {
  // Pins #9.7: OPTIONS answered 200 text/plain on any path, unknown ones included.
  const allowed = {
    '/': 'GET, HEAD, OPTIONS',
    '/stores': 'GET, HEAD, OPTIONS',
    '/healthz': 'GET, HEAD, OPTIONS',
    '/memory/key1': 'GET, HEAD, PUT, DELETE, OPTIONS',
    '/memory/key1/append': 'POST, OPTIONS',
    '/memory': 'POST, OPTIONS',
  };
  for (const [path, allow] of Object.entries(allowed)) {
    const response = await fetch(`${app.url}${path}`, { method: 'OPTIONS' });
    assert.equal(response.status, 204, path);
    assert.equal(response.headers.get('allow'), allow, path);
    assert.equal(await response.text(), '', path);
  }
  const unknownStore = await fetch(`${app.url}/nosuch/path`, { method: 'OPTIONS' });
  assert.equal(unknownStore.status, 404);
  assert.equal((await unknownStore.json()).code, 'UNKNOWN_STORE');
  const noRoute = await fetch(`${app.url}/a/b/c`, { method: 'OPTIONS' });
  assert.equal(noRoute.status, 404);
  assert.equal((await noRoute.json()).code, 'NO_ROUTE');
  const server = await raw('OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  assert.equal(server.status, 204);
  assert.equal(server.headers.allow, 'GET, HEAD, PUT, DELETE, POST, OPTIONS');
});

test('another method on a path that exists is a JSON 405 with Allow; on one that does not, a JSON 404', async () => {
  const response = await fetch(`${app.url}/memory/key1`, { method: 'PATCH' });
  assert.equal(response.status, 405);
  assert.equal(response.headers.get('allow'), 'GET, HEAD, PUT, DELETE, OPTIONS');
  assert.deepEqual(await response.json(), {
    error: 'PATCH is not allowed on /memory/key1 (allowed: GET, HEAD, PUT, DELETE, OPTIONS)',
    code: 'METHOD_NOT_ALLOWED',
  });
  assert.equal((await fetch(`${app.url}/stores`, { method: 'POST' })).status, 405);
  const bulkPath = await fetch(`${app.url}/memory`);
  assert.equal(bulkPath.status, 405);
  assert.equal(bulkPath.headers.get('allow'), 'POST, OPTIONS');
  const unknownStore = await fetch(`${app.url}/nosuch/key1`, { method: 'PATCH' });
  assert.equal(unknownStore.status, 404);
  assert.equal((await unknownStore.json()).code, 'UNKNOWN_STORE');
  const unknown = await fetch(`${app.url}/a/b/c`, { method: 'POST' });
  assert.equal(unknown.status, 404);
  assert.equal((await unknown.json()).code, 'NO_ROUTE');
});

test('every error answer the app gives is JSON with a registered code', async () => {
  const cases = [
    ['GET', '/nosuch/key1'], ['GET', '/memory/nokey'], ['GET', '/memory/%zz'], ['GET', '/a/b/c'],
    ['PATCH', '/memory/key1'], ['OPTIONS', '/nosuch/key1'], ['GET', '/memory/key1/append'],
  ];
  for (const [method, path] of cases) {
    const response = await fetch(`${app.url}${path}`, { method });
    assert.match(response.headers.get('content-type'), /^application\/json/, `${method} ${path}`);
    const { code } = await response.json();
    assert.equal(ERROR_CODES[code]?.status, response.status, `${method} ${path}: ${code}`);
  }
});

test('HEAD of a payload answers its headers only', async () => {
  const response = await fetch(`${app.url}/memory/key3`, { method: 'HEAD' });
  assert.equal(response.status, 200);
  assert.equal(await response.text(), '');
});
