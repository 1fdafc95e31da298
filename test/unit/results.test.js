import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCsv, buildJsonReport } from '../../report/results.js';
import { compareStores } from '../../report/comparison.js';
import { fixedStep, fixedWarning } from '../helpers/driver-fixtures.js';

test('CSV: a header and one row per step, commas in values quoted', () => {
  const steps = [fixedStep({ errors: { total: 3, byKind: { 'http 503': 2, timeout: 1 } }, warnings: [fixedWarning('DRIVER_CPU', 'a, b')] })];
  const [header, row, end] = buildCsv(steps).split('\n');
  assert.equal(header, 'url,store,key,mode,maxRequests,durationSeconds,concurrency,targetRps,requests,responses,wallSeconds,rps,meanLatencyMs,maxLatencyMs,minLatencyMs,p50,p90,p99,p999,errors,errorKinds,cpuPercent,warnings');
  assert.equal(row, 'http://127.0.0.1:40123/redis/key1,redis,key1,closed,2000,,5,,2000,2000,0.4628,4321.4,1.157,12.5,0.214,1.021,1.9,4.351,9.9,3,http 503=2;timeout=1,55.5,"a, b"');
  assert.equal(end, '');
});

test('JSON: settings, system, every step with percentiles and its histogram, the comparison', () => {
  const steps = [fixedStep({ store: 'memory' }), fixedStep({ store: 'redis', rps: 1000 })];
  const report = buildJsonReport({ system: { node: 'v20' }, settings: { requests: 2000 }, steps, comparison: compareStores(steps), skipped: [{ store: 'x', reason: 'down' }] });
  assert.equal(report.format, 'storebench-driver/1');
  assert.equal(report.interrupted, false);
  assert.deepEqual(report.skipped, [{ store: 'x', reason: 'down' }]);
  assert.equal(report.steps.length, 2);
  const [first] = report.steps;
  assert.deepEqual(
    { rps: first.rps, mean: first.meanLatencyMs, p50: first.p50, p90: first.p90, p99: first.p99, p999: first.p999 },
    { rps: 4321.4, mean: 1.157, p50: 1.021, p90: 1.9, p99: 4.351, p999: 9.9 },
  );
  assert.equal(first.histogram.unit, 'us');
  assert.equal(first.histogram.data, steps[0].histogram.data);
  assert.equal(report.comparison[0].rows[1].ratio, 1000 / 4321.4);
});

test('result files never carry a password from a URL', () => {
  const step = { ...fixedStep(), url: 'https://bench:s3cret@host/redis/key1' };
  assert.ok(!buildCsv([step]).includes('s3cret'));
  assert.ok(!JSON.stringify(buildJsonReport({ system: {}, settings: {}, steps: [step], comparison: [] })).includes('s3cret'));
});
