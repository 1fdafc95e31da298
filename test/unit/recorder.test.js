import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLatencyRecorder, decodeHistogram } from '../../result/recorder.js';

test('mean, min and max are exact to the nanosecond; percentiles within HDR\'s 0.1%', () => {
  const recorder = createLatencyRecorder();
  // 1..1000 µs plus 123 ns each
  for (let i = 1; i <= 1000; i += 1) recorder.record(BigInt(i * 1000 + 123));
  const summary = recorder.summary();
  assert.equal(summary.count, 1000);
  assert.equal(summary.meanMs, 0.500623);
  assert.equal(summary.minMs, 0.001123);
  assert.equal(summary.maxMs, 1.000123);
  for (const [field, expected] of [['p50Ms', 0.5], ['p90Ms', 0.9], ['p99Ms', 0.99], ['p999Ms', 0.999]]) {
    assert.ok(Math.abs(summary[field] - expected) <= expected * 0.001, `${field} ${summary[field]} vs ${expected}`);
  }
  recorder.destroy();
});

test('sub-millisecond latencies stay distinct: 0.21 ms is not 0.35 ms', () => {
  const recorder = createLatencyRecorder();
  for (let i = 0; i < 50; i += 1) recorder.record(210_000n);
  for (let i = 0; i < 50; i += 1) recorder.record(350_000n);
  const summary = recorder.summary();
  assert.equal(summary.p50Ms, 0.21);
  assert.equal(summary.p90Ms, 0.35);
  assert.equal(summary.meanMs, 0.28);
});

test('the encoded histogram decodes to the same distribution (values in µs)', () => {
  const recorder = createLatencyRecorder();
  for (let i = 0; i < 100; i += 1) recorder.record(BigInt(20_000_000 + i * 1000)); // 20.000..20.099 ms
  const decoded = decodeHistogram(recorder.encode());
  assert.equal(decoded.totalCount, 100);
  assert.ok(Math.abs(decoded.getValueAtPercentile(50) - 20_049) <= 20);
});

test('percentiles never pass the exact max nor fall below the exact min', () => {
  // Pins the review's bug: HDR's bucket top made p999 11.919 ms over a max of 11.914 ms.
  const slow = createLatencyRecorder();
  for (let i = 0; i < 1000; i += 1) slow.record(11_914_000n);
  assert.deepEqual(slow.summary(), {
    count: 1000,
    meanMs: 11.914,
    minMs: 11.914,
    maxMs: 11.914,
    p50Ms: 11.914,
    p90Ms: 11.914,
    p99Ms: 11.914,
    p999Ms: 11.914,
  });
  slow.destroy();
  // Under 1 µs the histogram holds 1 µs; the exact min is 0.4 µs, the max 0.9 µs.
  const fast = createLatencyRecorder();
  for (let i = 0; i < 99; i += 1) fast.record(400n);
  fast.record(900n);
  const { p50Ms, p999Ms } = fast.summary();
  assert.deepEqual({ p50Ms, p999Ms }, { p50Ms: 0.0009, p999Ms: 0.0009 });
  fast.destroy();
  // Spread values: every percentile within [min, max], in order.
  const spread = createLatencyRecorder();
  for (const ns of [1_000_123n, 2_345_678n, 7_999_999n, 11_914_321n]) spread.record(ns);
  const figures = spread.summary();
  const percentiles = [figures.p50Ms, figures.p90Ms, figures.p99Ms, figures.p999Ms];
  for (const value of percentiles) {
    assert.ok(value >= figures.minMs && value <= figures.maxMs, `${value} within [${figures.minMs}, ${figures.maxMs}]`);
  }
  assert.deepEqual([...percentiles].sort((a, b) => a - b), percentiles);
  assert.equal(figures.p999Ms, 11.914321);
  spread.destroy();
});

test('an empty recorder reports nulls, not zeros', () => {
  const summary = createLatencyRecorder().summary();
  assert.deepEqual(
    summary,
    { count: 0, meanMs: null, minMs: null, maxMs: null, p50Ms: null, p90Ms: null, p99Ms: null, p999Ms: null },
  );
});
