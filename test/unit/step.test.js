// The step accounting (driver/step.js) with a second engine that is not HTTP: the contract a
// direct mode would implement, and proof that timing, error kinds and drain do not depend on loadtest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { measureStep, StepAborted } from '../../driver/step.js';
import { decodeHistogram } from '../../result/recorder.js';
import { virtualClock } from '../helpers/virtual-clock.js';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// An engine that calls an async function in a closed loop, as a direct store call would be:
// call() resolves to a status, or rejects. `now` is the clock the load's duration is timed by.
function callEngine(call, now = Date.now) {
  return {
    async run({ concurrency, maxRequests, durationSeconds, signal }, meter) {
      const deadline = durationSeconds ? now() + durationSeconds * 1000 : Infinity;
      let started = 0;
      const client = async () => {
        while (!signal?.aborted && (maxRequests == null || started < maxRequests) && now() < deadline) {
          started += 1;
          const request = meter.begin();
          try {
            request.responded(await call());
          } catch (error) {
            request.failed(error);
          }
        }
      };
      await Promise.all(Array.from({ length: concurrency }, client));
      return { reported: { calls: started } };
    },
  };
}

test('an engine other than loadtest gets the same figures: latency, counts, histogram, rps', async () => {
  const step = await measureStep(
    callEngine(async () => { await sleep(5); return 200; }),
    { url: 'direct:memory/key1', concurrency: 2, maxRequests: 20 },
  );
  assert.equal(step.model, 'closed');
  assert.equal(step.concurrency, 2);
  assert.equal(step.peakInFlight, 2);
  assert.equal(step.requests, 20);
  assert.equal(step.responses, 20);
  assert.deepEqual(step.errors, { total: 0, byKind: {}, samples: {} });
  // Node's timers run on the loop's cached clock and may fire up to ~1 ms early by hrtime.
  assert.ok(
    step.latency.minMs >= 4 && step.latency.meanMs >= 4.5,
    `a 5 ms call measured min ${step.latency.minMs}, mean ${step.latency.meanMs} ms`,
  );
  assert.equal(decodeHistogram(step.histogram).totalCount, 20);
  assert.ok(Math.abs(step.rps - step.responses / step.wallSeconds) < 1e-9);
  assert.deepEqual(step.engineReported, { calls: 20 });
  assert.ok(Date.parse(step.startedAt) <= Date.parse(step.finishedAt));
});

test('a non-2xx status is an error kind and still a latency; a rejection is a connection error', async () => {
  let n = 0;
  const step = await measureStep(callEngine(async () => {
    n += 1;
    if (n % 3 === 0) throw Object.assign(new Error('reset'), { code: 'ECONNRESET' });
    if (n % 3 === 1) return 503;
    return 200;
  }), { url: 'direct:x', concurrency: 1, maxRequests: 9 });
  assert.deepEqual(
    step.errors,
    { total: 6, byKind: { 'http 503': 3, 'conn ECONNRESET': 3 }, samples: { 'conn ECONNRESET': 'reset' } },
  );
  assert.equal(step.responses, 6, 'error responses count as responses, failures do not');
  assert.equal(step.latency.count, 6);
});

test('an engine that cannot cancel gets its request counted as a timeout at the deadline', async () => {
  const step = await measureStep(
    callEngine(async () => { await sleep(150); return 200; }),
    { url: 'direct:slow', concurrency: 1, maxRequests: 2, timeoutMs: 30 },
  );
  assert.deepEqual(step.errors, { total: 2, byKind: { timeout: 2 }, samples: { timeout: 'no response within 30 ms' } });
  assert.equal(step.responses, 0, 'the late answers are not counted twice');
});

test('an engine that can cancel is asked to, and its failure then counts as a timeout', async () => {
  const cancelled = [];
  const engine = {
    async run(load, meter) {
      const request = meter.begin((error) => {
        cancelled.push(error.code);
        request.failed(error);
      });
      await sleep(80);
      return { reported: null };
    },
  };
  const step = await measureStep(engine, { url: 'direct:hang', concurrency: 1, maxRequests: 1, timeoutMs: 20 });
  assert.deepEqual(cancelled, ['TIMEOUT']);
  assert.deepEqual(step.errors, { total: 1, byKind: { timeout: 1 }, samples: { timeout: 'no response within 20 ms' } });
});

// A request still in flight when the load ended used to be drained and dropped, which
// biased slow steps toward fast responses. It is part of the step: waited for and counted.
test('a request still in flight when the load ends is waited for and counted, ' +
  'and the engine released after it', async () => {
  const engine = {
    async run(load, meter) {
      const request = meter.begin();
      setTimeout(() => request.responded(200), 60);
      return { reported: null, release: () => (released = Date.now()) };
    },
  };
  let released;
  const started = Date.now();
  const step = await measureStep(engine, { url: 'direct:late', concurrency: 1, maxRequests: 1 });
  assert.ok(Date.now() - started >= 55, 'measureStep waited for the request in flight');
  assert.ok(released - started >= 55, 'the engine was released only after the drain');
  assert.equal(step.requests, 1);
  assert.equal(step.responses, 1);
  assert.ok(step.latency.meanMs >= 55, `its latency ${step.latency.meanMs} ms is the whole 60 ms`);
  assert.ok(Date.parse(step.finishedAt) - started >= 55, 'finishedAt is when the last request ended');
});

test('a request begun after the load ended is not part of the step', async () => {
  let late;
  const engine = {
    async run(load, meter) {
      meter.begin().responded(200);
      setTimeout(() => { late = meter.begin(); late.responded(200); }, 0);
      return { reported: null };
    },
  };
  const step = await measureStep(engine, { url: 'direct:x', concurrency: 1, maxRequests: 1 });
  await sleep(5);
  assert.ok(late, 'the engine began a request after it resolved');
  assert.equal(step.requests, 1);
  assert.equal(step.responses, 1);
});

test('a request an engine never ends, even when asked to cancel, ' +
  'is counted as a timeout once the drain gives up', async () => {
  const engine = {
    async run(load, meter) {
      meter.begin(() => {}); // asked to cancel, does nothing
      return { reported: null };
    },
  };
  const step = await measureStep(engine, { url: 'direct:stuck', concurrency: 1, maxRequests: 1, timeoutMs: 20 });
  assert.deepEqual(step.errors, { total: 1, byKind: { timeout: 1 }, samples: { timeout: 'no response within 20 ms' } });
  assert.equal(step.responses, 0);
});

// A closed loop whose calls last a known time, stopped by a deadline as loadtest's -t is: the
// clients' last calls run past it, and rps must still equal concurrency / mean latency.
test('closed loop: rps is responses over the clients\' mean busy time, ' +
  'so Little\'s law holds with calls still running at the end', async (t) => {
  const clock = virtualClock(t);
  const durations = [10, 80, 10, 10, 80, 10, 80]; // 40 ms mean, by call number
  let n = 0;
  const call = async () => { await clock.sleep(durations[n++ % durations.length]); return 200; };
  const concurrency = 4;
  const load = { url: 'direct:mixed', concurrency, durationSeconds: 0.5 };
  const step = await measureStep(callEngine(call, clock.nowMs), load);
  assert.equal(step.responses, n, 'every call started is counted');
  const expectedMs = (concurrency / step.rps) * 1000;
  const apart = Math.abs(step.latency.meanMs - expectedMs) / expectedMs;
  assert.ok(
    apart < 0.05,
    `mean ${step.latency.meanMs} ms vs concurrency/rps ${expectedMs} ms: ${(apart * 100).toFixed(1)}% apart`,
  );
});

// An open-model engine: starts a request every 1000 / rps ms on schedule for durationSeconds,
// each served by one FIFO server that takes serviceMs per request; on clock's time.
function queueEngine(serviceMs, clock) {
  return {
    async run({ rps, durationSeconds }, meter) {
      let freeAt = clock.nowMs();
      const count = Math.round(rps * durationSeconds);
      const first = clock.nowMs();
      for (let k = 0; k < count; k += 1) {
        const wait = first + (k * 1000) / rps - clock.nowMs();
        if (wait > 0) await clock.sleep(wait);
        const request = meter.begin();
        freeAt = Math.max(freeAt, clock.nowMs()) + serviceMs;
        clock.sleep(freeAt - clock.nowMs()).then(() => request.responded(200));
      }
      return { reported: null };
    },
  };
}

test('open model: a target that keeps up completes at the rate asked; ' +
  'one that cannot, at the rate it serves', async (t) => {
  const clock = virtualClock(t);
  const keepsUp = await measureStep(queueEngine(5, clock), { url: 'direct:fast', rps: 50, durationSeconds: 0.6 });
  assert.equal(keepsUp.responses, 30);
  assert.ok(Math.abs(keepsUp.rps - 50) / 50 < 0.1, `a target serving in 5 ms at 50 rps: ${keepsUp.rps} rps`);
  // 40 ms per request is 25 rps: asked 50, the queue grows and the latency with it.
  const behind = await measureStep(queueEngine(40, clock), { url: 'direct:slow', rps: 50, durationSeconds: 0.6 });
  assert.equal(behind.responses, 30, 'every request started is waited for');
  assert.ok(Math.abs(behind.rps - 25) / 25 < 0.15, `a target serving 25 rps, asked 50: ${behind.rps} rps`);
});

test('an abort rejects with StepAborted at once', async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 30);
  const started = Date.now();
  await assert.rejects(
    measureStep(
      callEngine(async () => { await sleep(5); return 200; }),
      { url: 'direct:x', concurrency: 1, durationSeconds: 5, signal: controller.signal },
    ),
    StepAborted,
  );
  assert.ok(Date.now() - started < 1000);
  await assert.rejects(
    measureStep(
      callEngine(async () => 200),
      { url: 'direct:x', signal: controller.signal },
    ),
    StepAborted,
    'an aborted signal starts nothing',
  );
});

test('an abort while the step waits for its last requests rejects at once, not at their deadline', async () => {
  const controller = new AbortController();
  const engine = {
    async run(load, meter) {
      meter.begin(() => {}); // never ends, deadline 10 s away
      setTimeout(() => controller.abort(), 30);
      return { reported: null, release: () => (released = true) };
    },
  };
  let released = false;
  const started = Date.now();
  await assert.rejects(
    measureStep(engine, { url: 'direct:stuck', concurrency: 1, maxRequests: 1, signal: controller.signal }),
    StepAborted,
  );
  assert.ok(Date.now() - started < 1000, 'the wait for the 10 s deadline was cut short');
  assert.ok(released, 'the engine was released all the same');
});

test('an abort while the load runs leaves no deadline timer behind, and releases the engine once stopped', async () => {
  const controller = new AbortController();
  let released = false;
  let stop;
  const engine = {
    run(load, meter) {
      meter.begin(() => {}); // in flight when the abort comes, its deadline 10 s away
      setTimeout(() => controller.abort(), 30);
      // The engine stops starting requests a little after the abort, as a real one does.
      return new Promise((resolve) => { stop = () => resolve({ reported: null, release: () => (released = true) }); });
    },
  };
  const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
  const before = timers();
  await assert.rejects(
    measureStep(engine, {
      url: 'direct:x', concurrency: 1, durationSeconds: 5, timeoutMs: 10_000, signal: controller.signal,
    }),
    StepAborted,
  );
  assert.equal(timers(), before, 'the 10 s deadline of the request in flight is not left armed');
  assert.equal(released, false, 'not released while the engine still runs');
  stop();
  await sleep(0);
  assert.ok(released, 'released once the engine has stopped');
});

test('elapsedSeconds runs from the first start to the last end: ' +
  'longer than wallSeconds when the clients finish unevenly', async () => {
  // Two clients, 3 calls: one client makes two 40 ms calls, the other one; the step lasts
  // two calls (80 ms) while the clients' mean busy time is 1.5 calls (60 ms).
  const step = await measureStep(
    callEngine(async () => { await sleep(40); return 200; }),
    { url: 'direct:x', concurrency: 2, maxRequests: 3 },
  );
  assert.equal(step.responses, 3);
  assert.ok(step.elapsedSeconds >= 0.078, `elapsed ${step.elapsedSeconds} s for two 40 ms calls back to back`);
  assert.ok(
    step.elapsedSeconds > step.wallSeconds * 1.2,
    `elapsed ${step.elapsedSeconds} s, wall ${step.wallSeconds} s`,
  );
  assert.ok(
    Math.abs(step.wallSeconds / step.elapsedSeconds - 0.75) < 0.1,
    `mean busy / elapsed ${step.wallSeconds / step.elapsedSeconds}, expected 1.5 / 2 calls`,
  );
});

test('cpuPercent is the driving thread\'s CPU, not another thread\'s in the same process ' +
  '(the probe\'s, a worker\'s)', async (t) => {
  // Regression: measured for the whole process, a direct step read 110% alone and 140% beside the probe.
  const { Worker } = await import('node:worker_threads');
  const spinner = new Worker('const end = Date.now() + 1500; while (Date.now() < end);', { eval: true });
  t.after(() => spinner.terminate());
  await new Promise((resolve) => spinner.once('online', resolve));
  // One client sleeping 100 ms per call for 0.6 s: this thread is idle, the spinner busy.
  const step = await measureStep(
    callEngine(async () => { await sleep(100); return 200; }),
    { url: 'direct:x', concurrency: 1, durationSeconds: 0.6 },
  );
  assert.ok(step.cpuPercent < 40, `the idle driving thread read ${step.cpuPercent}% while another thread spun`);
});

// An all-413 run printed only `http 413: 20`, never the server's reason: each error kind keeps its first answer.
test('each error kind keeps the first answer\'s text, as one line: a JSON error as code: message', async () => {
  let n = 0;
  const engine = {
    async run(load, meter) {
      for (let i = 0; i < 4; i += 1) {
        n += 1;
        const body =
          n === 1
            ? '{"error":"the memcached server refused a value\\nof 1048576 bytes","code":"VALUE_TOO_LARGE"}'
            : 'later';
        meter.begin().responded(413, body);
      }
      meter.begin().responded(500, '<html>\u001b[2Kboom</html>');
      return { reported: null };
    },
  };
  const step = await measureStep(engine, { url: 'direct:x', concurrency: 1, maxRequests: 5 });
  assert.deepEqual(step.errors.byKind, { 'http 413': 4, 'http 500': 1 });
  assert.deepEqual(step.errors.samples, {
    'http 413': 'VALUE_TOO_LARGE: the memcached server refused a value of 1048576 bytes',
    'http 500': '<html>[2Kboom</html>',
  });
});

test('responses are counted per quarter second over the whole intervals of the step', async (t) => {
  const clock = virtualClock(t);
  const step = await measureStep(
    callEngine(async () => { await clock.sleep(10); return 200; }, clock.nowMs),
    { url: 'direct:x', concurrency: 2, durationSeconds: 1.1 },
  );
  assert.equal(step.intervals.seconds, 0.25);
  assert.equal(step.intervals.responses.length, 4, 'four whole quarter seconds in 1.1 s');
  const counted = step.intervals.responses.reduce((a, b) => a + b, 0);
  assert.ok(
    counted > 0 && counted <= step.responses,
    `${counted} of ${step.responses} responses fall in whole intervals`,
  );
  for (const count of step.intervals.responses) {
    assert.ok(count > 20, `each quarter second holds about 50 responses of 2 clients at 10 ms: ${count}`);
  }
});
