// Slow clients: a request whose headers or body stall is answered 408 REQUEST_TIMEOUT (JSON) and
// its connection closed within the app's deadlines (config/settings.js, scope http), which are
// seconds, not Node's minutes.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { startApp } from '../../app/start-app.js';

const deadlines = {
  STOREBENCH_HEADERS_TIMEOUT_MS: '1000',
  STOREBENCH_REQUEST_TIMEOUT_MS: '3000',
  STOREBENCH_BODY_IDLE_TIMEOUT_MS: '1000',
};
let app;
before(async () => {
  app = await startApp({
    port: 0, host: '127.0.0.1', stores: ['memory'], embedded: false, env: { PATH: process.env.PATH, ...deadlines },
  });
});
after(() => app?.close());

/**
 * Opens a raw connection, writes each of parts (a string, or a number of ms to wait), and
 * resolves when the server closes it: { status, body, ms } (ms: from connect to close).
 */
function stall(parts) {
  return new Promise((resolve, reject) => {
    const socket = connect(app.port, '127.0.0.1');
    const startedAt = performance.now();
    let received = '';
    let writing = true;
    socket.on('data', (chunk) => { received += chunk; });
    socket.on('error', reject);
    socket.on('close', () => {
      writing = false;
      const [head = '', body = ''] = received.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), head, body, ms: performance.now() - startedAt });
    });
    socket.once('connect', async () => {
      for (const part of parts) {
        if (!writing) return;
        if (typeof part === 'number') await new Promise((resolve) => setTimeout(resolve, part));
        else socket.write(part);
      }
    });
    // Nothing here may take longer: a connection still open is the bug.
    socket.setTimeout(15_000, () => socket.destroy(new Error('the server held the stalled connection for 15 s')));
  });
}

function assertTimedOut(answer, withinMs) {
  assert.equal(answer.status, 408, answer.head);
  assert.match(answer.head, /content-type: application\/json/i);
  assert.equal(JSON.parse(answer.body).code, 'REQUEST_TIMEOUT');
  assert.ok(answer.ms < withinMs, `closed after ${Math.round(answer.ms)} ms, expected under ${withinMs}`);
}

test('headers that stall are answered 408 within the headers deadline, and the connection closes', async () => {
  // Pins #18.6: a stall inside the headers held the connection for 80 s.
  const answer = await stall(['GET /memory/key1 HTTP/1.1\r\nHost: x\r\nX-Slow: ']);
  assertTimedOut(answer, 2500);
  assert.ok(answer.ms >= 900, `not before the deadline (${Math.round(answer.ms)} ms)`);
});

test('a write whose body stalls is answered 408 once it pauses past the body idle deadline', async () => {
  // Pins #18.6: a PUT announcing 1,000 bytes and sending 5 got 408 after 324 s.
  const answer = await stall(['PUT /memory/slow-body HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n12345']);
  assertTimedOut(answer, 2500);
  assert.match(JSON.parse(answer.body).error, /no byte for 1000 ms after 5 bytes \(STOREBENCH_BODY_IDLE_TIMEOUT_MS\)/);
  assert.equal((await fetch(`${app.url}/memory/slow-body`)).status, 404, 'nothing was written');
});

test('a body that trickles, never pausing long, is cut at the request deadline', async () => {
  const trickle = Array.from({ length: 20 }, () => [400, 'x']).flat();
  const answer = await stall(['PUT /memory/trickle HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n', ...trickle]);
  assertTimedOut(answer, 5000);
  assert.ok(answer.ms >= 2900, `not before the request deadline (${Math.round(answer.ms)} ms)`);
});

test('a body that keeps coming within the deadlines is written', async () => {
  const head = 'PUT /memory/steady HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nConnection: close\r\n\r\n';
  const answer = await stall([head, 'ab', 600, 'cd']);
  assert.equal(answer.status, 204, answer.head);
  assert.equal(await (await fetch(`${app.url}/memory/steady`)).text(), 'abcd');
});

test('a kept-alive connection idle between requests past the deadlines is no stalled request', async () => {
  const get = 'GET /memory/key1 HTTP/1.1\r\nHost: x\r\n\r\n';
  const answer = await stall([get, 3500, 'GET /memory/key1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']);
  const statuses = [...`${answer.head}\r\n\r\n${answer.body}`.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => Number(match[1]));
  assert.deepEqual(statuses, [200, 200]);
});

test('the deadlines default to seconds: 10 s for headers, 30 s for a request, 65 s idle keep-alive', async (t) => {
  const defaults = await startApp({
    port: 0, host: '127.0.0.1', stores: ['memory'], embedded: false, env: { PATH: process.env.PATH },
  });
  t.after(() => defaults.close());
  assert.equal(defaults.server.headersTimeout, 10_000);
  assert.equal(defaults.server.requestTimeout, 30_000);
  assert.equal(defaults.server.keepAliveTimeout, 65_000);
});

/** Resolves the ms from a kept-alive answer's arrival to the server's FIN on that connection. */
function idleUntilClosed(port) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answeredAt;
    socket.on('data', () => { answeredAt ??= performance.now(); });
    socket.on('end', () => resolve(performance.now() - answeredAt));
    socket.on('error', reject);
    socket.once('connect', () => socket.write('GET /memory/key1 HTTP/1.1\r\nHost: x\r\n\r\n'));
    socket.setTimeout(15_000, () => socket.destroy(new Error('the server kept the idle connection 15 s')));
  });
}

test('an idle keep-alive connection closes after STOREBENCH_KEEP_ALIVE_TIMEOUT_MS; an option beats it', async (t) => {
  // Pins #30.4: the 65 s idle keep-alive was a constant in app/start-app.js, not a setting.
  const env = { PATH: process.env.PATH, STOREBENCH_KEEP_ALIVE_TIMEOUT_MS: '400' };
  const fromEnv = await startApp({ port: 0, host: '127.0.0.1', stores: ['memory'], embedded: false, env });
  t.after(() => fromEnv.close());
  const idleMs = await idleUntilClosed(fromEnv.port);
  assert.ok(idleMs >= 350 && idleMs < 5000, `closed after ${Math.round(idleMs)} ms idle, expected about 400`);

  const option = await startApp({
    port: 0, host: '127.0.0.1', stores: ['memory'], embedded: false, env, keepAliveTimeoutMs: 1500,
  });
  t.after(() => option.close());
  assert.equal(option.server.keepAliveTimeout, 1500);
  const longer = await idleUntilClosed(option.port);
  assert.ok(longer >= 1400, `the option's 1500 ms, not the variable's 400: closed after ${Math.round(longer)} ms`);

  await assert.rejects(
    startApp({ port: 0, stores: ['memory'], embedded: false, env: { STOREBENCH_KEEP_ALIVE_TIMEOUT_MS: 'soon' } }),
    /STOREBENCH_KEEP_ALIVE_TIMEOUT_MS/,
  );
});
