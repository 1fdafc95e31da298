// The time a run announces before it starts (driver/estimate.js): its steps, warm-ups and
// control, and the load phase from the records, their size and each store's measured pace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOAD_RATES, estimateLoadSeconds, estimateRunSeconds } from '../../driver/estimate.js';
import { estimateLine } from '../../report/progress.js';

const steps = { duration: 2, warmup: 0, warmupMaxSeconds: 0, repeat: 1, control: false };
const keySpace = { records: 10_000_000, valueSizeMin: 100, valueSizeMax: 300, load: true };

test('every store of the registry has a measured load pace', async () => {
  const { adapters } = await import('../../stores/index.js');
  const missing = adapters.map((adapter) => adapter.name).filter((name) => !LOAD_RATES[name]);
  assert.deepEqual(missing, []);
  for (const [store, rate] of Object.entries(LOAD_RATES)) {
    assert.ok(rate.recordsPerSecond > 0, store);
    assert.ok(rate.bytesPerSecond > 0, store);
  }
});

test('the load phase: each target\'s records at its store\'s pace, per record and per byte of the mean value', () => {
  const { recordsPerSecond, bytesPerSecond } = LOAD_RATES.memory;
  const one = 10_000_000 / recordsPerSecond + (10_000_000 * 200) / bytesPerSecond;
  const load = estimateLoadSeconds(keySpace, ['memory', 'memory']);
  assert.equal(load.records, 10_000_000);
  assert.equal(load.targets, 2);
  assert.match(estimateLine({ estimateSeconds: 10, totalSteps: 2, targets: [{}, {}], estimateLoad: load }),
    /loading 10,000,000 records into each of 2 stores \(about/);
  assert.ok(Math.abs(load.seconds - 2 * one) < 1e-6, 'two targets on memory load twice');
  assert.deepEqual(load.unknown, []);
  // --part 2/4 loads its quarter of the key space.
  const part = estimateLoadSeconds({ ...keySpace, part: { index: 2, count: 4 } }, ['memory']);
  assert.equal(part.records, 2_500_000);
  assert.ok(Math.abs(part.seconds - one / 4) < 1e-6);
});

test('no load, no estimate of one; a store without a measured pace is named, not guessed', () => {
  assert.equal(estimateLoadSeconds({ ...keySpace, load: false }, ['memory']), null, '--no-load');
  assert.equal(estimateLoadSeconds({ records: null, load: false }, ['memory']), null, 'the seeded read');
  const load = estimateLoadSeconds(keySpace, ['memory', 'mystore', 'mystore']);
  assert.deepEqual(load.unknown, ['mystore']);
  assert.ok(load.seconds > 0);
});

test('the announced time includes the load; the line says so, and what it could not count', () => {
  // Pins #30.4: --records 10000000 announced "about 10 s"; the load alone took 96 s.
  const load = estimateLoadSeconds(keySpace, ['memory']);
  const seconds = estimateRunSeconds({ settings: steps, targets: 1, levels: 5, load });
  assert.equal(seconds, 10 + load.seconds);
  const line = estimateLine({ estimateSeconds: seconds, totalSteps: 5, targets: [{}], estimateLoad: load });
  assert.match(line, /^this run takes about \d+(\.\d)? (min|h): 5 steps across 1 URL\(s\), warm-ups, the control and loading 10,000,000 records \(about \d+(\.\d)? (s|min|h)\) included/);
  const unknown = estimateLoadSeconds(keySpace, ['mystore']);
  assert.match(estimateLine({ estimateSeconds: 10, totalSteps: 5, targets: [{}], estimateLoad: unknown }),
    /; not counted: loading into mystore \(no load rate measured for it\)$/);
  assert.match(estimateLine({ estimateSeconds: null, totalSteps: 5, targets: [{}], estimateLoad: load }),
    /^loading 10,000,000 records \(about .+\); the steps are counted \(-n\): their time depends on the target$/);
  assert.equal(estimateLine({ estimateSeconds: 10, totalSteps: 5, targets: [{}] }),
    'this run takes about 10 s: 5 steps across 1 URL(s), warm-ups and the control included');
});
