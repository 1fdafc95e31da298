import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderComparison } from '../../report/comparison-table.js';
import {
  renderStepTable, renderSystem, renderSkipped, formatErrors, renderTable, displayUrl,
} from '../../report/table.js';
import { compareStores } from '../../result/comparison.js';
import { honestyWarnings } from '../../result/honesty.js';
import { fixedStep, fixedWarning, weakWarning } from '../helpers/driver-fixtures.js';

test('the per-URL table has the original header and aligns numbers under it', () => {
  const steps = [
    fixedStep({ concurrency: 5, rps: 4321.4, meanMs: 1.157 }),
    fixedStep({
      concurrency: 10,
      rps: 5012.6,
      meanMs: 1.995,
      errors: { total: 3, byKind: { 'http 503': 2, timeout: 1 } },
    }),
  ];
  assert.equal(
    renderStepTable(steps[0].url, steps),
    [
      '## http://127.0.0.1:40123/redis/key1',
      '-'.repeat(128), // as wide as the widest row
      'maxRequests  concurrency  rps     meanLatencyMs  maxLatencyMs  minLatencyMs  p50     p90     p99     errors',
      '-'.repeat(128), // as wide as the widest row
      '       2000            5    4321           1.16         12.50          0.21    1.02    1.90    4.35  0',
      '       2000           10    5013           2.00         12.50          0.21    1.02    1.90    4.35  3 ' +
      '(http 503: 2, timeout: 1)',
    ].join('\n'),
  );
});

test('the header line is exactly the original\'s, 107 characters', () => {
  const table = renderStepTable('http://h/redis/key1', [fixedStep()]);
  const header = table.split('\n')[2];
  assert.equal(
    header,
    'maxRequests  concurrency  rps     meanLatencyMs  maxLatencyMs  minLatencyMs  p50     p90     p99     errors',
  );
  assert.equal(header.length, 107);
});

const cpuWarning = () =>
  fixedWarning('DRIVER_CPU', 'the driver used 97% of a CPU core', { cpuPercent: 97, threshold: 90 });

test('warnings are printed under the table with the step they belong to', () => {
  const table = renderStepTable('http://h/redis/key1', [fixedStep({ concurrency: 15, warnings: [cpuWarning()] })]);
  assert.match(table, /\nwarning \(concurrency 15\): the driver used 97% of a CPU core$/);
});

test('statistically weak steps are listed together on one line', () => {
  const table = renderStepTable('http://h/redis/key1', [
    fixedStep({ concurrency: 5, warnings: [weakWarning()] }),
    fixedStep({ concurrency: 10 }),
    fixedStep({ concurrency: 20, warnings: [weakWarning(), cpuWarning()] }),
  ]);
  const warnings = table.split('\n').filter((line) => line.startsWith('warning'));
  assert.deepEqual(warnings, [
    'warning: statistically weak, under 1000 samples or 1 s (use a larger -n or -t): concurrency 5 (2000 in 0.46 s), ' +
    'concurrency 20 (2000 in 0.46 s)',
    'warning (concurrency 20): the driver used 97% of a CPU core',
  ]);
});

test('a weak step is told by its code, not by the wording of its message', () => {
  const reworded = { ...weakWarning(), message: 'too few samples' };
  const lookalike = fixedWarning('DRIVER_CPU', 'statistically weak-looking text', {});
  const table = renderStepTable('http://h/redis/key1', [fixedStep({ concurrency: 5, warnings: [reworded] }), fixedStep({ concurrency: 10, warnings: [lookalike] })]);
  const warnings = table.split('\n').filter((line) => line.startsWith('warning'));
  assert.deepEqual(warnings, [
    'warning: statistically weak, under 1000 samples or 1 s (use a larger -n or -t): concurrency 5 (2000 in 0.46 s)',
    'warning (concurrency 10): statistically weak-looking text',
  ]);
});

test('open-model tables add a targetRps column and say what concurrency means there', () => {
  const table = renderStepTable('http://h/redis/key1', [fixedStep({ model: 'open', targetRps: 1000, concurrency: 3, maxRequests: null })]);
  const lines = table.split('\n');
  assert.equal(
    lines[2],
    'maxRequests  concurrency  rps     meanLatencyMs  maxLatencyMs  minLatencyMs  p50     p90     ' +
    'p99     targetRps  errors',
  );
  assert.equal(
    lines[4],
    '       2000            3    4321           1.16         12.50          0.21    1.02    1.90    4.35       1000  0',
  );
  assert.match(table, /open model: concurrency = most requests in flight/);
});

test('credentials in a URL never reach the table heading', () => {
  const table = renderStepTable('https://user:secret@host/redis/key1', [fixedStep()]);
  assert.ok(!table.includes('secret'));
  assert.match(table, /^## https:\/\/user:\*\*\*@host\/redis\/key1/);
});

test('errors show the total and each kind only when there are any', () => {
  assert.equal(formatErrors({ total: 0, byKind: {}, samples: {} }), '0');
  assert.equal(formatErrors({ total: 5, byKind: { 'conn ECONNRESET': 5 } }), '5 (conn ECONNRESET: 5)');
  assert.equal(
    formatErrors({ total: 4, byKind: { 'http 409': 3, 'http 503': 1 } }),
    '4 (http 409 conflict: 3, http 503: 1)',
    'a 409 is named a conflict',
  );
});

test('the errors column counts; a line under the table gives each kind\'s first answer, once for the table', () => {
  const down = 'UNAVAILABLE: the store is down';
  const steps = [
    fixedStep({
      concurrency: 5,
      errors: { total: 3, byKind: { 'http 503': 2, timeout: 1 }, samples: { 'http 503': down, timeout: 'no answer' } },
    }),
    fixedStep({ concurrency: 10, errors: { total: 1, byKind: { 'http 503': 1 }, samples: { 'http 503': 'other' } } }),
  ];
  const lines = renderStepTable(steps[0].url, steps).split('\n');
  assert.match(lines[4], / 3 \(http 503: 2, timeout: 1\)$/, 'the column stays counts');
  assert.equal(lines.at(-1),
    'errors, each kind with its first answer: http 503: 3 (UNAVAILABLE: the store is down), timeout: 1 (no answer)',
    'added up over the steps, each kind with the first answer of the first step that had it');
});

test('a failed step: its row says failed, and its answer is said once (its warning quotes it, no second line)', () => {
  const reason = 'VALUE_TOO_LARGE: the memcached server refused a value of 1048576 bytes: over its item size limit';
  const figures = fixedStep({
    store: 'memcached',
    errors: { total: 2000, byKind: { 'http 413': 2000 }, samples: { 'http 413': reason } },
  });
  const step = { ...figures, warnings: honestyWarnings(figures) };
  assert.equal(step.warnings.find((warning) => warning.code === 'STEP_FAILED').message,
    `no request succeeded: http 413: 2000 (${reason})`);
  const text = renderStepTable(step.url, [step]);
  assert.match(text, /\n +2000 +5 +failed +- +- +- +- +- +- +2000 \(http 413: 2000\)\n/);
  assert.equal(text.split(reason).length, 2, text);
  assert.match(text, /\nwarning \(concurrency 5\): no request succeeded: http 413: 2000 \(VALUE_TOO_LARGE: /);
});

test('the comparison lists stores fastest first with their rps as a fraction of the fastest', () => {
  const steps = [
    fixedStep({ store: 'memory', concurrency: 5, rps: 8000, meanMs: 0.61 }),
    fixedStep({ store: 'redis', concurrency: 5, rps: 4000, meanMs: 1.22 }),
    fixedStep({ store: 'memory', concurrency: 10, rps: 9000, meanMs: 1.1 }),
    fixedStep({ store: 'redis', concurrency: 10, rps: 6000, meanMs: 1.66 }),
    fixedStep({ store: 'redis', key: 'key2', concurrency: 5, rps: 1000, meanMs: 5 }),
  ];
  assert.equal(
    renderComparison(compareStores(steps)),
    [
      '## Comparison: key1 (rank: stores not told apart share one; ' +
      'rps/fastest = the store\'s rps divided by the fastest store\'s at that level)',
      '-------------------------------------------------------------------------',
      'concurrency  rank  store   rps   meanLatencyMs  p99   rps/fastest  errors',
      '-------------------------------------------------------------------------',
      '          5     1  memory  8000           0.61  4.35         1.00       0',
      '                2  redis   4000           1.22  4.35         0.50       0',
      '         10     1  memory  9000           1.10  4.35         1.00       0',
      '                2  redis   6000           1.66  4.35         0.67       0',
    ].join('\n'),
  );
});

test('the report header names Node, the CPU, the target, the date and the settings', () => {
  const text = renderSystem(
    { node: 'v20.0.0', platform: 'linux 6 x64', cpuModel: 'Test CPU', cpuCount: 2, loadtest: '8.2.1', target: 'http://t', date: '2026-01-01T00:00:00.000Z' },
    {
      concurrency: [5, 10],
      rps: null,
      requests: 2000,
      duration: null,
      warmup: 500,
      warmupMaxSeconds: 10,
      order: 'interleaved',
      control: true,
      orderSeed: 42,
      repeat: 1,
      keepAlive: true,
      timeoutMs: 10000,
    },
  );
  assert.equal(
    text,
    [
      'System:   Node v20.0.0 · linux 6 x64 · 2 x Test CPU · loadtest 8.2.1',
      'Target:   http://t',
      'Date:     2026-01-01T00:00:00.000Z',
      'Settings: concurrency 5, 10; 2000 requests per step; warm-up 500 requests per URL, ' +
      'then each step until steady (at most 10 s); keep-alive on; timeout 10000 ms',
      'Order:    interleaved: at each level every URL once, shuffled (seed 42); the first step again last (control)',
    ].join('\n'),
  );
});

// Skip lines said the store's name twice ("skipped redis: unavailable: redis: ...").
test('skipped stores are listed with their status and, in brackets, the reason', () => {
  assert.equal(
    renderSkipped([{ store: 'cloudant', status: 'down', reason: 'ECONNREFUSED' }]),
    'skipped cloudant: down (ECONNREFUSED)',
  );
  assert.equal(
    renderSkipped([
      { store: 'redis', status: 'unavailable', reason: 'no REDIS_URL and no redis-server on PATH' },
      { store: 'x', status: 'down', reason: null },
    ]),
    'skipped redis: unavailable (no REDIS_URL and no redis-server on PATH)\nskipped x: down',
  );
});

test('a column grows to fit a value wider than its header', () => {
  assert.equal(
    renderTable(['a', 'bb'], [['12345', '1']]),
    ['---------', 'a      bb', '---------', '12345   1'].join('\n'),
  );
});

// The comparison put a step whose figures carry a warning (a Little's law gap, a
// weak sample) beside sound ones with nothing to tell them apart.
test('the comparison marks a row whose step carries a warning with ! and says what it means', () => {
  const steps = [
    fixedStep({ store: 'memory', concurrency: 5, rps: 8000, meanMs: 0.61 }),
    fixedStep({
      store: 'cloudant',
      concurrency: 5,
      rps: 19,
      meanMs: 994,
      warnings: [fixedWarning('LITTLES_LAW', 'mean latency 994.00 ms disagrees', {})],
    }),
  ];
  const groups = compareStores(steps);
  assert.deepEqual(
    groups[0].rows.map((row) => [row.store, row.warnings]),
    [['memory', []], ['cloudant', ['LITTLES_LAW']]],
  );
  const lines = renderComparison(groups).split('\n');
  assert.match(lines[4], /^ {10}5 {5}1 {2}memory {6}8000 /);
  assert.match(lines[5], /^ {16}2 {2}cloudant ! {4}19 /);
  assert.equal(lines.at(-1), "! = that step's figures carry a warning: see the warning lines under its URL's table");
  assert.doesNotMatch(renderComparison(compareStores([steps[0], { ...steps[1], warnings: [] }])), /!/, 'no mark and no legend when no step has a warning');
});

// Headings showed the URL as requested, percent-encoded (/postgres%2Bredis/key1).
test('a table heading shows the URL decoded, its password still masked', () => {
  const table = renderStepTable('http://bench:s3cret@127.0.0.1:1234/postgres%2Bredis/key1', [fixedStep()]);
  assert.equal(table.split('\n')[0], '## http://bench:***@127.0.0.1:1234/postgres+redis/key1');
  assert.equal(displayUrl('http://h/caf%C3%A9/key1?q=%2B'), 'http://h/café/key1?q=%2B', 'only the path is decoded');
  assert.equal(displayUrl('http://h/a%0Ab/k'), 'http://h/a%0Ab/k', 'never into a line break');
  assert.equal(displayUrl('http://h/a%2Fb/k'), 'http://h/a%2Fb/k', 'nor into a path separator');
  assert.equal(displayUrl('http://h/100%/k'), 'http://h/100%/k', 'a segment that does not decode stays');
});
