// Clients that leave, break or garble their requests: none of it puts a stack trace in the app's
// log, with logging off or on, and a client that leaves before its answer is counted in /metrics
// (storebench_app_client_aborts_total), not logged as an error.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { startApp } from '../../app/start-app.js';
import { startAppProcess } from '../../driver/app-process.js';
import { RECORDS_MEDIA_TYPE } from '../../util/records.js';

const STACK = /\n\s+at /;

/**
 * Opens a raw connection and plays parts: a string is written; a number waits that many ms;
 * 'close' ends it (FIN and gone), 'reset' resets it (RST), 'pause' stops reading. Resolves
 * once the connection is gone.
 */
function play(port, parts) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.resume();
    socket.on('error', () => {});
    socket.on('close', resolve);
    socket.once('connect', async () => {
      for (const part of parts) {
        if (socket.destroyed) return;
        if (typeof part === 'number') await sleep(part);
        else if (part === 'close') socket.destroy();
        else if (part === 'reset') socket.resetAndDestroy();
        else if (part === 'pause') socket.pause();
        else socket.write(part);
      }
    });
  });
}

const put = (path, length, headers = '') =>
  `PUT ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${length}\r\n${headers}\r\n`;

async function metricValue(url, name, labels) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && labels.every((label) => l.includes(label)));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

test('the issue\'s repro on app.js itself: a PUT that leaves after 5 of 1000 bytes writes nothing to its output, ' +
  'and /metrics counts it as a client abort', async (t) => {
  // Pins #30.1: the abort wrote a full stack trace to the app's log, even with logging off.
  const app = await startAppProcess({ stores: ['memory'], args: ['--no-embedded', '--metrics'] });
  t.after(() => app.stop());
  const before = app.output();
  await play(app.port ?? new URL(app.url).port, [put('/memory/a1', 1000), 'abcde', 50, 'close']);
  await sleep(200);
  assert.equal(app.output().slice(before.length), '', 'nothing was written to the app\'s output');
  const aborts = ['store="memory"', 'stage="request"'];
  assert.equal(await metricValue(app.url, 'storebench_app_client_aborts_total', aborts), 1);
  assert.equal((await fetch(`${app.url}/memory/a1`)).status, 404, 'nothing was written to the store');
});

describe('client behaviour on an app with --log and --metrics', () => {
  let app;
  const lines = [];
  before(async () => {
    const deadlines = { STOREBENCH_BODY_IDLE_TIMEOUT_MS: '300', STOREBENCH_HEADERS_TIMEOUT_MS: '300' };
    const env = { PATH: process.env.PATH, ...deadlines };
    app = await startApp({
      port: 0,
      host: '127.0.0.1',
      stores: ['memory'],
      embedded: false,
      logRequests: true,
      metrics: true,
      maxValueSize: '64MB',
      env,
      log: (line) => lines.push(line),
    });
    // A value larger than the sockets' buffers hold, so that a client that stops reading and
    // leaves does so mid-answer.
    await fetch(`${app.url}/memory/big`, { method: 'PUT', body: Buffer.alloc(32 * 1024 ** 2, 0x61) });
  });
  after(() => app?.close());

  const bulk = (length) => `POST /memory HTTP/1.1\r\nHost: x\r\nContent-Type: ${RECORDS_MEDIA_TYPE}\r\n` +
    `Content-Length: ${length}\r\n\r\n`;
  const chunked = 'PUT /memory/a1 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n';
  const cases = {
    'leaves mid-body (FIN)': [put('/memory/a1', 1000), 'abcde', 50, 'close'],
    'leaves mid-body (RST)': [put('/memory/a1', 1000), 'abcde', 50, 'reset'],
    'leaves mid-chunked-body': [chunked, '5\r\nabcde\r\n', 50, 'close'],
    'sends a malformed chunk': [chunked, 'zz\r\nab\r\n', 200],
    'leaves mid-append': ['POST /memory/a1/append HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nab', 50, 'close'],
    'leaves mid-bulk-load': [bulk(1000), 'ab', 50, 'close'],
    // Answered 400 on a connection kept alive: the client closes it (else it waits out the keep-alive timeout).
    'sends a bulk load that is not records': [bulk(3), 'abc', 200, 'close'],
    'leaves mid-results-upload': [put('/_results/r1/1', 1000), 'ab', 50, 'close'],
    'asks for 100-continue and leaves': [put('/memory/a1', 1000, 'Expect: 100-continue\r\n'), 100, 'close'],
    'stalls mid-body': [put('/memory/a1', 1000), 'ab', 600],
    'stalls mid-headers': ['GET /memory/big HTTP/1.1\r\nHost: x\r\nX-Slow: ', 600],
    'resets mid-answer (32 MB)': ['GET /memory/big HTTP/1.1\r\nHost: x\r\n\r\n', 'pause', 100, 'reset'],
    'pipelines three GETs and resets': ['GET /memory/big HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3), 50, 'reset'],
    'HEADs and resets': ['HEAD /memory/big HTTP/1.1\r\nHost: x\r\n\r\n', 'reset'],
    'sends garbage': ['GARBAGE\r\n\r\n', 200],
    'sends a malformed percent-encoding': [put('/memory/%E0%A4%A', 3), 'abc', 200, 'close'],
    'sends two Content-Lengths': [put('/memory/a1', 3, 'Content-Length: 4\r\n'), 'abcd', 200],
    'asks to upgrade and resets': ['GET /memory/key1 HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: x\r\n\r\n',
      'reset'],
    'CONNECTs and resets': ['CONNECT x:1 HTTP/1.1\r\nHost: x\r\n\r\n', 'reset'],
    'resets while the page is rendered': ['GET / HTTP/1.1\r\nHost: x\r\n\r\n', 'reset'],
  };
  for (const [behaviour, parts] of Object.entries(cases)) {
    test(`a client that ${behaviour}: no stack in the log, at most one line a request`, async () => {
      const from = lines.length;
      await play(app.port, parts);
      await sleep(100);
      const added = lines.slice(from);
      for (const line of added) {
        assert.doesNotMatch(line, STACK, `a stack in the log: ${line}`);
        assert.doesNotMatch(line, /\n/, `a line of several: ${line}`);
        assert.doesNotMatch(line, /^error /, `an error in the log: ${line}`);
      }
      assert.ok(added.length <= 3, `${added.length} lines: ${added.join(' | ')}`);
    });
  }

  test('a client that leaves mid-answer is logged in one line and counted as a response-stage abort', async () => {
    const before = await metricValue(app.url, 'storebench_app_client_aborts_total', ['stage="response"']);
    const from = lines.length;
    await play(app.port, ['GET /memory/big HTTP/1.1\r\nHost: x\r\n\r\n', 'pause', 100, 'reset']);
    await sleep(100);
    assert.deepEqual(lines.slice(from).map((line) => line.replace(/[\d.]+ ms$/, 'N ms')),
      ['GET /memory/big client left mid-answer N ms']);
    const after = await metricValue(app.url, 'storebench_app_client_aborts_total', ['stage="response"']);
    assert.equal(after - before, 1);
  });
});

describe('200 slowloris clients', () => {
  const CLIENTS = 200;
  for (const logRequests of [false, true]) {
    test(`with logging ${logRequests ? 'on' : 'off'}: the log stays bounded and holds no stack`, async (t) => {
      // Pins #30.1: 200 slowloris clients made 2,000 log lines.
      const lines = [];
      const app = await startApp({
        port: 0,
        host: '127.0.0.1',
        stores: ['memory'],
        embedded: false,
        logRequests,
        metrics: true,
        env: { PATH: process.env.PATH, STOREBENCH_BODY_IDLE_TIMEOUT_MS: '1000' },
        log: (line) => lines.push(line),
      });
      t.after(() => app.close());
      // Half leave after a few bytes of body, half stall until the app gives up on them (408).
      await Promise.all(Array.from({ length: CLIENTS }, (_, i) => play(app.port, i % 2
        ? [put(`/memory/slow-${i}`, 1000), 'abcde', 200, 'close']
        : [put(`/memory/slow-${i}`, 1000), 'abcde'])));
      for (const line of lines) assert.doesNotMatch(line, STACK, line);
      assert.ok(lines.length <= (logRequests ? CLIENTS : 0), `${lines.length} log lines for ${CLIENTS} clients`);
      const aborts = await metricValue(app.url, 'storebench_app_client_aborts_total', ['stage="request"']);
      assert.equal(aborts, CLIENTS / 2, 'the clients that left are counted');
      const timedOut = await metricValue(app.url, 'storebench_app_requests_total', ['status="408"']);
      assert.equal(timedOut, CLIENTS / 2, 'the clients that stalled were answered 408');
    });
  }
});
