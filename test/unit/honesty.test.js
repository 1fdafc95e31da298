import { test } from 'node:test';
import assert from 'node:assert/strict';
import { honestyWarnings } from '../../driver/honesty.js';
import { fixedStep } from '../helpers/driver-fixtures.js';

// A sound closed-loop step: 2000 samples over 2 s, concurrency 5 at 2500 rps -> 2 ms mean.
const sound = () => ({ ...fixedStep({ concurrency: 5, rps: 2500, meanMs: 2.0 }), wallSeconds: 2, responses: 2000, cpuPercent: 40 });

test('a sound step carries no warning', () => {
  assert.deepEqual(honestyWarnings(sound()), []);
});

test('fewer than 1000 samples or under 1 s is flagged as statistically weak', () => {
  const few = { ...sound(), responses: 100, rps: 2500, wallSeconds: 0.04 };
  assert.match(honestyWarnings(few)[0], /^statistically weak: 100 samples in 0\.04 s \(want at least 1000 samples and 1 s\); p99 rests on 1 request/);
  const short = { ...sound(), wallSeconds: 0.8 };
  assert.match(honestyWarnings(short)[0], /^statistically weak: 2000 samples in 0\.80 s/);
});

test('a closed-loop mean more than 10% off concurrency/rps is flagged (Little\'s law)', () => {
  const step = sound();
  step.latency = { ...step.latency, meanMs: 2.5 }; // 5 / 2500 rps = 2 ms expected
  assert.deepEqual(honestyWarnings(step), ["mean latency 2.50 ms disagrees with concurrency/rps = 2.00 ms by 25% (Little's law)"]);
  step.latency = { ...step.latency, meanMs: 2.15 }; // 7.5%: fine
  assert.deepEqual(honestyWarnings(step), []);
});

test('Little\'s law is not applied to the open model, where concurrency is not fixed', () => {
  const step = { ...sound(), mode: 'open', targetRps: 2500 };
  step.latency = { ...step.latency, meanMs: 9 };
  assert.deepEqual(honestyWarnings(step), []);
});

test('an open-model step that falls short of its rate says so', () => {
  const step = { ...sound(), mode: 'open', targetRps: 5000 };
  assert.deepEqual(honestyWarnings(step), ['achieved 2500 rps of the 5000 asked: the target (or the driver) cannot keep up']);
});

test('a driver using 90% or more of a core may be the bottleneck', () => {
  assert.deepEqual(honestyWarnings({ ...sound(), cpuPercent: 97.4 }), [
    'the driver used 97% of a CPU core: the client may be the bottleneck, not the server',
  ]);
});

test('errors are called out next to the numbers they are part of', () => {
  const step = { ...sound(), errors: { total: 12, byKind: { 'http 503': 10, timeout: 2 } } };
  assert.deepEqual(honestyWarnings(step), ['12 of 2002 requests failed; rps and latency include the error responses (not timeouts or connection errors)']);
});
