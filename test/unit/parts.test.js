// The split of one run over N parts (driver/parts.js): shares that add up exactly, disjoint key
// slices, seeds derived from the run's, and the command line each part gets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keySlice, partLoads } from '../../driver/parts.js';
import { parsePart, parseStartAt, partSeed } from '../../options/parts.js';
import { driverArgv, partFlags } from '../../cli/part-argv.js';
import { createWorkload } from '../../driver/workloads/workload.js';
import { batchOf } from '../../driver/workloads/load.js';
import { startOf } from '../../cli/local-parts.js';

test('--part I/N and --start-at parse, or say what they take', () => {
  assert.deepEqual(parsePart('2/4').value, { index: 2, count: 4 });
  for (const bad of ['0/4', '5/4', '1/0', 'a/b', '1', '1/4/2']) assert.match(parsePart(bad).problem, /--part must be I\/N/);
  assert.equal(parseStartAt('+30s', 1000).value.getTime(), 31_000);
  assert.equal(parseStartAt('+1.5', 0).value.getTime(), 1500);
  assert.equal(parseStartAt('2030-01-01T00:00:00.250Z').value.toISOString(), '2030-01-01T00:00:00.250Z');
  assert.equal(parseStartAt('2030-01-01T02:00:00+02:00').value.toISOString(), '2030-01-01T00:00:00.000Z');
  assert.match(parseStartAt('2030-01-01T00:00:00').problem, /with its zone/);
  assert.match(parseStartAt('+100000s').problem, /more than a day ahead/);
});

test('the parts\' shares of -c, --rps and -n add up exactly to the run\'s, ' +
  'each level keeping the run\'s as runLoad', () => {
  const parts = [1, 2, 3, 4].map((index) => partLoads({ concurrency: [10, 7], requests: 1001 }, { index, count: 4 }));
  for (const level of [0, 1]) {
    assert.equal(parts.reduce((sum, loads) => sum + loads[level].concurrency, 0), [10, 7][level]);
    assert.equal(parts.reduce((sum, loads) => sum + loads[level].maxRequests, 0), 1001);
    assert.ok(parts.every((loads) => loads[level].runLoad === [10, 7][level]));
  }
  assert.deepEqual(parts.map((loads) => loads[0].concurrency), [3, 3, 2, 2]);
  const open = [1, 2, 3].map((index) => partLoads({ rps: [300], requests: 10 }, { index, count: 3 })[0]);
  assert.deepEqual(open.map((load) => load.rps), [100, 100, 100]);
  assert.deepEqual(open.map((load) => load.maxRequests), [4, 3, 3]);
});

test('each part loads its own slice and inserts keys no other part inserts; ' +
  'seeds differ by part, repeat by run', () => {
  const records = 1003;
  const slices = [1, 2, 3].map((index) => keySlice(records, { index, count: 3 }));
  assert.equal(slices[0].loadFrom, 0);
  assert.equal(slices[2].loadTo, records);
  for (let i = 1; i < 3; i += 1) {
    assert.equal(slices[i].loadFrom, slices[i - 1].loadTo, 'contiguous, no gap, no overlap');
  }

  const spec = {
    mix: [{ operation: 'insert', share: 1 }],
    records,
    valueSize: { min: 10, max: 10 },
    seed: 5,
    distribution: null,
  };
  const inserted = [1, 2, 3].map((index) => {
    const workload = createWorkload({ ...spec, part: { index, count: 3 } });
    return Array.from({ length: 50 }, () => workload.next().path);
  });
  const all = inserted.flat();
  assert.equal(new Set(all).size, all.length, 'no key inserted by two parts');
  assert.ok(inserted[1][0].endsWith(String(records + 1)));

  const loader = createWorkload({
    ...spec,
    mix: [{ operation: 'read', share: 1 }],
    distribution: { name: 'uniform' },
    part: { index: 2, count: 3 },
  });
  assert.deepEqual(loader.loadRange, [334, 668]);
  const batch = batchOf(loader, 334);
  assert.equal(batch.to, 668, 'a batch stops at the end of the slice');

  assert.equal(partSeed(42, 2), partSeed(42, 2));
  assert.notEqual(partSeed(42, 1), partSeed(42, 2));
  assert.notEqual(partSeed(42, 1), partSeed(43, 1));
});

test('each part\'s command line: the user\'s driver flags, less the launcher\'s, plus its part, seed and start', () => {
  const argv = [
    '--parts', '4', '--local', '-c', '10', '--json=out.json', '--csv', 'out.csv', '-q', '--seed', '9', '--stores',
    'redis', '--start-at', '+5s',
  ];
  assert.deepEqual(driverArgv(argv), ['-c', '10', '--stores', 'redis']);
  const startAt = new Date('2030-01-01T00:00:00Z');
  assert.deepEqual(
    partFlags({ index: 2, count: 4, seed: 9, startAt }),
    ['--part', '2/4', '--seed', '9', '--start-at', '2030-01-01T00:00:00.000Z', '-q'],
  );
  assert.equal(
    startOf({ startAt: null, startAfterSeconds: null }, 1000).getTime(),
    11_000,
    'default: 10 s after launch',
  );
  assert.equal(
    startOf({ startAt: new Date(5), startAfterSeconds: 3 }, 1000).getTime(),
    4000,
    '+SECS counts from launch',
  );
  assert.equal(startOf({ startAt, startAfterSeconds: null }).getTime(), startAt.getTime());
});
