import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLatencyRecorder } from '../../result/recorder.js';
import { addSteps, latencySums, withoutSums } from '../../result/add-steps.js';
import { splitLoad } from '../../driver/workers.js';
import { splitEvenly } from '../../driver/split.js';
import { createRandom } from '../../util/random.js';

// A step as a worker sends it, from the latencies (ns) it recorded: every figure from its recorder.
function partOf(latenciesNs, {
  rps, concurrency = 4, errors = {}, startedAt = '2026-01-01T00:00:00.000Z', finishedAt = '2026-01-01T00:00:02.000Z',
}) {
  const recorder = createLatencyRecorder();
  for (const ns of latenciesNs) recorder.record(ns);
  const errorTotal = Object.values(errors).reduce((sum, n) => sum + n, 0);
  const figures = {
    latency: recorder.summary(),
    errors: { total: errorTotal, byKind: { ...errors } },
    histogram: recorder.encode(),
    sums: latencySums(recorder),
  };
  recorder.destroy();
  const responses = latenciesNs.length;
  return {
    url: 'http://127.0.0.1:1/x/key1',
    mode: 'http',
    model: 'closed',
    startedAt,
    finishedAt,
    maxRequests: null,
    durationSeconds: 2,
    concurrency,
    targetRps: null,
    peakInFlight: concurrency,
    requests: responses + errorTotal,
    responses,
    wallSeconds: responses / rps,
    rps,
    cpuPercent: 30,
    engineReported: null,
    ...figures,
    operations: [{ operation: 'read', requests: responses + errorTotal, responses, rps, ...figures }],
  };
}

// Latencies with a long tail, so the percentiles of a part differ from those of the whole.
function latencies(seed, count, scaleNs) {
  const random = createRandom(seed);
  return Array.from({ length: count }, () =>
    BigInt(Math.round(scaleNs * (1 + 20 * random.random() ** 8) + random.below(997))),
  );
}

test('three workers\' steps add up to one histogram holding every sample: ' +
  'same percentiles, exact mean, min and max', () => {
  const samples = [latencies(1, 5000, 1e6), latencies(2, 3000, 3e6), latencies(3, 700, 8e6)];
  const step = addSteps(
    samples.map((part, index) => partOf(part, { rps: 100 * (index + 1), errors: { 'http 503': index } })),
  );
  const all = createLatencyRecorder();
  for (const ns of samples.flat()) all.record(ns);
  const expected = all.summary();
  all.destroy();
  assert.deepEqual(step.latency, expected);
  // The mean of each part's mean would be far off: the parts differ in size and speed.
  const meanOfMeans =
    samples.map((part) => Number(part.reduce((a, b) => a + b, 0n)) / part.length / 1e6).reduce((a, b) => a + b) /
    samples.length;
  assert.ok(
    Math.abs(meanOfMeans - expected.meanMs) > 0.5,
    'the test data must tell a pooled mean from a mean of means',
  );
  assert.equal(step.responses, 8700);
  assert.equal(step.requests, 8703);
  assert.deepEqual(step.errors, { total: 3, byKind: { 'http 503': 3 }, samples: {} });
  assert.equal(step.operations[0].latency.p99Ms, expected.p99Ms);
  assert.equal(step.concurrency, 12);
});

test('rps of steps run side by side over the same time is their sum; operations add up to the step', () => {
  const step = withoutSums(
    addSteps([partOf(latencies(4, 400, 1e6), { rps: 200 }), partOf(latencies(5, 600, 1e6), { rps: 300 })]),
  );
  assert.equal(step.rps, 500);
  assert.equal(step.wallSeconds, 2);
  assert.equal(step.operations[0].rps, 500);
  assert.equal(step.sums, undefined);
  assert.equal(step.operations[0].sums, undefined);
});

test('closed-loop parts that end at different times: rps is responses over the clients\' mean busy time', () => {
  // Pins the review's bug: summing the parts' rps gave 1000 + 500 = 1500 rps here.
  // Two workers of 10 clients, 500 responses each, over 0.5 s and 1.0 s: 1000 / 0.75 s.
  const step = addSteps([
    partOf(latencies(10, 500, 1e6), { rps: 1000, concurrency: 10 }),
    partOf(latencies(11, 500, 1e6), { rps: 500, concurrency: 10 }),
  ]);
  assert.equal(step.wallSeconds, 0.75);
  assert.equal(step.rps, 1000 / 0.75);
  assert.equal(step.operations[0].rps, step.rps);
  // Unequal clients weigh by clients: 30 clients over 1 s and 10 over 3 s are 40 clients busy
  // 1.5 s on average.
  const uneven = addSteps([
    partOf(latencies(12, 600, 1e6), { rps: 600, concurrency: 30 }),
    partOf(latencies(13, 600, 1e6), { rps: 200, concurrency: 10 }),
  ]);
  assert.equal(uneven.wallSeconds, 1.5);
  assert.equal(uneven.rps, 800);
});

test('open-model parts weigh their wallSeconds by their rate: one schedule, stretched by the parts\' slopes', () => {
  // 200 requests at 100 rps each (a 2 s schedule), one keeping up (2 s) and one falling behind
  // by a slope of 0.5 (3 s): 400 requests over 2 s x (1 + 0.25) = 2.5 s, 160 rps (not 100 + 66.7).
  const open = (seed, rps) => ({
    ...partOf(latencies(seed, 200, 1e6), { rps }),
    model: 'open',
    concurrency: null,
    targetRps: 100,
  });
  const step = addSteps([open(14, 100), open(15, 200 / 3)]);
  assert.equal(step.wallSeconds, 2.5);
  assert.equal(step.rps, 160);
  assert.equal(step.targetRps, 200);
});

test('with -n below -c only -n clients ran: they are the weights', () => {
  // Pins the weighting of a part whose extra clients never sent a request (-c 30 -n 1 per part).
  const part = (seed, rps, maxRequests) => ({
    ...partOf(latencies(seed, 100, 1e6), { rps, concurrency: 30 }),
    maxRequests,
  });
  const step = addSteps([part(16, 100, 10), part(17, 50, 30)]);
  // 10 clients busy 1 s and 30 busy 2 s: 1.75 s on average.
  assert.equal(step.wallSeconds, 1.75);
});

test('the time window of added steps runs from the first start to the last finish', () => {
  const step = addSteps([
    partOf(
      latencies(6, 10, 1e6),
      { rps: 5, startedAt: '2026-01-01T00:00:00.200Z', finishedAt: '2026-01-01T00:00:02.000Z' },
    ),
    partOf(
      latencies(7, 10, 1e6),
      { rps: 5, startedAt: '2026-01-01T00:00:00.100Z', finishedAt: '2026-01-01T00:00:02.300Z' },
    ),
  ]);
  assert.equal(step.startedAt, '2026-01-01T00:00:00.100Z');
  assert.equal(step.finishedAt, '2026-01-01T00:00:02.300Z');
});

test('a step without exact sums (read from a results file) ' +
  'adds with its mean to within a nanosecond per request', () => {
  const parts = [partOf(latencies(8, 999, 1e6), { rps: 10 }), partOf(latencies(9, 1001, 2e6), { rps: 10 })];
  const exact = addSteps(parts);
  const fromFiles = addSteps(parts.map(({ sums, ...part }) => part));
  assert.ok(Math.abs(exact.latency.meanMs - fromFiles.latency.meanMs) < 1e-6);
  assert.equal(fromFiles.latency.p999Ms, exact.latency.p999Ms);
});

test('the load is split as evenly as possible, over fewer workers when there is not enough to share', () => {
  assert.deepEqual(splitEvenly(10, 3), [4, 3, 3]);
  // -n in proportion to each worker's clients, so they end together (regression: an even split
  // left the worker of 1 client running alone for the second half of -n 1001 -c 3 --workers 2).
  assert.deepEqual(
    splitLoad({ concurrency: 10, maxRequests: 1001 }, 3),
    [{ concurrency: 4, maxRequests: 401 }, { concurrency: 3, maxRequests: 300 }, { concurrency: 3, maxRequests: 300 }],
  );
  assert.deepEqual(
    splitLoad({ concurrency: 3, maxRequests: 1001 }, 2),
    [{ concurrency: 2, maxRequests: 667 }, { concurrency: 1, maxRequests: 334 }],
  );
  assert.deepEqual(splitLoad({ concurrency: 2 }, 4), [{ concurrency: 1 }, { concurrency: 1 }]);
  assert.deepEqual(
    splitLoad({ concurrency: 8, maxRequests: 3 }, 4),
    [{ concurrency: 3, maxRequests: 1 }, { concurrency: 3, maxRequests: 1 }, { concurrency: 2, maxRequests: 1 }],
  );
  assert.deepEqual(splitLoad({ rps: 300, maxRequests: null }, 3), [{ rps: 100 }, { rps: 100 }, { rps: 100 }]);
});
