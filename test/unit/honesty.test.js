import { test } from 'node:test';
import assert from 'node:assert/strict';
import { honestyWarnings } from '../../result/honesty.js';
import { fixedStep } from '../helpers/driver-fixtures.js';
import { WARNING_CODES } from '../../result/warnings.js';
import { WARNING_DATA } from '../../result/fields.js';

// A sound closed-loop step: 2000 samples over 2 s, concurrency 5 at 2500 rps -> 2 ms mean.
const sound = () => ({
  ...fixedStep({ concurrency: 5, rps: 2500, meanMs: 2.0 }),
  wallSeconds: 2,
  responses: 2000,
  cpuPercent: 40,
});

// The messages alone, for the checks of their wording.
const messages = (step) => honestyWarnings(step).map((warning) => warning.message);

test('a sound step carries no warning', () => {
  assert.deepEqual(honestyWarnings(sound()), []);
});

test('every warning has a registered code, a message and its figures', () => {
  const bad = {
    ...sound(),
    responses: 100,
    wallSeconds: 0.04,
    cpuPercent: 97.4,
    errors: { total: 12, byKind: { 'http 503': 12 } },
  };
  bad.latency = { ...bad.latency, meanMs: 9 };
  const warnings = honestyWarnings(bad);
  assert.deepEqual(
    warnings.map((warning) => warning.code),
    ['WEAK_SAMPLE', 'LITTLES_LAW', 'DRIVER_CPU', 'REQUEST_ERRORS'],
  );
  for (const warning of warnings) {
    assert.ok(WARNING_CODES[warning.code], `${warning.code} is registered in result/warnings.js`);
    assert.equal(typeof warning.message, 'string');
    assert.equal(typeof warning.data, 'object');
  }
  const open = honestyWarnings({ ...sound(), model: 'open', targetRps: 5000 });
  for (const warning of [...warnings, ...open]) {
    assert.deepEqual(
      Object.keys(warning.data),
      Object.keys(WARNING_DATA[warning.code]),
      `${warning.code}'s data as docs/results-format.md describes it`,
    );
  }
  assert.deepEqual(warnings[0].data, { responses: 100, wallSeconds: 0.04, minSamples: 1000, minSeconds: 1 });
  assert.deepEqual(warnings[2].data, { cpuPercent: 97.4, threshold: 90 });
  assert.deepEqual(warnings[3].data, { failed: 12, total: 100 });
});

test('fewer than 1000 samples or under 1 s is flagged as statistically weak', () => {
  const few = { ...sound(), responses: 100, rps: 2500, wallSeconds: 0.04 };
  assert.match(messages(few)[0], /^statistically weak: 100 samples in 0\.04 s \(want at least 1000 samples and 1 s\); p99 rests on 1 request/);
  assert.equal(honestyWarnings(few)[0].code, 'WEAK_SAMPLE');
  const short = { ...sound(), wallSeconds: 0.8 };
  assert.match(messages(short)[0], /^statistically weak: 2000 samples in 0\.80 s/);
});

test('a closed-loop mean more than 10% off concurrency/rps is flagged (Little\'s law)', () => {
  const step = sound();
  step.latency = { ...step.latency, meanMs: 2.5 }; // 5 / 2500 rps = 2 ms expected
  assert.deepEqual(honestyWarnings(step), [{
    code: 'LITTLES_LAW',
    message: "mean latency 2.50 ms disagrees with concurrency/rps = 2.00 ms by 25% (Little's law)",
    data: { meanMs: 2.5, expectedMs: 2, apart: 0.25, tolerance: 0.1 },
  }]);
  step.latency = { ...step.latency, meanMs: 2.15 }; // 7.5%: fine
  assert.deepEqual(honestyWarnings(step), []);
});

test('Little\'s law counts min(concurrency, -n) clients: -c 30 -n 20 runs 20 clients', () => {
  // Pins the review's bug: -c 30 -n 20 raised LITTLES_LAW on a sound step (30 / rps expected).
  // 20 requests at once, each 2 ms: done in 2 ms, 10000 rps; 20 / 10000 rps = the 2 ms mean.
  const step = {
    ...sound(),
    concurrency: 30,
    maxRequests: 20,
    requests: 20,
    responses: 20,
    rps: 10000,
    wallSeconds: 0.002,
  };
  assert.deepEqual(honestyWarnings(step).map((warning) => warning.code), ['WEAK_SAMPLE']);
  step.maxRequests = null;
  assert.deepEqual(honestyWarnings(step).map((warning) => warning.code), ['WEAK_SAMPLE', 'LITTLES_LAW']);
});

test('Little\'s law is not applied to the open model, where concurrency is not fixed', () => {
  const step = { ...sound(), model: 'open', targetRps: 2500 };
  step.latency = { ...step.latency, meanMs: 9 };
  assert.deepEqual(honestyWarnings(step), []);
});

test('an open-model step that falls short of its rate says so', () => {
  const step = { ...sound(), model: 'open', targetRps: 5000 };
  assert.deepEqual(honestyWarnings(step), [{
    code: 'OPEN_MODEL_SHORT',
    message: 'achieved 2500 rps of the 5000 asked: the target (or the driver) cannot keep up',
    data: { rps: 2500, targetRps: 5000, minRatio: 0.95 },
  }]);
});

test('a driver using 90% or more of a core may be the bottleneck', () => {
  assert.deepEqual(messages({ ...sound(), cpuPercent: 97.4 }), [
    'the driver used 97% of a CPU core: the client may be the bottleneck, not the server',
  ]);
  assert.equal(honestyWarnings({ ...sound(), cpuPercent: 97.4 })[0].code, 'DRIVER_CPU');
});

test('DRIVER_CPU on the loadtest engine suggests the fast engine; on the fast engine it does not', () => {
  const [onLoadtest] = honestyWarnings({ ...sound(), cpuPercent: 97.4 }, { engine: 'loadtest' });
  assert.equal(
    onLoadtest.message,
    'the driver used 97% of a CPU core: the client may be the bottleneck, not the server; ' +
    '--engine fast sends the same load for a fraction of the CPU per request (docs/measurement.md)',
  );
  assert.deepEqual(onLoadtest.data, { cpuPercent: 97.4, threshold: 90 });
  const [onFast] = honestyWarnings({ ...sound(), cpuPercent: 97.4 }, { engine: 'fast' });
  assert.equal(onFast.message, 'the driver used 97% of a CPU core: the client may be the bottleneck, not the server');
});

test('errors are called out next to the numbers they are part of', () => {
  const step = { ...sound(), errors: { total: 12, byKind: { 'http 503': 10, timeout: 2 } } };
  assert.deepEqual(messages(step), [
    '12 of 2002 requests failed (http 503: 10, timeout: 2); ' +
    'rps and latency include the error responses (not timeouts or connection errors)',
  ]);
  assert.equal(honestyWarnings(step)[0].code, 'REQUEST_ERRORS');
});

test('write conflicts (409) are named as such among the errors, not left to read as an outage', () => {
  // Regression: a CouchDB write conflict was a 503 outage; now a 409, the warning must say what it is.
  const step = { ...sound(), errors: { total: 3, byKind: { 'http 409': 3 } } };
  assert.deepEqual(messages(step), [
    '3 of 2000 requests failed (http 409: 3; 3 of them write conflicts, 409: another writer of the key got in ' +
    'between; the store was up); rps and latency include the error responses (not timeouts or connection errors)',
  ]);
});
