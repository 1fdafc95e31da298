// How a workload's results print: a row per operation under each step only when there are
// several (the seeded reads print exactly as before), the comparison per operation, the load
// table, the verification lines, and the Result's round trip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderLoadTable, renderStepTable, renderVerification } from '../../report/table.js';
import { renderComparison } from '../../report/comparison-table.js';
import { compareStores } from '../../result/comparison.js';
import { createResult } from '../../result/result.js';
import { fromJson, toJson } from '../../result/format.js';
import { renderRun } from '../../report/run-text.js';
import { loadWarnings, verificationWarnings } from '../../result/honesty.js';
import { fixedOperation, fixedResult, fixedStep } from '../helpers/driver-fixtures.js';

const HISTOGRAM = {
  unit: 'us',
  encoding: 'HdrHistogram compressed base64',
  data: 'HISTFAAAAB14nJNpmSzMwMDAxAABzFCaEUzOmQQRAAA0ZAJ5',
};

const mixedStep = (store, rps, concurrency = 5) => fixedStep({
  store,
  key: 'ycsb-a',
  workload: 'ycsb-a',
  concurrency,
  rps,
  operations: [
    fixedOperation({ operation: 'read', requests: 1000, rps: rps / 2, meanMs: 1.1 }),
    fixedOperation({
      operation: 'update',
      requests: 1000,
      rps: rps / 2,
      meanMs: 1.2,
      errors: { total: 2, byKind: { 'http 503': 2 } },
    }),
  ],
});

test('the seeded reads print exactly as before: no operation column, no extra rows', () => {
  const text = renderStepTable('http://127.0.0.1:40123/redis/key1', [fixedStep()]);
  assert.equal(
    text.split('\n')[2],
    'maxRequests  concurrency  rps     meanLatencyMs  maxLatencyMs  minLatencyMs  p50     p90     p99     errors',
  );
  assert.equal(text.split('\n').length, 5);
  assert.equal(text.split('\n')[0], '## http://127.0.0.1:40123/redis/key1');
});

test('a workload of several operations: an operation column, the step\'s row (all), then a row per operation', () => {
  const lines = renderStepTable('http://127.0.0.1:40123/redis', [mixedStep('redis', 4000)]).split('\n');
  assert.deepEqual(lines, [
    '## http://127.0.0.1:40123/redis · ycsb-a',
    '-'.repeat(127),
    'maxRequests  concurrency  operation  rps     meanLatencyMs  maxLatencyMs  minLatencyMs  ' +
    'p50     p90     p99     errors',
    '-'.repeat(127),
    '       2000            5  all          4000           1.16         12.50          0.21    1.02    1.90    4.35  0',
    '                          read         2000           1.10         12.50          0.21    1.02    1.90    4.35  0',
    '                          update       2000           1.20         12.50          0.21    1.02    ' +
    '1.90    4.35  2 (http 503: 2)',
  ]);
});

test('the comparison compares like with like: the totals, then each operation apart', () => {
  const groups = compareStores([mixedStep('redis', 4000), mixedStep('postgres', 1000)]);
  assert.deepEqual(groups.map((group) => [group.key, group.operation, group.rows.map((row) => row.store).join(',')]), [
    ['ycsb-a', null, 'redis,postgres'],
    ['ycsb-a', 'read', 'redis,postgres'],
    ['ycsb-a', 'update', 'redis,postgres'],
  ]);
  assert.deepEqual(groups[2].rows[1].errors, { total: 2, byKind: { 'http 503': 2 }, samples: {} });
  const text = renderComparison(groups);
  assert.match(text, /^## Comparison: ycsb-a \(rank: .*rps\/fastest/m);
  assert.match(text, /^## Comparison: ycsb-a · read \(rank: .*rps\/fastest/m);
  assert.match(text, /^## Comparison: ycsb-a · update \(rank: .*rps\/fastest/m);
  assert.deepEqual(
    compareStores(fixedResult().steps).map((group) => group.operation),
    [null, null],
    'one operation: the totals only, as before',
  );
});

const load = (overrides = {}) => ({
  url: 'http://127.0.0.1:40123/redis',
  store: 'redis',
  records: 100_000,
  loaded: 100_000,
  bytes: 12_000_000,
  batches: 10,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.500Z',
  seconds: 1.5,
  rps: 66_666.7,
  latency: {
    count: 10,
    meanMs: 140.2,
    minMs: 120.1,
    maxMs: 180.9,
    p50Ms: 139,
    p90Ms: 170,
    p99Ms: 180.9,
    p999Ms: 180.9,
  },
  errors: { total: 0, byKind: {} },
  warnings: [],
  histogram: { ...HISTOGRAM },
  ...overrides,
});

test('the load table: records, bytes, rate, batch latency, duration; a warning when records did not load', () => {
  assert.deepEqual(renderLoadTable(load()).split('\n'), [
    '## load: http://127.0.0.1:40123/redis (POST: 10 batches of records; rps = records loaded per second)',
    '-'.repeat(110),
    'records  loaded  MB     batches  seconds  rps    MB/s  meanBatchMs  p50     p90     p99     maxBatchMs  errors',
    '-'.repeat(110),
    ' 100000  100000  11.44       10     1.50  66667  7.63       140.20  139.00  170.00  180.90      180.90  0',
  ]);
  const failed = load({ loaded: 90_000, errors: { total: 1, byKind: { 'http 503': 1 } } });
  failed.warnings = loadWarnings(failed);
  assert.equal(failed.warnings[0].code, 'LOAD_ERRORS');
  assert.match(renderLoadTable(failed), /\nwarning \(load\): 10000 of 100000 records were not loaded \(failed batches: http 503: 1\): reads of them may answer 404, and the verification leaves them out$/);
});

test('a load\'s failed batches carry their first answer, said once under its table', () => {
  const reason = 'VALUE_TOO_LARGE: the memcached server refused a value of 1048576 bytes: over its item size limit';
  const refused = load({
    loaded: 0, errors: { total: 1, byKind: { 'http 413': 1 }, samples: { 'http 413': reason } },
  });
  refused.warnings = loadWarnings(refused);
  const text = renderLoadTable(refused);
  assert.match(text, /\nwarning \(load\): 100000 of 100000 records were not loaded \(failed batches: http 413: 1 \(VALUE_TOO_LARGE: the memcached server refused a value of 1048576 bytes: over its item size limit\)\)/);
  assert.equal(text.split(reason).length, 2, 'the reason once: the warning says it, no line repeats it');
  // A load without its warning (as a caller may render it) still says why, in its own line.
  const bare = renderLoadTable({ ...refused, warnings: [] });
  assert.match(bare, /\nerrors, each kind with its first answer: http 413: 1 \(VALUE_TOO_LARGE: the memcached server /);
  // A file written before the samples were kept: the counts alone, no line.
  const old = renderLoadTable(load({ loaded: 0, errors: { total: 1, byKind: { 'http 413': 1 } } }));
  assert.doesNotMatch(old, /first answer/);
});

test('the verification: "verified N/N written values", the mismatches, and why some keys were not checked', () => {
  const clean = {
    sampled: 1000,
    verified: 1000,
    mismatched: 0,
    examples: [],
    leftOut: { overlap: 0, failed: 0, unknownBase: 0 },
    promise: null,
  };
  assert.deepEqual(verificationWarnings(clean), []);
  assert.equal(renderVerification({ ...clean, warnings: [] }), 'verified 1000/1000 written values');
  const lossy = {
    sampled: 1000,
    verified: 998,
    mismatched: 2,
    examples: [
      { key: 'user0000000042', expected: 'version 3, 100 B', got: 'missing (404)' },
      { key: 'user0000000077', expected: 'version 1, 100 B', got: 'its loaded value: the write was lost' },
    ],
    leftOut: { overlap: 3, failed: 1, unknownBase: 0 },
    promise: null,
  };
  lossy.warnings = verificationWarnings(lossy);
  assert.deepEqual(lossy.warnings.map((warning) => warning.code), ['VERIFY_MISMATCH', 'UNVERIFIED']);
  assert.deepEqual(renderVerification(lossy).split('\n'), [
    'verified 998/1000 written values',
    '  user0000000042: expected version 3, 100 B; got missing (404)',
    '  user0000000077: expected version 1, 100 B; got its loaded value: the write was lost',
    'warning (verification): 2 of 1000 written values read back different: ' +
    'the store lost or changed values it acknowledged',
    'warning (verification): 4 written keys were not checked: 3 had writes in flight at once, ' +
    'which may land in any order; 1 had a write that failed without saying whether it landed (a timeout, a 5xx)',
  ]);
  const evicting = { ...lossy, promise: 'memcached is a cache: it may evict a value it acknowledged' };
  assert.equal(verificationWarnings(evicting)[0].code, 'WEAKER_PROMISE');
});

test('a key-space Result survives the round trip through its file, and prints the same', () => {
  const base = fixedResult();
  const result = createResult({
    interrupted: false,
    appExit: null,
    settings: {
      ...base.settings,
      workload: 'ycsb-a',
      mix: { read: 0.5, update: 0.5 },
      records: 100_000,
      valueSizeMin: 100,
      valueSizeMax: 1000,
      distribution: 'zipfian',
      seed: 42,
      load: true,
      verify: true,
    },
    system: base.system,
    targets: [{ url: 'http://127.0.0.1:40123/redis', store: 'redis', key: 'ycsb-a', named: true }],
    skipped: [],
    steps: [mixedStep('redis', 4000)],
    loads: [load()],
    verifications: [{ url: 'http://127.0.0.1:40123/redis', store: 'redis', sampled: 1000, verified: 1000, mismatched: 0, examples: [], leftOut: { overlap: 0, failed: 0, unknownBase: 0 }, promise: null, warnings: [] }],
  });
  const back = fromJson(toJson(result));
  assert.deepEqual(back, result);
  const text = renderRun(back);
  assert.equal(text, renderRun(result));
  assert.match(text, /^Workload: ycsb-a \(read 50%, update 50%\) over 100,000 records, zipfian; values 100 B to 1000 B; seed 42; loaded first; written values verified after$/m);
  assert.ok(text.indexOf('## load:') < text.indexOf('## http://127.0.0.1:40123/redis · ycsb-a'), 'the load table comes before the steps');
  assert.ok(
    text.indexOf('verified 1000/1000 written values') > text.indexOf('update       2000'),
    'the verification after them',
  );
});
