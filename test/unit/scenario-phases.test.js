// The phases kind's tables (cluster-vs-document): each phase's best step by throughput with its
// own figures, the phase's errors summed over every step, every step kept, a store that cannot
// run shown without figures; the keys a phase can touch; the column checks its conclusions use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keysTouched, phaseTables } from '../../studies/kinds/phases.js';
import { normalizeOptions } from '../../options/normalize.js';
import { judge } from '../../result/scenarios/verdicts.js';
import { SCALES } from '../../studies/index.js';
import scenario from '../../studies/scenarios/cluster-vs-document.js';

const probe = (meanMs, noiseMs = null) => ({ count: 10, errors: 0, meanMs, p50Ms: meanMs, p99Ms: meanMs, noiseMs });
const stepOf = (concurrency, rps, meanMs, errors, { idle = 0.2, underLoad = 1, tier, cpu } = {}) => ({
  store: 'redis',
  concurrency,
  rps,
  requests: 100,
  latency: { meanMs },
  errors: { total: errors, byKind: {} },
  probe: { thread: 'worker', idle: probe(idle, 0.01), underLoad: probe(underLoad, 0.2) },
  ...(tier ? { bottleneck: { tier, server: tier === 'server' ? 'redis-server' : null, evidence: '' } } : {}),
  ...(cpu === undefined
    ? {}
    : {
        tiers: {
          servers: [
            { name: 'redis-server', stores: ['redis'], cpuPercent: cpu },
            { name: 'other', stores: ['x'], cpuPercent: 50 },
          ],
        },
      }),
});

test('the phases table holds each phase\'s best step (by throughput), whether a server was its limit, and the ' +
  'errors and requests of all its steps (a write refused for memory is an error like any); ' +
  'the steps table every step, with its store\'s servers\' CPU; the probe cells carry their own noise', () => {
  const phase = { id: 'a', label: 'a. writes' };
  const steps = [
    stepOf(50, 1000, 2, 1, { underLoad: 3, tier: 'driver' }),
    stepOf(200, 3000, 5, 0, { underLoad: 7, tier: 'server', cpu: 96 }),
    stepOf(500, 2500, 9, 4),
  ];
  steps[2].errors.byKind = { 'conn OOM command not allowed when used memory > \'maxmemory\'.': 3, timeout: 1 };
  const [phases, all] = phaseTables([{ phase, store: 'redis', steps }, { phase, store: 'couchbase', steps: null }]);
  assert.deepEqual(phases.rows, ['a. writes / redis', 'a. writes / couchbase']);
  assert.deepEqual(
    phases.cells['a. writes / redis'],
    {
      ops: 3000,
      meanMs: 5,
      probeIdleMs: 0.2,
      probeLoadMs: 7,
      concurrency: 200,
      serverBound: 1,
      errors: 5,
      requests: 300,
    },
  );
  assert.deepEqual(phases.noise['a. writes / redis'], { probeIdleMs: 0.01, probeLoadMs: 0.2 });
  assert.deepEqual(phases.cells['a. writes / couchbase'], {
    ops: null,
    meanMs: null,
    probeIdleMs: null,
    probeLoadMs: null,
    concurrency: null,
    serverBound: null,
    errors: null,
    requests: null,
  });
  assert.deepEqual(all.rows, ['a. writes / redis c=50', 'a. writes / redis c=200', 'a. writes / redis c=500']);
  assert.deepEqual(all.cells['a. writes / redis c=50'],
    { ops: 1000, meanMs: 2, probeLoadMs: 3, serverBound: 0, serverCpu: null, errors: 1 });
  assert.deepEqual(all.cells['a. writes / redis c=200'],
    { ops: 3000, meanMs: 5, probeLoadMs: 7, serverBound: 1, serverCpu: 96, errors: 0 });
  assert.deepEqual(all.cells['a. writes / redis c=500'],
    { ops: 2500, meanMs: 9, probeLoadMs: 1, serverBound: null, serverCpu: null, errors: 4 });
});

test('a phase touches its key space, plus its inserts (warm-up included); a read none past it', () => {
  const options = (given) => normalizeOptions(given).options;
  assert.equal(
    keysTouched(options({ workload: 'insert', records: 10, requests: 100, concurrency: [5, 20], warmup: 7 })),
    10 + 200 + 7,
  );
  assert.equal(keysTouched(options({ workload: 'read', records: 300, requests: 100, concurrency: [5, 20] })), 300);
  assert.equal(keysTouched(options({ workload: 'write', records: 30, requests: 100, concurrency: [5] })), 30);
});

test('cluster-vs-document\'s phases at every scale: flags node test accepts with --direct --probe, ' +
  'each read phase within what the writes before it wrote', () => {
  for (const scale of SCALES) {
    const byId = {};
    for (const phase of scenario.scales[scale].phases) {
      const { options, problems } = normalizeOptions({ ...phase.options, direct: true, probe: true });
      assert.deepEqual(problems, [], `${scale} ${phase.id}`);
      byId[phase.id] = options;
    }
    const { a, b, c, d, e } = byId;
    const steps = a.concurrency.length;
    // a inserts past record 0 (loaded), b past a's, d reads all of them; c writes 0 .. records-1 in order,
    // e reads those.
    assert.equal(b.records, 1 + a.requests * steps, scale);
    assert.equal(d.records, b.records + b.requests * steps, scale);
    assert.equal(c.records, c.requests * steps, scale);
    assert.equal(e.records, c.records, scale);
    assert.equal(c.valueSize.max, 10240);
    assert.equal(a.valueSize.max, 100);
  }
});

test('column-above holds when every listed row\'s column is above the other', () => {
  const table = {
    id: 't',
    rows: ['x', 'y'],
    columns: [
      { id: 'idle', label: 'idle', unit: 'ms' },
      { id: 'load', label: 'load', unit: 'ms' },
      { id: 'errors', label: 'errors', unit: '' },
    ],
    cells: { x: { idle: 0.2, load: 2, errors: 0 }, y: { idle: 0.3, load: 0.25, errors: 3 } },
  };
  const verdicts = judge([
    { id: 'all', claim: '', check: { type: 'column-above', table: 't', column: 'load', over: 'idle' } },
    { id: 'x', claim: '', check: { type: 'column-above', table: 't', column: 'load', over: 'idle', rows: ['x'] } },
    {
      id: 'missing',
      claim: '',
      check: { type: 'column-above', table: 't', column: 'load', over: 'idle', rows: ['z'] },
    },
  ], [table]);
  assert.deepEqual(
    verdicts.map((verdict) => verdict.verdict),
    [
      'does not hold here', 'holds here',
      'not runnable here: no figure for z, load',
    ],
  );
  assert.match(verdicts[0].explanation, /0\.83x \(y\) to 10x \(x\) in 2 rows; not above in y/);
});

test('a store whose server cannot be had keeps its rows, without figures, ' +
  'and a note says why; no Result without a step', async () => {
  const { run } = await import('../../studies/kinds/phases.js');
  const phase = (id, options) => ({
    id,
    label: `${id}. phase`,
    options: { records: 10, requests: 100, concurrency: [5], ...options },
  });
  const outcome = await run(
    { name: 'x', stores: ['tarantool-memtx'], absentStores: { couchbase: 'not here' } },
    { phases: [phase('a', { workload: 'insert' }), phase('b', { workload: 'read', noLoad: true })] },
    { env: { PATH: '/nonexistent' } },
  );
  const [phases, steps] = outcome.measured;
  assert.deepEqual(
    phases.rows,
    ['a. phase / tarantool-memtx', 'a. phase / couchbase', 'b. phase / tarantool-memtx', 'b. phase / couchbase'],
  );
  assert.ok(Object.values(phases.cells['b. phase / tarantool-memtx']).every((value) => value === null));
  assert.deepEqual(steps.rows, []);
  assert.match(outcome.notes[0], /^tarantool-memtx did not run: .*tarantool/);
  assert.deepEqual(outcome.results, []);
  assert.deepEqual(outcome.runs.map((entry) => entry.id), ['a', 'b']);
});

test('the phase tables name the steps behind each row (their indexes in the Result), ' +
  'so a warning names its row', async () => {
  const { warningGroups } = await import('../../report/scenario.js');
  const a = { id: 'a', label: 'a. writes' };
  const b = { id: 'b', label: 'b. reads' };
  // Run order: redis a (2 steps, indexes 0-1), redis b (2-3); shown in that order too.
  const ran = [
    { phase: a, store: 'redis', steps: [stepOf(5, 10, 1, 0), stepOf(20, 30, 2, 0)], first: 0 },
    { phase: b, store: 'redis', steps: [stepOf(5, 10, 1, 0), stepOf(20, 30, 2, 0)], first: 2 },
  ];
  const measured = phaseTables(ran);
  assert.deepEqual(measured[0].sources, { 'a. writes / redis': [0, 1], 'b. reads / redis': [2, 3] });
  assert.deepEqual(measured[1].sources, {
    'a. writes / redis c=5': [0],
    'a. writes / redis c=20': [1],
    'b. reads / redis c=5': [2],
    'b. reads / redis c=20': [3],
  });
  // The same store and concurrency in two phases: two rows, each step named once by its own row.
  const weak = { code: 'WEAK_SAMPLE', message: 'few', data: {} };
  const steps = [0, 1, 2, 3].map((i) => ({
    store: 'redis',
    concurrency: i % 2 ? 20 : 5,
    warnings: i === 1 ? [] : [weak],
  }));
  const [group] = warningGroups({ measured }, steps);
  assert.equal(group.steps, 3);
  assert.deepEqual(group.rows, ['a. writes / redis c=5', 'b. reads / redis c=5', 'b. reads / redis c=20']);
});
