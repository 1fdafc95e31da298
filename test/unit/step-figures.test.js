// A step's figures from its counts (driver/step-figures.js): the rps arithmetic of the closed
// loop and the open model, errors, intervals and the whole figures, from plain values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  closedWallNs, elapsedSecondsOf, errorFigures, errorSample, leastSquaresSlope, openWallNs, rateOf, stepFigures,
  summedErrors, wholeIntervals,
} from '../../driver/step-figures.js';

// The sums leastSquaresSlope takes, from [x, y] points.
const sumsOf = (points) => points.reduce((fit, [x, y]) => ({
  n: fit.n + 1, x: fit.x + x, y: fit.y + y, xx: fit.xx + x * x, xy: fit.xy + x * y,
}), { n: 0, x: 0, y: 0, xx: 0, xy: 0 });

test('the open model\'s slope: least squares of latency against intended start, 0 when it cannot be fitted', () => {
  const growing = Array.from({ length: 10 }, (_, i) => [i * 0.1, 0.005 + 0.5 * i * 0.1]);
  assert.ok(Math.abs(leastSquaresSlope(sumsOf(growing)) - 0.5) < 1e-9);
  const flat = Array.from({ length: 10 }, (_, i) => [i * 0.1, 0.005]);
  assert.ok(Math.abs(leastSquaresSlope(sumsOf(flat))) < 1e-12);
  assert.equal(leastSquaresSlope(sumsOf([[0, 0.001], [1, 0.5]])), 0, 'two points are too few');
  assert.equal(leastSquaresSlope(sumsOf([[1, 0.001], [1, 0.5], [1, 0.2]])), 0, 'no spread in x');
});

test('closed loop: the wall time is the last start after the first plus the mean time of the last settles', () => {
  assert.equal(closedWallNs({ firstStartNs: 0, lastStartNs: 1e9, tailCount: 3, tailSumNs: 0.3e9 }), 1.1e9);
  assert.equal(closedWallNs({ firstStartNs: 2e9, lastStartNs: 3e9, tailCount: 0, tailSumNs: 0 }), 1e9);
  assert.equal(closedWallNs({ firstStartNs: null, lastStartNs: null, tailCount: 0, tailSumNs: 0 }), 0);
});

test('open model: the wall time is the schedule\'s, stretched by a growing latency, never shrunk', () => {
  assert.equal(openWallNs({ requests: 100, intervalNs: 1e7, slope: 0 }), 1e9);
  assert.equal(openWallNs({ requests: 100, intervalNs: 1e7, slope: 0.5 }), 1.5e9);
  assert.equal(openWallNs({ requests: 100, intervalNs: 1e7, slope: -0.3 }), 1e9);
});

test('elapsed time and rates are 0 rather than NaN or Infinity before anything happened', () => {
  assert.equal(elapsedSecondsOf(1e9, 3.5e9), 2.5);
  assert.equal(elapsedSecondsOf(null, 3e9), 0);
  assert.equal(elapsedSecondsOf(1e9, null), 0);
  assert.equal(rateOf(10, 2), 5);
  assert.equal(rateOf(10, 0), 0);
});

test('errors keep their counts by kind, their total and the samples of their own kinds only', () => {
  const byKind = { 'http 503': 2, timeout: 1 };
  assert.deepEqual(errorFigures(byKind, { timeout: 'no response within 5 ms', 'conn ECONNRESET': 'reset' }), {
    total: 3, byKind, samples: { timeout: 'no response within 5 ms' },
  });
  assert.deepEqual(errorFigures({}, {}), { total: 0, byKind: {}, samples: {} });
  const sum = summedErrors([{ a: 1, b: 2 }, { b: 3, c: 1 }, {}]);
  assert.deepEqual(sum, { a: 1, b: 5, c: 1 });
  assert.deepEqual(Object.keys(sum), ['a', 'b', 'c'], 'kinds in the order first seen');
});

test('the intervals are the whole quarter seconds between the first and the last start, empty ones counted 0', () => {
  // eslint-disable-next-line no-sparse-arrays
  const counts = [5, , 7, 2];
  assert.deepEqual(wholeIntervals(counts, 1e9, 1e9 + 0.9e9), { seconds: 0.25, responses: [5, 0, 7] });
  assert.deepEqual(wholeIntervals(counts, 0, 0.2e9), { seconds: 0.25, responses: [] });
  assert.deepEqual(wholeIntervals([], null, null), { seconds: 0.25, responses: [] });
});

test('an error answer\'s sample is one printable line: a JSON error as code: message, a long one cut', () => {
  assert.equal(errorSample('{"error":"too big","code":"VALUE_TOO_LARGE"}'), 'VALUE_TOO_LARGE: too big');
  assert.equal(errorSample('{"error":"no code"}'), 'no code');
  assert.equal(errorSample('  plain text  '), 'plain text');
  const long = errorSample('x'.repeat(400));
  assert.equal(long.length, 300);
  assert.ok(long.endsWith('…'));
});

// What a meter hands stepFigures for one operation: counts, its recorder's figures, its seconds.
const operation = (name, { requests, responses, errors = {} }) => ({
  operation: name,
  requests,
  responses,
  errors,
  latency: { count: responses },
  histogram: { data: name },
  sums: { count: responses },
  timeline: [],
});

const counted = {
  rps: null,
  intervalNs: 0,
  requests: 40,
  responses: 36,
  peakInFlight: 4,
  firstStartNs: 0,
  lastStartNs: 1.9e9,
  lastEndNs: 2.2e9,
  tailCount: 4,
  tailSumNs: 0.4e9,
  slope: 0,
  samples: { timeout: 'no response within 5 ms', 'http 503': 'busy' },
  intervals: [4, 4, 4, 4, 4, 4, 4, 4],
  total: { latency: { count: 36 }, histogram: { data: 'all' }, sums: { count: 36 } },
};

test('one operation: the step\'s figures are that operation\'s, rps over the clients\' mean busy time', () => {
  const read = operation('read', { requests: 40, responses: 36, errors: { timeout: 4 } });
  const figures = stepFigures({ ...counted, operations: [read] });
  assert.equal(figures.wallSeconds, 2);
  assert.equal(figures.elapsedSeconds, 2.2);
  assert.equal(figures.rps, 18);
  assert.deepEqual(figures.errors, {
    total: 4, byKind: { timeout: 4 }, samples: { timeout: 'no response within 5 ms' },
  });
  assert.deepEqual(figures.intervals, { seconds: 0.25, responses: [4, 4, 4, 4, 4, 4, 4] });
  assert.deepEqual(figures.histogram, { data: 'all' });
  assert.deepEqual(figures.timeline, []);
  assert.equal(figures.operations.length, 1);
  assert.equal(figures.operations[0].rps, 18);
  assert.equal(figures.operations[0].timeline, undefined, 'one operation has no timeline of its own');
  assert.notEqual(figures.errors.byKind, figures.operations[0].errors.byKind, 'no count shared with the operation');
  assert.deepEqual(Object.keys(figures), [
    'wallSeconds', 'elapsedSeconds', 'requests', 'responses', 'peakInFlight', 'rps', 'latency', 'errors', 'histogram',
    'sums', 'storeTime', 'operations', 'intervals', 'timeline',
  ]);
});

test('several operations: each has its own rate over the step\'s time and its own seconds; the errors add up', () => {
  const figures = stepFigures({
    ...counted,
    rps: 20,
    intervalNs: 5e7,
    slope: 0.25,
    operations: [
      operation('read', { requests: 30, responses: 28, errors: { timeout: 2 } }),
      operation('update', { requests: 10, responses: 8, errors: { 'http 503': 1, timeout: 1 } }),
    ],
  });
  assert.equal(figures.wallSeconds, 2.5, '40 requests at 20 rps, stretched by a slope of 0.25');
  assert.deepEqual(figures.operations.map((part) => part.rps), [28 / 2.5, 8 / 2.5]);
  assert.deepEqual(figures.errors, {
    total: 4,
    byKind: { timeout: 3, 'http 503': 1 },
    samples: { timeout: 'no response within 5 ms', 'http 503': 'busy' },
  });
  assert.deepEqual(figures.operations[1].errors.samples, { 'http 503': 'busy', timeout: 'no response within 5 ms' });
  assert.deepEqual(figures.operations.map((part) => part.timeline), [[], []]);
  assert.deepEqual(figures.timeline, []);
});

test('a step with no request at all has zero times and rates', () => {
  const figures = stepFigures({
    ...counted,
    requests: 0,
    responses: 0,
    firstStartNs: null,
    lastStartNs: null,
    lastEndNs: null,
    tailCount: 0,
    tailSumNs: 0,
    intervals: [],
    operations: [operation('read', { requests: 0, responses: 0 })],
  });
  assert.deepEqual([figures.wallSeconds, figures.elapsedSeconds, figures.rps], [0, 0, 0]);
  assert.deepEqual(figures.intervals.responses, []);
});
