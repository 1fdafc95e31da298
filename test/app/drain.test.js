// SIGTERM under load: the app stops listening, answers every request it was sent before the
// signal in full (and those sent before it got round to acting on it), then closes its
// keep-alive connections cleanly.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { Agent, createServer, request } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { drainable } from '../../app/drain.js';
import { startAppProcess } from '../../driver/app-process.js';
import { payloads } from '../../stores/payloads.js';
import { unavailable } from '../helpers/services.js';
import { which } from '../../util/which.js';

const CLIENTS = 50;

/** One GET: when it was fully written to the socket (sentAt), and how it ended. */
function get(url, agent) {
  return new Promise((resolve) => {
    const result = { sentAt: undefined };
    const req = request(url, { agent }, (response) => {
      let bytes = 0;
      response.on('data', (chunk) => { bytes += chunk.length; });
      response.on('end', () => {
        const { statusCode: status, headers: { connection } } = response;
        resolve({ ...result, status, bytes, connection, endedAt: performance.now() });
      });
      response.on('error', (error) => resolve({ ...result, error: error.code ?? error.message }));
    });
    req.on('finish', () => { result.sentAt = performance.now(); });
    req.on('error', (error) => resolve({ ...result, error: error.code ?? error.message }));
    req.end();
  });
}

// Each as one process, and as app.js --workers 2, whose primary owns the listener and hands connections over.
for (const workers of [1, 2]) {
  const args = ['--no-embedded', '--workers', String(workers)];
  const as = workers > 1 ? ` (--workers ${workers})` : '';

  const title = 'SIGTERM under 50 keep-alive clients on /memory/key3: each request sent before the signal completes';
  test(`${title}${as}`, async () => {
    // Pins #9.8: each SIGTERM under wrk -c50 on /memory/key3 gave 10-12 ECONNRESETs, requests sent before it included.
    const app = await startAppProcess({ stores: ['memory'], args });
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const url = `${app.url}/memory/key3`;
    const results = [];
    let signalledAt = Infinity;
    const afterSignal = (r) => `sent ${Math.round(r.sentAt - signalledAt)} ms after the signal`;
    const run = { exited: false };
    const client = async () => {
      while (!run.exited) {
        const result = await get(url, agent);
        results.push(result);
        // After the signal the app may close a connection or refuse a new one: that is the end.
        if (result.error && (result.sentAt === undefined || result.sentAt > signalledAt)) return;
      }
    };
    // When the app says it acts on the signal: later than the signal itself, so the requests
    // sent before then are all those sent before the signal and some more.
    let actedAt = Infinity;
    app.child.stdout.on('data', (chunk) => {
      if (/SIGTERM: finishing in-flight requests/.test(chunk)) actedAt = Math.min(actedAt, performance.now());
    });
    const clients = Array.from({ length: CLIENTS }, client);
    await sleep(1500);
    signalledAt = performance.now();
    app.child.kill('SIGTERM');
    const { code } = await app.exited;
    run.exited = true;
    await Promise.all(clients);
    agent.destroy();

    assert.ok(actedAt > signalledAt && actedAt < Infinity, 'the app said it was finishing in-flight requests');
    const before = results.filter((r) => r.sentAt !== undefined && r.sentAt < actedAt);
    assert.ok(before.length >= CLIENTS, `${before.length} requests were sent before the app acted on the signal`);
    const failed = before.filter((r) => r.error || r.status !== 200 || r.bytes !== payloads.key3.length);
    const when = failed.map((r) => `${r.error ?? r.status} ${afterSignal(r)}`);
    assert.deepEqual(when, [],
    `${failed.length} of ${before.length} requests sent before the app acted on the signal did not complete`);
    assert.equal(code, 0);
    // The keep-alive connections close cleanly: each ends with an answer saying Connection: close,
    // so no request written after the signal is cut off either; what fails is only a new
    // connection once the app has stopped listening (ECONNREFUSED, nothing sent).
    const lost = results.filter((r) => r.error && r.sentAt !== undefined).map((r) => `${r.error} ${afterSignal(r)}`);
    assert.deepEqual(lost, [], 'a request written to a connection was cut off');
    const closing = results.filter((r) => r.connection === 'close');
    assert.ok(closing.length >= 1, 'answers after the signal say Connection: close');
  });

  /** One GET on a fresh connection (agent: false): when it was written (sentAt), and how it ended. */
  const freshGet = (url) => get(url, false);

  test(`SIGTERM during a storm of fresh connections: no connection the kernel accepted is reset${as}`, async (t) => {
    // Pins #18.10: each SIGTERM reset about 2 connections that had sent a request and were still
    // waiting in the accept queue when the listener closed (0 bytes of answer).
    // With workers, pins the shared listener closed by each worker on its own: 94 of 261 reset; and
    // node:cluster's primary resetting connections it had not handed over (20 in 1 of 4 runs).
    const CONNECTORS = 100;
    const app = await startAppProcess({ stores: ['memory'], args });
    const url = `${app.url}/memory/key1`;
    const results = [];
    let signalledAt = Infinity;
    const afterSignal = (r) => `sent ${Math.round(r.sentAt - signalledAt)} ms after the signal`;
    // Each opens one connection after another until the app refuses one or says it is going
    // away (a 503, or any answer to a request sent after the signal).
    const connector = async () => {
      for (;;) {
        const result = await freshGet(url);
        results.push(result);
        if (result.error || result.status === 503 || (result.sentAt ?? 0) > signalledAt) return;
      }
    };
    const connectors = Array.from({ length: CONNECTORS }, connector);
    await sleep(1000);
    signalledAt = performance.now();
    app.child.kill('SIGTERM');
    const { code } = await app.exited;
    await Promise.all(connectors);

    assert.equal(code, 0);
    const sent = results.filter((r) => r.sentAt !== undefined);
    assert.ok(sent.length > CONNECTORS, `${sent.length} requests were sent`);
    // A request written to a connection the app had accepted (or the kernel, for it) ends with
    // an answer: its own, or 503 with Connection: close. A refused connection sent nothing.
    const reset = sent.filter((r) => r.error).map((r) => `${r.error} ${afterSignal(r)}`);
    assert.deepEqual(reset, [],
    `${reset.length} of ${sent.length} requests written to an accepted connection were reset`);
    const answered = sent.filter((r) => r.status === 200 || r.status === 503);
    assert.equal(answered.length, sent.length, 'every written request was answered 200 or 503');
    // Connections the app took after the signal are told 503, Connection: close. Whether any come
    // depends on the clients: the listener closes once none arrived for 50 ms, and a client
    // process stalled that long on a busy machine finds it closed (refused, below; once in CI).
    const toldToGo = sent.filter((r) => r.status === 503);
    assert.ok(toldToGo.every((r) => r.connection === 'close'), 'every 503 said Connection: close');
    t.diagnostic(`${toldToGo.length} told 503 after the signal, ` +
      `${results.filter((r) => r.error === 'ECONNREFUSED').length} refused once the listener closed`);
    const refusedOnly = results.filter((r) => r.error).every((r) => r.error === 'ECONNREFUSED');
    assert.ok(refusedOnly, 'what failed was refused before sending');
  });
}

/**
 * One GET on a fresh raw connection: whether the kernel accepted it (connected), the bytes
 * of answer that came, its status, and the error that ended it.
 */
function rawGet(port, path) {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const result = { connected: false, bytes: 0, status: null, error: null };
    let head = '';
    socket.once('connect', () => {
      result.connected = true;
      socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    });
    socket.on('data', (chunk) => {
      if (!result.bytes) head = chunk.toString('latin1', 0, 16);
      result.bytes += chunk.length;
    });
    socket.on('error', (error) => { result.error = error.code ?? error.message; });
    socket.on('close', () => resolve({ ...result, status: Number(head.split(' ')[1]) || null }));
  });
}

/** wrk's socket error counts, from its summary (all 0 when it printed none). */
function wrkSocketErrors(output) {
  const [, connect = 0, read = 0, write = 0, timeout = 0] =
    /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output) ?? [];
  return { connect: Number(connect), read: Number(read), write: Number(write), timeout: Number(timeout) };
}

for (const workers of [1, 2]) {
  const as = workers > 1 ? ` (--workers ${workers})` : '';
  test('SIGTERM under wrk -c50 on key3 while clients keep opening new connections: none the kernel accepted is ' +
  `reset, in any of 3 rounds${as}`, async (t) => {
  // Pins #30.3: 0-2 new connections per SIGTERM got 0 bytes and a reset: each had arrived in
  // the last ~60 ms before the listener closed at its 1 s cap, as connections kept coming.
    if (!which('wrk')) return unavailable(t, 'wrk is not installed (apt-get install wrk)');
    const ROUNDS = 3;
    const CONNECTORS = 8;
    const rounds = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const app = await startAppProcess({ stores: ['memory'], args: ['--no-embedded', '--workers', String(workers)] });
      const { port } = new URL(app.url);
      const wrk = spawn('wrk', ['-t1', '-c50', '-d60s', `${app.url}/memory/key3`]);
      let wrkOutput = '';
      wrk.stdout.on('data', (chunk) => { wrkOutput += chunk; });
      const wrkExited = new Promise((resolve) => wrk.once('exit', resolve));
      // Each keeps opening one connection after another, whatever the answer, until one is
      // refused: the steady stream of new connections that kept the listener open to its cap.
      const results = [];
      const connector = async () => {
        for (;;) {
          const result = await rawGet(port, '/memory/key1');
          results.push(result);
          if (!result.connected) return;
        }
      };
      await sleep(1000);
      const connectors = Array.from({ length: CONNECTORS }, connector);
      await sleep(500);
      app.child.kill('SIGTERM');
      const { code } = await app.exited;
      await Promise.all(connectors);
      wrk.kill('SIGINT'); // wrk prints its summary on SIGINT
      await wrkExited;
      const accepted = results.filter((r) => r.connected);
      rounds.push({
        code,
        accepted: accepted.length,
        reset: accepted.filter((r) => r.error || !r.bytes).map((r) => `${r.error ?? 'closed'} after ${r.bytes} bytes`),
        unanswered: accepted.filter((r) => ![200, 503].includes(r.status)).length,
        refusedOnly: results.filter((r) => !r.connected).every((r) => r.error === 'ECONNREFUSED'),
        wrk: wrkSocketErrors(wrkOutput),
      });
    }
    for (const [i, round] of rounds.entries()) {
      const which = `round ${i + 1}`;
      assert.equal(round.code, 0, `${which}: the app exited 0`);
      assert.ok(round.accepted >= CONNECTORS, `${which}: ${round.accepted} new connections were accepted`);
      assert.deepEqual(round.reset, [], `${which}: new connections the kernel accepted were reset`);
      assert.equal(round.unanswered, 0, `${which}: every accepted new connection was answered 200 or 503`);
      assert.ok(round.refusedOnly, `${which}: what was not accepted was refused (ECONNREFUSED)`);
      // A read error is wrk's word for a connection closed or reset under a request it sent. (Its
      // write errors are its reconnections refused once the listener closed: wrk counts no
      // connect error for those.)
      const wrkErrors = JSON.stringify(round.wrk);
      assert.equal(round.wrk.read, 0, `${which}: wrk saw connections cut under its requests: ${wrkErrors}`);
    }
  });
}

test('a connection that arrives while the app drains is held until the listener closes, then told 503 ' +
  'SHUTTING_DOWN with Connection: close; one after that is refused', async () => {
  // The storm above cannot always make one arrive in time on a busy machine: here it is in the
  // kernel's accept queue before the drain's first look at it, so the listener cannot close first.
  const server = createServer((req, res) => res.end('ok'));
  const drain = drainable(server);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}/key1`;
  assert.equal((await get(url, false)).status, 200, 'served before the drain');
  const drained = drain();
  const late = get(url, false);
  const answer = await late;
  await drained;
  assert.equal(answer.status, 503);
  assert.equal(answer.connection, 'close');
  assert.equal((await get(url, false)).error, 'ECONNREFUSED', 'the listener is closed once drained');
});
