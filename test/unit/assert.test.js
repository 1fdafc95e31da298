// --assert: the threshold language, and its checks on a saved run with known answers
// (test/fixtures/runs/before.json: `memory` answers at once, `fast` holds each request 2 ms,
// `slow` 8 ms, swept by make-runs.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { parseThreshold, parseThresholds } from '../../config/thresholds.js';
import { parseArguments } from '../../cli/options.js';
import { renderThresholds, thresholdsError } from '../../report/assert.js';
import { checkThresholds } from '../../result/threshold-check.js';
import { fromJson } from '../../result/format.js';
import { renderRun } from '../../report/run-text.js';
import { exitCodeOf } from '../../util/errors.js';

const BEFORE = 'test/fixtures/runs/before.json';
const before = async () => fromJson(await readFile(new URL(`../../${BEFORE}`, import.meta.url), 'utf8'));

test('the threshold language: latency < or <= in ms or us, rps > or >=, errors = or <= as a count or a %', () => {
  const ok = (text) => parseThreshold(text).threshold;
  assert.deepEqual(
    ok('p99<5ms'),
    { text: 'p99<5ms', store: null, metric: 'p99', kind: 'latency', op: '<', limit: 5, unit: 'ms' },
  );
  assert.deepEqual(ok(' redis: p999 <= 250 us '), {
    text: 'redis: p999 <= 250 us',
    store: 'redis',
    metric: 'p999',
    kind: 'latency',
    op: '<=',
    limit: 0.25,
    unit: 'ms',
  });
  assert.deepEqual(ok('postgres+redis:mean<2.5ms').store, 'postgres+redis');
  assert.deepEqual([ok('max<=1ms').metric, ok('p50<1ms').metric, ok('p90<1ms').metric], ['max', 'p50', 'p90']);
  assert.deepEqual(
    ok('rps>=1000'),
    { text: 'rps>=1000', store: null, metric: 'rps', kind: 'rps', op: '>=', limit: 1000, unit: 'rps' },
  );
  assert.deepEqual(
    ok('errors=0'),
    { text: 'errors=0', store: null, metric: 'errors', kind: 'errors', op: '=', limit: 0, unit: 'count' },
  );
  assert.deepEqual(
    ok('errors<=0.5%'),
    { text: 'errors<=0.5%', store: null, metric: 'errors', kind: 'errors', op: '<=', limit: 0.5, unit: '%' },
  );
  assert.equal(ok('errors==0').op, '=');
});

test('a bad expression is one clear line', () => {
  const { problems } = parseThresholds([
    'p95<5ms', 'p99>5ms', 'p99<5', 'p99<5s', 'rps<100', 'rps>5ms', 'errors>0', 'errors=0.5', 'errors<=150%', 'fast',
  ]);
  assert.deepEqual(problems, [
    '--assert "p95<5ms": unknown figure "p95" (use p50, p90, p99, p999, mean, max, rps or errors)',
    '--assert "p99>5ms": p99 takes < or <=, not > (a latency must stay below its threshold)',
    '--assert "p99<5": p99 needs a unit: ms or us (p99<5ms)',
    '--assert "p99<5s": p99 is in ms or us, not "s"',
    '--assert "rps<100": rps takes > or >=, not < (throughput must stay above it)',
    '--assert "rps>5ms": rps takes a plain number (rps>=1000), not "ms"',
    '--assert "errors>0": errors takes = or <=, not > (errors must stay at or below it)',
    '--assert "errors=0.5": errors as a count is a whole number (or give a share: errors<=0.5%)',
    '--assert "errors<=150%": errors as a share of requests is at most 100%',
    '--assert "fast": not a threshold: write [store:]figure operator value, e.g. p99<5ms, ' +
    'rps>=1000, errors=0, redis:p99<=2ms',
  ]);
  assert.deepEqual(
    parseArguments(['--assert', 'p99<5ms', '--assert', 'rps>=10']).options.assert,
    ['p99<5ms', 'rps>=10'],
  );
  assert.deepEqual(
    parseArguments(['--assert', 'p99<5']).problems,
    ['--assert "p99<5": p99 needs a unit: ms or us (p99<5ms)'],
  );
});

test('thresholds are checked per store against every step of it, with known answers', async () => {
  const result = await before();
  const { thresholds } = parseThresholds([
    'p50<5ms', 'slow:p50<=20ms', 'rps>=1', 'errors=0', 'errors<=0%', 'nosuch:p99<1ms', 'slow:p99<1ms',
  ]);
  const rows = checkThresholds(result, thresholds);
  const verdicts = rows.map(
    (row) => `${row.threshold.text} ${row.store} ${row.checked} ${row.failed} ${row.pass ? 'pass' : 'FAIL'}`,
  );
  assert.deepEqual(verdicts, [
    'p50<5ms memory 2 0 pass',
    'p50<5ms fast 4 0 pass', // key1 and key2
    'p50<5ms slow 2 2 FAIL', // each request held 8 ms
    'slow:p50<=20ms slow 2 0 pass',
    'rps>=1 memory 2 0 pass',
    'rps>=1 fast 4 0 pass',
    'rps>=1 slow 2 0 pass',
    'errors=0 memory 2 0 pass',
    'errors=0 fast 4 0 pass',
    'errors=0 slow 2 0 pass',
    'errors<=0% memory 2 0 pass',
    'errors<=0% fast 4 0 pass',
    'errors<=0% slow 2 0 pass',
    'nosuch:p99<1ms nosuch 0 0 FAIL',
    'slow:p99<1ms slow 2 2 FAIL',
  ]);
  const slow = rows[2];
  assert.ok(
    slow.worst.value >= 8,
    'the worst step of slow: its p50 (the median of the repeats) is at least the 8 ms hold',
  );
  assert.equal(slow.worst.key, 'key1');

  const table = renderThresholds(rows);
  assert.match(table, /^## Thresholds \(--assert; per store, every step: with repeats, the medians\)\n-+\nthreshold {7}store {3}steps {2}failed {2}worst +result\n/);
  assert.match(table, /\np50<5ms +slow +2 +2 {2}\d+\.\d\d ms \(key1 c\d\) +FAIL\n/);
  assert.match(table, /\nnosuch:p99<1ms +nosuch +0 +0 {2}not measured +FAIL\n/);
  assert.match(table, /\n3 of 15 checks failed$/);
  const error = thresholdsError(rows);
  assert.equal(exitCodeOf(error), 3);
  assert.equal(error.code, 'ASSERTION_FAILED');
  assert.match(error.message, /^p50<5ms failed for slow: 2 of 2 steps, worst \d+\.\d\d ms at key1 c\d$/m);
  assert.match(error.message, /^nosuch:p99<1ms: no step measured nosuch$/m);
  assert.equal(thresholdsError(checkThresholds(result, parseThresholds(['rps>=1']).thresholds)), null);
});

test('a run\'s own thresholds are kept in its Result and printed again by node test report', async () => {
  const result = await before();
  const withAssert = { ...result, settings: { ...result.settings, assert: ['slow:p50<5ms'] } };
  assert.match(renderRun(withAssert), /\n## Thresholds .*\n(.*\n){3}slow:p50<5ms {2}slow .* FAIL\n1 of 1 checks failed\n\n## Summary/);
  assert.doesNotMatch(renderRun(result), /Thresholds/, 'none given, none printed');
});
