// The phases of a sweep (driver/sweep-phases.js) and the one event stream they emit, run in
// this thread against an engine that answers at once: no network, no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSweep } from '../../driver/sweep.js';
import { sweepSettings } from '../helpers/sweep-settings.js';
import {
  controlRecord, primeConcurrency, shownOf, steadyWindowSeconds, stepRecord,
} from '../../driver/sweep-phases.js';
import { createMachineMonitor } from '../../driver/machine-load.js';
import { renderControl } from '../../report/run-text.js';
import { steadyMaxSeconds } from '../../config/run-defaults.js';

// An engine whose every request is answered in the next microtask, in a closed loop of
// `concurrency` clients; a key-space workload's requests are settled as answered.
const instantEngine = {
  async run({ concurrency, maxRequests, durationSeconds, signal, workload }, meter) {
    const deadline = durationSeconds ? Date.now() + durationSeconds * 1000 : Infinity;
    let started = 0;
    const client = async () => {
      while (!signal?.aborted && (maxRequests == null || started < maxRequests) && Date.now() < deadline) {
        started += 1;
        const request = workload?.next();
        const handle = meter.begin(undefined, request?.operation);
        await null;
        handle.responded(200);
        request?.settle(200, 0);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, client));
    return { reported: null };
  },
};

// A machine monitor that reads nothing (no /proc there): every step's machine figures are null.
const machine = createMachineMonitor({ procDir: '/nonexistent' });
const targets = () => [
  { url: 'http://127.0.0.1:1/a/key1', store: 'a', key: 'key1' },
  { url: 'http://bench:s3cret@127.0.0.1:1/b/key1', store: 'b', key: 'key1' },
];
const settings = sweepSettings({
  concurrency: [1, 2], requests: 20, warmup: 5, warmupMaxSeconds: 0, orderSeed: 3, keepAlive: true, timeoutMs: 1000,
});

test('the warm-up\'s cap and windows: none without a warm-up, windows that hold 20 requests at a low rate', () => {
  assert.equal(steadyMaxSeconds({ warmup: 0, warmupMaxSeconds: 5 }), 0);
  assert.equal(steadyMaxSeconds(sweepSettings({ warmup: 10 })), 10, 'the table\'s default cap');
  assert.equal(steadyMaxSeconds({ warmup: 10, warmupMaxSeconds: 3 }), 3);
  assert.equal(steadyWindowSeconds({ concurrency: 5 }), 0.25);
  assert.equal(steadyWindowSeconds({ rps: 1000 }), 0.25);
  assert.equal(steadyWindowSeconds({ rps: 20 }), 1);
  assert.equal(primeConcurrency({ concurrency: [1, 8, 3], rps: null }), 8);
  assert.equal(primeConcurrency({ concurrency: null, rps: [100] }), 10);
  assert.deepEqual(shownOf({ url: 'http://u:pw@h/x', store: 'x', key: 'k' }), { url: 'http://u:***@h/x', store: 'x' });
});

test('a step record keeps the figures, says what it was a step of, and warns from its warm-up and its figures', () => {
  const figures = {
    url: 'http://u:pw@h/a/key1',
    model: 'closed',
    concurrency: 1,
    responses: 20,
    wallSeconds: 0.01,
    rps: 2000,
    latency: { meanMs: 0.5 },
    errors: { total: 0 },
    cpuPercent: 5,
  };
  const step = stepRecord(figures, {
    target: { store: 'a', key: 'key1' },
    shown: { url: 'http://u:***@h/a/key1' },
    workload: null,
    repeat: 1,
    warmup: { seconds: 10, windows: 40, steady: false, speeds: [1, 2, 3] },
    machine: { stealPercent: null, othersCpuPercent: null },
    probe: null,
    runLoad: undefined,
    engine: 'fast',
  });
  assert.equal(step.url, 'http://u:***@h/a/key1', 'the shown URL replaces the figures\'');
  assert.deepEqual([step.store, step.key, step.workload, step.repeat, step.machines], ['a', 'key1', null, 1, null]);
  assert.deepEqual(step.warmup, { seconds: 10, windows: 40, steady: false }, 'the speeds are not kept');
  assert.equal('runLoad' in step, false);
  assert.deepEqual(step.warnings.map((warning) => warning.code).sort(), ['NOT_STEADY', 'WEAK_SAMPLE']);
  assert.equal(stepRecord(figures, { target: {}, shown: {}, warmup: null, machine: {}, runLoad: 4 }).runLoad, 4);
});

// Steps as the control reads them: a rate, and responses of which `refused` were HTTP errors.
const measured = (rps, { refused = 0, ...fields } = {}) =>
  ({ rps, responses: 2000, errors: { total: refused, byKind: refused ? { 'http 413': refused } : {} }, ...fields });

test('the control says how far the first step\'s rate drifted, and warns past the tolerance', () => {
  const before = measured(1000);
  const again = measured(850, { url: 'u', store: 'a', key: 'k', model: 'closed' });
  const slower = controlRecord(before, again, { concurrency: 4 });
  const { step, warnings, ...figures } = slower;
  assert.deepEqual(figures, {
    url: 'u', store: 'a', key: 'k', load: 4, rpsBefore: 1000, rpsAfter: 850, drift: -0.15, tolerance: 0.1,
  });
  assert.equal(step, again);
  assert.deepEqual(warnings.map((warning) => warning.code), ['DRIFT']);
  assert.match(renderControl(slower), /measured 1000 then 850 rps \(−15%\)/);
  assert.deepEqual(controlRecord(before, measured(1050), { rps: 200 }).warnings, []);
  assert.equal(controlRecord(measured(0), measured(5), { rps: 200 }).drift, 0, 'no rate before: no drift to speak of');
});

test('a control whose first step, or itself, had no successful request reads no drift and ties nothing', () => {
  const allRefused = measured(1009, { refused: 2000 });
  const served = measured(2453, { url: 'u', store: 'a', key: 'k', model: 'closed' });
  for (const [before, after] of [[allRefused, served], [measured(1000), measured(2453, { refused: 2000 })]]) {
    const step = { url: 'u', store: 'a', key: 'k', model: 'closed', ...after };
    const control = controlRecord(before, step, { concurrency: 2 });
    assert.equal(control.drift, null);
    assert.deepEqual(control.warnings, [], 'no DRIFT');
    assert.match(renderControl(control), /rps \(no drift read: a step in which no request succeeded\)/);
  }
  const someRefused = controlRecord(measured(1000, { refused: 1999 }), served, { concurrency: 2 });
  assert.equal(someRefused.drift, 1.453, 'one success is a rate: the drift is read');
});

// The control is numbered as the last step (total), not one past it.
test('one event stream: the priming, each step and its end, each target done after its last, the control', async () => {
  const events = [];
  const emit = (event) => events.push(event);
  const { steps, order, control } = await runSweep(targets(), settings, { engine: instantEngine, machine, emit });
  const lines = events.map(({ type, index, total, target, load, step }) => [
    type,
    index && `${index}/${total}`,
    target?.store ?? step?.store,
    load && (load.warmup ? `warm-up ${load.warmup}` : `c${load.concurrency}${load.control ? ' control' : ''}`),
  ].filter(Boolean).join(' '));
  const [first, second] = order[0].urls.map((url) => (url.includes('/a/') ? 'a' : 'b'));
  assert.deepEqual(lines, [
    `step 1/4 ${first} warm-up 5`, `step 1/4 ${second} warm-up 5`,
    `step 1/4 ${first} c1`, `step-done ${first}`, `step 2/4 ${second} c1`, `step-done ${second}`,
    // The second level in its own shuffled order: the first target's done waits for the control either way.
    ...(order[1].urls[0] === order[0].urls[0]
      ? [`step 3/4 ${first} c2`, `step-done ${first}`, `step 4/4 ${second} c2`, `step-done ${second}`,
          `target-done ${second}`]
      : [`step 3/4 ${second} c2`, `step-done ${second}`, `target-done ${second}`, `step 4/4 ${first} c2`,
          `step-done ${first}`]),
    `step 4/4 ${first} c1 control`, `target-done ${first}`,
  ]);
  const ended = events.filter((event) => event.type === 'step-done').map((event) => event.step);
  assert.deepEqual(ended, steps, 'the steps, as they ended');
  assert.equal(control.store, first);
  assert.equal(control.step.responses, 20);
  for (const step of steps) assert.equal(step.responses, 20);
  const done = events.filter((event) => event.type === 'target-done');
  assert.deepEqual(done.map((event) => event.steps.length), [2, 2]);
  assert.ok(!JSON.stringify(events).includes('s3cret'), 'no event carries the password');
  assert.deepEqual(Object.keys(events[0].target), ['url', 'store'], 'events show a target as shownOf gives it');
});

test('the events show targets as `present` says, and the stream passes every one through one function', async () => {
  const seen = new Map();
  const present = (target) => ({ shown: target.store });
  await runSweep(targets(), { ...settings, concurrency: [1], warmup: 0 }, {
    engine: instantEngine,
    machine,
    present,
    emit: (event) => {
      seen.set(event.type, (seen.get(event.type) ?? 0) + 1);
      if (event.target) assert.deepEqual(event.target, { shown: event.target.shown });
    },
  });
  assert.deepEqual(Object.fromEntries(seen), { step: 3, 'step-done': 2, 'target-done': 2 });
});

test('a key-space workload: its load phase before anything, its read-back before its target is done', async () => {
  const calls = [];
  const workload = {
    name: 'write',
    mix: [{ operation: 'write', share: 1 }],
    distribution: { name: 'uniform' },
    records: 10,
    valueSize: { min: 8, max: 8 },
    seed: 1,
    load: true,
    verify: true,
  };
  const events = [];
  await runSweep([{ url: 'http://127.0.0.1:1/a', store: 'a' }], { ...settings, concurrency: [2], warmup: 0 }, {
    engine: instantEngine,
    machine,
    workload,
    emit: (event) => events.push(event),
    loadRecords: async ({ url, store, workload: runner, onProgress }) => {
      calls.push(`load ${store} ${url} ${runner.records}`);
      onProgress({ done: 10, total: 10, bytes: 80 });
      return { records: 10, loaded: 10, bytes: 80, batches: 1, errors: { total: 0, byKind: {} }, refused: null };
    },
    verifyWrites: async ({ store, workload: runner }) => {
      calls.push(`verify ${store} after ${runner.wrote()} writes`);
      const leftOut = { overlap: 0, failed: 0, unknownBase: 0 };
      return { sampled: 3, verified: 3, mismatched: 0, examples: [], leftOut, promise: null };
    },
  });
  assert.deepEqual(calls, ['load a http://127.0.0.1:1/a 10', 'verify a after 20 writes']);
  assert.deepEqual(events.map((event) => event.type), [
    'load', 'load', 'load-done', 'step', 'step-done', 'verify-done', 'target-done',
  ]);
  const progress = events.slice(0, 2).map(({ done, total, bytes }) => [done, total, bytes]);
  assert.deepEqual(progress, [[0, 10, 0], [10, 10, 80]]);
  const { load } = events[2];
  assert.equal('refused' in load, false);
  assert.deepEqual([load.url, load.store, load.loaded, load.warnings], ['http://127.0.0.1:1/a', 'a', 10, []]);
  const [, , , , { step }, { verification }, targetDone] = events;
  assert.equal(step.workload, 'write');
  assert.deepEqual([verification.store, verification.sampled, verification.warnings], ['a', 3, []]);
  assert.equal(targetDone.load, load);
  assert.equal(targetDone.verification, verification);
});

test('the probe: idle before a target\'s first step, then under every step\'s load, the control\'s too ' +
  '(measured as the step it repeats)', async () => {
  const calls = [];
  const probe = {
    thread: 'worker',
    error: null,
    use: async (probeTarget) => calls.push(`use ${probeTarget}`),
    idle: async () => {
      calls.push('idle');
      return { p50Ms: 1 };
    },
    underLoad: () => {
      calls.push('under load');
      return { end: async () => ({ p50Ms: 2 }) };
    },
  };
  const withProbe = targets().map((target) => ({ ...target, probeTarget: target.store }));
  const probed = { ...settings, warmup: 0 };
  const { steps, control, order } = await runSweep(withProbe, probed, { engine: instantEngine, machine, probe });
  const [first, second] = order[0].urls.map((url) => (url.includes('/a/') ? 'a' : 'b'));
  assert.deepEqual(calls.slice(0, 6), [`use ${first}`, 'idle', 'under load', `use ${second}`, 'idle', 'under load']);
  assert.equal(calls.filter((call) => call === 'under load').length, 5, 'four steps and the control');
  assert.deepEqual(calls.slice(-2), [`use ${first}`, 'under load'], 'the control probes its own target');
  assert.equal(calls.filter((call) => call === 'idle').length, 2);
  const seen = { thread: 'worker', idle: { p50Ms: 1 }, underLoad: { p50Ms: 2 }, error: null };
  for (const step of steps) assert.deepEqual(step.probe, seen);
  assert.deepEqual(control.step.probe, seen);
});
