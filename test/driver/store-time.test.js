// The store's own time end to end, with each HTTP engine: the real app says it per response
// (Server-Timing) and it never exceeds the latency the driver measured for that response, nor
// do the step's percentiles; a server that sends known times gets exactly those, counted only
// for 2xx answers that carried one, added exactly across --workers; a server that sends none
// gets storeTime null and no error; node test with --store-rtt 10 sees redis's store time take
// the round trip while memory's stays under 0.1 ms, and --no-server-timing turns it off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { HTTP_ENGINES } from '../../driver/engines/index.js';
import { measureStep } from '../../driver/step.js';
import { createStepRunner } from '../../driver/workers.js';
import { startAppProcess } from '../../driver/app-process.js';
import { runBenchmark } from '../../driver/run.js';
import { parseArguments } from '../../cli/options.js';
import { createLatencyRecorder, decodeHistogram } from '../../result/recorder.js';
import { which } from '../../util/which.js';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromJson } from '../../result/format.js';
import { startTestServer } from '../helpers/driver-servers.js';
import { unavailable } from '../helpers/services.js';
import { runDriverCli } from '../helpers/driver-cli.js';

const load = (url, extra) => ({ url, keepAlive: true, timeoutMs: 10_000, ...extra });

async function memoryApp(t) {
  const app = await startAppProcess({ stores: ['memory'], args: ['--no-embedded'] });
  t.after(() => app.stop());
  return app;
}

// A Meter (driver/step.js) that keeps each response's own latency and the store time the
// engine handed over with it: what the step's histograms hold, one request at a time.
class PairMeter {
  constructor() {
    this.pairs = [];
    this.failures = [];
  }

  begin() {
    const startNs = process.hrtime.bigint();
    return {
      responded: (status, body, storeMs) =>
        this.pairs.push({ status, latencyMs: Number(process.hrtime.bigint() - startNs) / 1e6, storeMs }),
      failed: (error) => this.failures.push(error),
    };
  }
}

async function pairsOf(engine, url, requests) {
  const meter = new PairMeter();
  const run = await engine.run(load(url, { concurrency: 4, maxRequests: requests }), meter);
  while (meter.pairs.length + meter.failures.length < requests) await new Promise((resolve) => setTimeout(resolve, 5));
  run.release?.();
  return meter;
}

// A server that answers every request at once with a known Server-Timing: the i-th request's
// store time is `storeMs(i)` (null: no header), its status `status(i)`. Keeps what it sent on
// 2xx answers, in ns as the driver records them. A request without a User-Agent (node test's
// check that the URL answers, before any step) gets a plain 200.
async function knownServer(t, { storeMs, status = () => 200 }) {
  const sentNs = [];
  let served = 0;
  const server = createServer((request, response) => {
    if (!request.headers['user-agent']) return response.end('ok');
    const index = served;
    served += 1;
    const ms = storeMs(index);
    const code = status(index);
    const headers = { 'content-type': 'text/plain' };
    if (ms !== null) headers['server-timing'] = `app;dur=9, store;desc="known";dur=${ms}`;
    if (ms !== null && code >= 200 && code <= 299) sentNs.push(Math.round(ms * 1e6));
    response.writeHead(code, headers);
    response.end('ok');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  }));
  return { url: `http://127.0.0.1:${server.address().port}/x/key1`, sentNs };
}

// The figures one recorder of all these samples gives, as a storeTime holds them.
function oneHistogramOf(samplesNs) {
  const recorder = createLatencyRecorder();
  for (const ns of samplesNs) recorder.recordNs(ns);
  const { count, meanMs, minMs, maxMs, p50Ms, p90Ms, p99Ms } = recorder.summary();
  recorder.destroy();
  return { count, meanMs, minMs, maxMs, p50Ms, p90Ms, p99Ms };
}
const figuresOf = ({ source, histogram, ...figures }) => figures;
// Store times in eighths of a millisecond: exact in binary, so the mean can be compared exactly.
const eighths = (index) => ((index * 7) % 40) / 8;

for (const [name, engine] of Object.entries(HTTP_ENGINES)) {
  const named = (title) => `${name} engine: ${title}`;

  test(named('the app\'s store time of each response never exceeds the latency the driver measured for it'),
    async (t) => {
      const app = await memoryApp(t);
      const { pairs, failures } = await pairsOf(engine, `${app.url}/memory/key1`, 600);
      assert.deepEqual(failures, []);
      assert.equal(pairs.length, 600);
      for (const { status, latencyMs, storeMs } of pairs) {
        assert.equal(status, 200);
        assert.ok(storeMs >= 0 && storeMs <= latencyMs, `store ${storeMs} ms within latency ${latencyMs} ms`);
      }
    });

  test(named('a step against the app: every 2xx has a store time; memory\'s p50 is under 0.1 ms; ' +
    'each store-time figure is at most the latency\'s'), async (t) => {
    const app = await memoryApp(t);
    const url = `${app.url}/memory/key1`;
    await measureStep(engine, load(url, { concurrency: 4, maxRequests: 1000 })); // warm the app
    const step = await measureStep(engine, load(url, { concurrency: 4, maxRequests: 2000 }));
    assert.equal(step.responses, 2000);
    assert.equal(step.errors.total, 0);
    assert.equal(step.storeTime.source, 'server-timing');
    assert.equal(step.storeTime.count, 2000, 'every 2xx response carried the header');
    assert.equal(decodeHistogram(step.storeTime.histogram).totalCount, 2000);
    assert.ok(step.storeTime.p50Ms < 0.1, `memory's store time p50 ${step.storeTime.p50Ms} ms`);
    for (const figure of ['minMs', 'p50Ms', 'p90Ms', 'p99Ms', 'maxMs', 'meanMs']) {
      assert.ok(step.storeTime[figure] <= step.latency[figure],
        `store ${figure} ${step.storeTime[figure]} <= latency ${step.latency[figure]}`);
    }
    assert.deepEqual(step.operations[0].storeTime, step.storeTime, 'one operation: the step\'s');
    assert.ok(step.timeline.every((second) => second.storeTime.p99Ms <= second.latency.p99Ms));
  });

  test(named('-n 300 against known times: exactly the 2xx answers that carried one, ' +
    'the figures of one histogram of what was sent'), async (t) => {
    // Every 5th answer carries no header, every 7th is a 404 (with one): neither counts.
    const server = await knownServer(t, {
      storeMs: (index) => (index % 5 === 4 ? null : eighths(index)),
      status: (index) => (index % 7 === 6 ? 404 : 200),
    });
    const step = await measureStep(engine, load(server.url, { concurrency: 3, maxRequests: 300 }));
    assert.equal(step.responses, 300);
    assert.equal(step.errors.byKind['http 404'], 300 / 7 | 0);
    assert.equal(server.sentNs.length, 300 - 60 - 42 + 8, '60 without a header, 42 404s, 8 of them both');
    assert.equal(step.storeTime.count, server.sentNs.length);
    assert.deepEqual(figuresOf(step.storeTime), oneHistogramOf(server.sentNs));
  });

  test(named('--workers 2: the workers\' store times add into exactly one histogram of all that was sent'),
    async (t) => {
      const server = await knownServer(t, { storeMs: eighths });
      const stepRunner = createStepRunner({ workers: 2, engine });
      t.after(() => stepRunner.close());
      const step = await stepRunner.measure(load(server.url, { concurrency: 4, maxRequests: 400 }));
      assert.deepEqual(step.workers.map((worker) => worker.responses), [200, 200]);
      assert.equal(server.sentNs.length, 400);
      assert.deepEqual(figuresOf(step.storeTime), oneHistogramOf(server.sentNs));
      assert.equal(decodeHistogram(step.storeTime.histogram).totalCount, 400);
      assert.equal(step.storeTime.sums, undefined, 'the exact sums stay between the threads');
    });

  test(named('a bare node:http server sends no Server-Timing: storeTime null, no error'), async (t) => {
    const server = await startTestServer(t);
    const step = await measureStep(engine, load(`${server.url}/`, { concurrency: 2, maxRequests: 200 }));
    assert.equal(step.responses, 200);
    assert.equal(step.errors.total, 0);
    assert.equal(step.storeTime, null);
    assert.equal(step.operations[0].storeTime, null);
    assert.ok(step.timeline.every((second) => second.storeTime === null));
  });
}

test('node test merge of two drivers\' files: their store times add into one histogram of all that was sent',
  async (t) => {
    const server = await knownServer(t, { storeMs: eighths });
    const dir = await mkdtemp(join(tmpdir(), 'storebench-store-time-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const run = (file) => runDriverCli(['--url', server.url, '-c', '2', '-n', '150', '--warmup', '0', '-q',
      '--json', join(dir, file)]);
    for (const ran of await Promise.all([run('a.json'), run('b.json')])) assert.equal(ran.status, 0, ran.stderr);
    const files = ['a.json', 'b.json'].map((file) => join(dir, file));
    const merge = await runDriverCli(['merge', ...files, '--json', join(dir, 'all.json')]);
    assert.equal(merge.status, 0, merge.stderr);
    const [step] = fromJson(await readFile(join(dir, 'all.json'), 'utf8')).steps;
    assert.equal(server.sentNs.length, 300);
    const { meanMs, ...exact } = oneHistogramOf(server.sentNs);
    const { meanMs: mergedMean, ...merged } = figuresOf(step.storeTime);
    assert.deepEqual(merged, exact);
    // A file keeps the mean, not the nanosecond sum: the merged mean is within a nanosecond.
    assert.ok(Math.abs(mergedMean - meanMs) < 1e-6, `${mergedMean} vs ${meanMs}`);
    assert.match(merge.stdout, /storeP50 +storeP99 +storeMean/, 'the merged table shows it');
  });

test('node test --store-rtt 10 (the embedded app): redis\'s store time p50 is at least the 10 ms round trip, ' +
  'memory\'s under 0.1 ms', async (t) => {
  if (!process.env.REDIS_URL && !which('redis-server')) {
    return unavailable(t, 'neither REDIS_URL nor redis-server for the embedded app');
  }
  const { options, problems } = parseArguments([
    '--stores', 'memory,redis', '--keys', 'key1', '-c', '2', '-n', '200', '--warmup', '50', '--warmup-max', '0',
    '--no-control', '--store-rtt', '10', '-q',
  ]);
  assert.deepEqual(problems, []);
  const result = await runBenchmark(options);
  const step = (store) => result.steps.find((each) => each.store === store);
  assert.ok(step('redis').storeTime.p50Ms >= 10, `redis store time p50 ${step('redis').storeTime.p50Ms} ms`);
  assert.ok(step('memory').storeTime.p50Ms < 0.1, `memory store time p50 ${step('memory').storeTime.p50Ms} ms`);
  for (const each of result.steps) {
    assert.equal(each.storeTime.count, each.responses, `${each.store}: every answer said it`);
    assert.ok(each.storeTime.p50Ms <= each.latency.p50Ms && each.storeTime.p99Ms <= each.latency.p99Ms, each.store);
  }
  const row = (store) => result.comparison[0].rows.find((each) => each.store === store);
  assert.equal(row('redis').storeTime.p50Ms, step('redis').storeTime.p50Ms, 'the comparison carries it');
});

test('node test --no-server-timing: the app it starts sends none, and no step has a store time', async () => {
  const { options, problems } = parseArguments([
    '--stores', 'memory', '--keys', 'key1', '-c', '2', '-n', '200', '--warmup', '0', '--no-control',
    '--no-server-timing', '-q',
  ]);
  assert.deepEqual(problems, []);
  const result = await runBenchmark(options);
  assert.equal(result.steps.length, 1);
  assert.equal(result.steps[0].responses, 200);
  assert.equal(result.steps[0].storeTime, null);
  assert.equal(result.comparison[0].rows[0].storeTime, null);
});
