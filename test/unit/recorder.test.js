import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLatencyRecorder, decodeHistogram } from '../../driver/recorder.js';

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

test('an empty recorder reports nulls, not zeros', () => {
  const summary = createLatencyRecorder().summary();
  assert.deepEqual(summary, { count: 0, meanMs: null, minMs: null, maxMs: null, p50Ms: null, p90Ms: null, p99Ms: null, p999Ms: null });
});
