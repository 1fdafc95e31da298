// The scenario files and the pieces that turn a run into a scenario's text: every file is
// complete and its runs are flags node test accepts; tables are built from steps exactly
// (percentiles from the step's histogram); a Result with a scenario survives its JSON.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { CHECK_TYPES } from '../../result/scenarios/verdicts.js';
import { SCALES, listScenarios } from '../../studies/index.js';
import { buildTable, publishedTable } from '../../studies/tables.js';
import { commandLine } from '../../studies/results.js';
import { KINDS } from '../../studies/kinds/index.js';
import { normalizeOptions } from '../../options/normalize.js';
import { createLatencyRecorder } from '../../result/recorder.js';
import { fromJson, toJson } from '../../result/format.js';
import { renderScenario } from '../../report/scenario.js';
import { scenarioRecord } from '../helpers/driver-fixtures.js';

const scenarios = await listScenarios();

test('every scenario file names its study, a summary, a kind that exists and each scale', async () => {
  assert.ok(scenarios.length >= 2);
  for (const scenario of scenarios) {
    for (const field of ['name', 'title', 'summary', 'kind']) {
      assert.equal(typeof scenario[field], 'string', `${scenario.name}: ${field}`);
    }
    for (const field of ['file', 'hardware', 'date']) {
      assert.equal(typeof scenario.study[field], 'string', `${scenario.name}: study.${field}`);
    }
    assert.match(scenario.study.file, /^\d{3}_[0-9a-f]+\.txt$/);
    const kind = KINDS[scenario.kind];
    assert.equal(typeof kind.run, 'function');
    for (const scale of SCALES) assert.ok(scenario.scales[scale], `${scenario.name}: scale ${scale}`);
    assert.ok(scenario.conclusions.length > 0);
  }
});

test('every conclusion has a known check or a reason it cannot run, ' +
  'over tables and columns the scenario builds', () => {
  for (const scenario of scenarios) {
    // A sweep's JSON parse table has one column, parseMs (studies/kinds/sweep.js).
    const tables = [
      ...(scenario.tables ?? []),
      ...(scenario.jsonParseTable ? [{ ...scenario.jsonParseTable, columns: [{ id: 'parseMs' }] }] : []),
    ];
    for (const { id, claim, check, notRunnable } of scenario.conclusions) {
      assert.equal(typeof claim, 'string', `${scenario.name} ${id}`);
      if (notRunnable) {
        assert.equal(typeof notRunnable, 'string');
        continue;
      }
      assert.ok(CHECK_TYPES.includes(check.type), `${scenario.name} ${id}: ${check.type}`);
      if (!tables.length) continue; // a kind that builds its tables itself
      if (check.column === undefined) continue; // a whole-table check (checks-direct.js) over a table its kind builds
      const table = check.table ? tables.find((spec) => spec.id === check.table) : tables[0];
      assert.ok(table, `${scenario.name} ${id}: table ${check.table}`);
      assert.ok(
        table.columns.some((column) => column.id === check.column),
        `${scenario.name} ${id}: column ${check.column}`,
      );
    }
    for (const published of scenario.published ?? []) {
      const spec = tables.find((candidate) => candidate.id === published.id);
      if (!spec) continue;
      for (const [row, cells] of Object.entries(published.rows)) {
        for (const column of Object.keys(cells)) {
          assert.ok(
            spec.columns.some((c) => c.id === column),
            `${scenario.name} published ${row}: ${column}`,
          );
        }
      }
    }
  }
});

test('every run of a sweep scenario, at every scale, is options run() and node test accept', () => {
  for (const scenario of scenarios.filter((candidate) => candidate.kind === 'sweep')) {
    for (const scale of SCALES) {
      for (const run of scenario.scales[scale].runs) {
        const { problems } = normalizeOptions(run.options);
        assert.deepEqual(problems, [], `${scenario.name} ${scale} ${run.id}`);
      }
    }
  }
  assert.equal(
    commandLine({ concurrency: [5, 10], noKeepalive: true, requests: 100, quiet: true }),
    '--concurrency 5,10 --no-keepalive --requests 100 --quiet',
  );
  assert.equal(
    commandLine({ concurrency: [5, 10], noKeepalive: true, valueSize: 100 }),
    '--concurrency 5,10 --no-keepalive --value-size 100',
  );
});

// A step as the driver makes one, with latencies 1..100 ms (one each).
function stepOf(store, key, concurrency, { rps = 50 } = {}) {
  const recorder = createLatencyRecorder();
  for (let ms = 1; ms <= 100; ms += 1) recorder.record(BigInt(ms) * 1_000_000n);
  const step = {
    store,
    key,
    concurrency,
    requests: 100,
    rps,
    latency: recorder.summary(),
    histogram: recorder.encode(),
  };
  recorder.destroy();
  return step;
}

test('a table from steps: rows from the template, cells from the metric, ' +
  'percentiles from each step\'s histogram', () => {
  const spec = {
    id: 't',
    title: 'T',
    rowHeader: 'run',
    row: '{run} {store}',
    rows: ['read b'],
    columns: [
      { id: 'rps', label: 'rps', unit: 'req/s', metric: 'rps' },
      { id: 'p66', label: '66%', unit: 'ms', metric: 'p:66' },
      { id: 'p100', label: '100%', unit: 'ms', metric: 'p:100' },
      { id: 'seen', label: '429s', unit: '', metric: 'extra:seen' },
      { id: 'readOnly', label: 'r', unit: '', metric: 'requests', run: 'read' },
    ],
  };
  const table = buildTable(spec, [
    { run: 'read', step: stepOf('a', 'k', 10, { rps: 40 }), extra: { seen: 3 } },
    { run: 'write', step: stepOf('a', 'k', 10), extra: {} },
  ]);
  assert.deepEqual(table.rows, ['read b', 'read a', 'write a']);
  assert.deepEqual(table.cells['read b'], { rps: null, p66: null, p100: null, seen: null, readOnly: null });
  assert.equal(table.cells['read a'].rps, 40);
  // The 66th of 1..100 ms, to the histogram's 3 significant digits (it answers its bucket's top).
  assert.ok(Math.abs(table.cells['read a'].p66 - 66) <= 66 * 0.001, String(table.cells['read a'].p66));
  assert.equal(table.cells['read a'].p100, 100); // the exact maximum
  assert.equal(table.cells['read a'].seen, 3);
  assert.equal(table.cells['read a'].readOnly, 100);
  assert.equal(table.cells['write a'].seen, null);
  assert.equal(table.cells['write a'].readOnly, null);
  assert.deepEqual(table.columns[1], { id: 'p66', label: '66%', unit: 'ms' });

  const published = publishedTable(spec, { id: 't', rows: { 'read a': { rps: 1892.04, p66: 53 } } });
  assert.deepEqual(published.cells['read a'], { rps: 1892.04, p66: 53, p100: null, seen: null, readOnly: null });
});

test('a Result with a scenario record survives its JSON, and one without stays without', async () => {
  const result = fromJson(await readFile(new URL('../fixtures/runs/before.json', import.meta.url), 'utf8'));
  assert.equal('scenario' in result, false);
  assert.equal('scenario' in JSON.parse(toJson(result)), false);
  const record = scenarioRecord({
    measured: [
      {
        id: 't',
        title: 'T',
        rowHeader: 'row',
        rows: ['a'],
        columns: [{ id: 'rps', label: 'rps', unit: 'req/s' }],
        cells: { a: { rps: 12.5 } },
      },
    ],
    published: [
      {
        id: 't',
        title: 'P',
        rowHeader: 'row',
        rows: ['a'],
        columns: [{ id: 'rps', label: 'rps', unit: 'req/s' }],
        cells: { a: { rps: 7 } },
      },
    ],
    verdicts: [{ id: 'v', claim: 'C', verdict: 'holds here', explanation: 'because' }],
    notes: ['n'],
  });
  const back = fromJson(toJson({ ...result, scenario: record }));
  assert.deepEqual(back.scenario, record);
  const text = renderScenario(back.scenario, { system: back.system });
  assert.match(text, /^a +12\.5 \| 7$/m);
  assert.match(text, /^ {2}holds here {2}v: C -- because$/m);
  assert.match(text, /^Published: {3}on their hardware, not ours: h · date: d$/m);
  assert.match(text, /^ {2}- n$/m);
});

test('a direct kind\'s store failures: a store error stops that store with a note, ' +
  'a failure and a skip; Ctrl-C is no failure', async () => {
  const { createStoreFailures, failedOperations } = await import('../../studies/store-failures.js');
  const { createDirectSteps } = await import('../../studies/direct-result.js');
  const { StepAborted } = await import('../../driver/step.js');
  const steps = createDirectSteps({ name: 'x', stores: ['redis', 'memory'], timeoutMs: 1000 });
  const outcome = createStoreFailures();
  assert.equal(await outcome.forStore('memory', steps, async () => 42), 42);
  assert.equal(await outcome.forStore('redis', steps, async () => { throw new Error('connection refused'); }), null);
  assert.equal(await outcome.forStore('memory', steps, async () => { throw new StepAborted('stopped'); }), null);
  outcome.unavailable([{ name: 'ioredis', reason: 'not configured' }], steps);
  outcome.fail(failedOperations('redis get, 10 users', { failed: 2, operations: 10, byStatus: { 503: 2 } }));
  assert.deepEqual(outcome.failures, [
    'redis stopped: connection refused',
    'ioredis did not run: not configured',
    'redis get, 10 users: 2 of 10 operations failed (503: 2); its time is not shown',
  ]);
  assert.deepEqual(outcome.notes, outcome.failures);
  assert.deepEqual([...outcome.stopped], ['redis']);
  assert.deepEqual(steps.result().skipped.map(({ store }) => store), ['redis', 'ioredis']);
});

test('a serial script timed several times: the median ms and CPU of the clean times, ' +
  'the failed ones kept apart', async () => {
  const { medianOfTimes } = await import('../../studies/kinds/serial.js');
  const time = (ms, cpuPercent, failed = 0) => ({
    ms,
    cpuPercent,
    failed,
    operations: 4,
    byStatus: failed ? { 503: failed } : {},
    step: { ms },
  });
  const three = medianOfTimes([time(18, 90), time(6.7, 99), time(7, 95)]);
  // the 18 ms outlier does not count
  assert.deepEqual([three.ms, three.cpuPercent, three.failed, three.steps.length], [7, 95, 0, 3]);
  const withFailure = medianOfTimes([time(10, 90), time(1, 50, 2)]);
  assert.equal(withFailure.failed, 1);
  assert.equal(withFailure.failedTimes[0].failed, 2);
  assert.equal(withFailure.steps.length, 2);
});

test('the scenario text lists the steps\' warnings by code after the tables, ' +
  'and marks a verdict whose steps the machine or errors undermine', async () => {
  const { renderScenario, scenarioHtml } = await import('../../report/scenario.js');
  const { judge } = await import('../../result/scenarios/verdicts.js');
  const warn = (code, message) => ({ code, message, data: {} });
  const steps = [
    { store: 'redis', key: 'key1', concurrency: 5, warnings: [warn('WEAK_SAMPLE', 'only 100 samples')] },
    {
      store: 'cloudant',
      key: 'key1',
      concurrency: 5,
      warnings: [
        warn('WEAK_SAMPLE', 'only 100 samples, again'),
        warn('BUSY_MACHINE', 'other processes used 1.2 cores'),
      ],
    },
    { store: 'redis', key: 'key2', concurrency: 5, warnings: [] },
  ];
  const table = {
    id: 'sweep',
    title: 'rps by url',
    rowHeader: 'url',
    rows: ['redis/key1 c=5', 'cloudant/key1 c=5', 'redis/key2 c=5'],
    columns: [{ id: 'rps', label: 'rps', unit: 'req/s' }],
    cells: { 'redis/key1 c=5': { rps: 30 }, 'cloudant/key1 c=5': { rps: 10 }, 'redis/key2 c=5': { rps: 29 } },
    sources: { 'redis/key1 c=5': [0], 'cloudant/key1 c=5': [1], 'redis/key2 c=5': [2] },
  };
  const verdicts = judge([
    {
      id: 'redis-ahead',
      claim: 'redis beats cloudant',
      check: { type: 'order', column: 'rps', rows: ['redis/key1 c=5', 'cloudant/key1 c=5'] },
    },
    {
      id: 'redis-keys',
      claim: 'key1 beats key2',
      check: { type: 'order', column: 'rps', margin: 0, rows: ['redis/key1 c=5', 'redis/key2 c=5'] },
    },
    { id: 'key3', claim: 'key3', check: { type: 'order', column: 'rps', rows: ['redis/key3 c=30', 'redis/key1 c=5'] } },
  ], [table]);
  const record = {
    name: 'x',
    title: 't',
    scale: 'tiny',
    study: { file: 'f', hardware: 'h', date: 'd' },
    measured: [table],
    published: [],
    verdicts,
    notes: [],
  };
  const text = renderScenario(record, { steps });
  assert.match(text, /Warnings of the steps behind these tables \(docs\/errors\.md\):\n {2}WEAK_SAMPLE {3}2 of 3 steps, in 2 rows: redis\/key1 c=5, cloudant\/key1 c=5; first: only 100 samples\n {2}BUSY_MACHINE {2}1 of 3 steps, in 1 row: cloudant\/key1 c=5; first: other processes used 1\.2 cores\n/);
  assert.ok(text.indexOf('Warnings of the steps') > text.indexOf('## rps by url'));
  assert.match(text, /\n! holds here +redis-ahead: redis beats cloudant -- .*\n {4}distrust this verdict: its figures come from steps with BUSY_MACHINE \(1 of 2\)\n/);
  assert.match(text, /\n {2}holds here +redis-keys: /); // WEAK_SAMPLE alone does not undermine a verdict
  // a verdict left without a figure says which, and what may have caused it
  assert.match(text, /key3: key3 -- no figure for redis\/key3 c=30, rps \(this scale does not run that row, or its store was down\)/);
  // without steps (an old results file) nothing is listed or marked
  assert.doesNotMatch(renderScenario(record), /Warnings|distrust/);
  const html = scenarioHtml(record, (value) => String(value), steps);
  assert.match(html, /<h3>Warnings of the steps behind these tables<\/h3><ul class="warnings"><li><strong>WEAK_SAMPLE<\/strong> 2 of 3 steps/);
  assert.match(html, /<li class="doubt"><strong>holds here<\/strong> redis-ahead: .*<strong>! distrust this verdict: its figures come from steps with BUSY_MACHINE \(1 of 2\)<\/strong><\/li>/);
});

test('a verdict resting on a step with DRIVER_CPU is marked to distrust, ' +
  'unless the scenario measures the client itself', async () => {
  // Pins: DRIVER_CPU did not mark a verdict, though an ordering of throughputs then compares the driver with itself.
  const { renderScenario, verdictDoubts } = await import('../../report/scenario.js');
  const { judge } = await import('../../result/scenarios/verdicts.js');
  const steps = [
    {
      store: 'redis',
      key: 'key1',
      concurrency: 50,
      warnings: [{ code: 'DRIVER_CPU', message: 'the driver used 98% of a CPU core', data: {} }],
    },
    { store: 'postgres', key: 'key1', concurrency: 50, warnings: [] },
  ];
  const table = {
    id: 't',
    title: 'ops',
    rowHeader: 'store',
    rows: ['redis', 'postgres'],
    columns: [{ id: 'ops', label: 'ops', unit: 'ops/s' }],
    cells: { redis: { ops: 40000 }, postgres: { ops: 9000 } },
    sources: { redis: [0], postgres: [1] },
  };
  const verdicts = judge([{
    id: 'redis-more', claim: 'redis serves more', check: { type: 'order', column: 'ops', rows: ['redis', 'postgres'] },
  }], [table]);
  const record = {
    name: 'x',
    title: 't',
    scale: 'tiny',
    study: { file: 'f', hardware: 'h', date: 'd' },
    measured: [table],
    published: [],
    verdicts,
    notes: [],
  };
  assert.match(renderScenario(record, { steps }), /\n! holds here +redis-more: .*\n {4}distrust this verdict: its figures come from steps with DRIVER_CPU \(1 of 2\)\n/);
  assert.deepEqual(verdictDoubts({ ...record, expectedWarnings: ['DRIVER_CPU'] }, steps, verdicts[0]), []);
});

test('a table beside the published one pads ours and published apart, ' +
  'so every | of a column is in one place', async () => {
  const { renderScenario, tableCells } = await import('../../report/scenario.js');
  const columns = [{ id: 'ms', label: 'time', unit: 'ms' }];
  const measured = {
    id: 'm',
    title: 'times',
    rowHeader: 'method',
    rows: ['a', 'b', 'c'],
    columns,
    cells: { a: { ms: 1.93 }, b: { ms: 0.085 }, c: { ms: 1146 } },
  };
  const published = {
    id: 'm',
    rowHeader: 'method',
    rows: ['a', 'b', 'c'],
    columns,
    cells: { a: { ms: 5.4 }, b: { ms: 0.76 } },
  };
  assert.deepEqual(
    tableCells(measured, published, { pad: true }).body.map((row) => row[1]),
    ['  1.9 |  5.4', '0.085 | 0.76', '1,146 |    -'],
  );
  assert.deepEqual(
    tableCells(measured, published).body.map((row) => row[1]),
    ['1.9 | 5.4', '0.085 | 0.76', '1,146 | -'],
  );
  const record = {
    name: 'x',
    title: 't',
    scale: 'tiny',
    study: { file: 'f', hardware: 'h', date: 'd' },
    measured: [measured],
    published: [published],
    notes: [],
    verdicts: [],
  };
  const lines = renderScenario(record).split('\n').filter((line) => /^[abc] /.test(line));
  assert.equal(lines.length, 3);
  assert.equal(new Set(lines.map((line) => line.indexOf('|'))).size, 1, lines.join('\n'));
});
