import { test } from 'node:test';
import assert from 'node:assert/strict';
import { orderOf, planSchedule } from '../../driver/schedule.js';
import { groupRepeats, summarizeCell } from '../../result/repeat.js';
import { compareStores } from '../../result/comparison.js';
import { spread, tQuantile975, rangesOverlap } from '../../util/stats.js';
import { renderComparison } from '../../report/comparison-table.js';
import { renderRepeatTable } from '../../report/repeat-table.js';
import { fixedStep } from '../helpers/driver-fixtures.js';

const A = { store: 'a' };
const B = { store: 'b' };
const C = { store: 'c' };
const order = (schedule) => schedule.map((item) => `${item.target.store}${item.load.concurrency}.${item.repeat}`);

test('--repeat interleaves: at each load level every target once, then every target again (A B C, A B C)', () => {
  const schedule = planSchedule(
    [A, B, C],
    [{ concurrency: 5 }, { concurrency: 10 }],
    { repeat: 2, order: 'sequential' },
  );
  assert.deepEqual(
    order(schedule),
    ['a5.1', 'b5.1', 'c5.1', 'a5.2', 'b5.2', 'c5.2', 'a10.1', 'b10.1', 'c10.1', 'a10.2', 'b10.2', 'c10.2'],
  );
  assert.deepEqual(
    schedule.filter((item) => item.first).map((item) => order([item])[0]),
    ['a5.1', 'b5.1', 'c5.1'],
    'each target warmed up before its first step',
  );
  assert.deepEqual(
    schedule.filter((item) => item.last).map((item) => order([item])[0]),
    ['a10.2', 'b10.2', 'c10.2'],
    'and its table printed after its last',
  );
});

test('--order sequential keeps the original order: every load of a target, then the next target', () => {
  assert.deepEqual(
    order(planSchedule([A, B], [{ concurrency: 5 }, { concurrency: 10 }], { order: 'sequential' })),
    ['a5.1', 'a10.1', 'b5.1', 'b10.1'],
  );
});

// The first store of a sequential run lost 30-57% of its throughput: the default order interleaves and shuffles.
test('the default order interleaves: every target once per level, shuffled by the seed, ' +
  'the same seed the same order', () => {
  const targets = Array.from({ length: 8 }, (_, index) => ({
    url: `u${index}`,
    name: String.fromCharCode(97 + index),
  }));
  const loads = [{ concurrency: 5 }, { concurrency: 10 }, { concurrency: 20 }];
  const levels = (schedule) =>
    loads.map((_, level) =>
      schedule
        .slice(level * 8, level * 8 + 8)
        .map((item) => item.target.name)
        .join(''),
    );
  const first = levels(planSchedule(targets, loads, { seed: 42 }));
  assert.deepEqual(levels(planSchedule(targets, loads, { seed: 42 })), first, 'reproducible with --seed');
  for (const level of first) assert.equal([...level].sort().join(''), 'abcdefgh', 'every target once per level');
  assert.equal(new Set(first).size, 3, `each level in its own order: ${first.join(' ')}`);
  assert.notDeepEqual(levels(planSchedule(targets, loads, { seed: 43 })), first, 'another seed, another order');
  const firsts = new Set(
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((seed) => planSchedule(targets, loads, { seed })[0].target.name),
  );
  assert.ok(firsts.size > 3, `no target is always first: ${[...firsts].join('')}`);
  const schedule = planSchedule(targets, loads, { seed: 42 });
  assert.equal(schedule.filter((item) => item.first).length, 8);
  assert.deepEqual(
    orderOf(schedule, (target) => target.url).map(({ load, repeat, urls }) => [load, repeat, urls.length]),
    [[5, 1, 8], [10, 1, 8], [20, 1, 8]],
  );
});

test('spread: the median, the range and, from 5 values, the 95% t-interval of the mean', () => {
  assert.deepEqual(spread([3, 1, 2]), { median: 2, min: 1, max: 3, mean: 2, ciLow: null, ciHigh: null });
  const five = spread([10, 12, 11, 13, 9]);
  // mean 11, s = sqrt(2.5), t(0.975, 4) = 2.776: 11 ± 2.776 * sqrt(2.5 / 5)
  assert.equal(five.median, 11);
  assert.ok(Math.abs(five.ciLow - (11 - 2.776 * Math.sqrt(0.5))) < 1e-9);
  assert.ok(Math.abs(five.ciHigh - (11 + 2.776 * Math.sqrt(0.5))) < 1e-9);
  assert.deepEqual(
    spread([null, 4, null]),
    { median: 4, min: 4, max: 4, mean: 4, ciLow: null, ciHigh: null },
    'a repeat without the figure is left out',
  );
  assert.equal(spread([]).median, null);
  assert.ok(
    Math.abs(tQuantile975(60) - 2.000) < 0.001 && Math.abs(tQuantile975(1000) - 1.962) < 0.001,
    't beyond the table',
  );
  assert.equal(rangesOverlap({ min: 1, max: 3 }, { min: 3, max: 4 }), true);
  assert.equal(rangesOverlap({ min: 1, max: 2 }, { min: 3, max: 4 }), false);
});

const repeats = (store, rpsList, extra = {}) =>
  rpsList.map((rps, index) => ({
    ...fixedStep({ store, rps, meanMs: 5 / rps * 1000, ...extra }),
    repeat: index + 1,
  }));

test('a cell of repeats: figures spread, errors summed, warnings named once', () => {
  const steps = repeats('redis', [4000, 4200, 3900]);
  steps[1].errors = { total: 2, byKind: { 'http 503': 2 } };
  steps[2].warnings = [{ code: 'CPU_STEAL', message: 'x', data: {} }];
  const [cell] = groupRepeats(steps);
  const summary = summarizeCell(cell);
  assert.equal(summary.repeats, 3);
  assert.deepEqual([summary.rps.median, summary.rps.min, summary.rps.max], [4000, 3900, 4200]);
  assert.equal(summary.errors.total, 2);
  assert.equal(summary.requests, 6000);
  assert.deepEqual(summary.warnings, ['CPU_STEAL']);
});

test('the comparison names its figures as a step does, and says which stores it cannot tell apart', () => {
  const steps = [
    ...repeats('memory', [9000, 9500, 9200]),
    ...repeats('redis', [8800, 9100, 8600]),
    ...repeats('cloudant', [900, 950, 1000]),
  ];
  const [group] = compareStores(steps);
  const [memory, redis, cloudant] = group.rows;
  assert.deepEqual(Object.keys(memory), [
    'store', 'repeats', 'rps', 'latency', 'storeTime', 'errors', 'failed', 'noise', 'rank', 'ratio', 'spread',
    'overlaps', 'warnings', 'bottleneck', 'storeRank', 'storeAnswered',
  ]);
  assert.deepEqual(
    [memory.store, memory.rps, memory.latency.meanMs, memory.errors.total],
    ['memory', 9200, 5 / 9200 * 1000, 0],
  );
  assert.deepEqual(memory.spread.rps, { min: 9000, max: 9500, mean: 9233.333333333334, ciLow: null, ciHigh: null });
  assert.deepEqual([memory.overlaps, redis.overlaps, cloudant.overlaps], [['redis'], ['memory'], []]);
  const text = renderComparison([group]);
  assert.deepEqual(group.rows.map((row) => row.rank), [1, 1, 3], 'overlapping ranges share a rank');
  assert.match(text, /concurrency {2}rank {2}store {5}rps {3}rps min-max {2}meanLatencyMs/);
  assert.match(text, /\n {10}5 {4}1= {2}memory {4}9200 {4}9000-9500 /);
  assert.match(text, /\nconcurrency 5: memory, redis share rank 1: not told apart here\nnot told apart: their rps ranges over the repeats overlap$/);
});

// `node test --target ... -c 5 -t 1` ranked key1 postgres 2071 rps, memory 1351, redis 1004.
test('a store measured more than 10% faster than memory is flagged: it cannot beat the in-process map', () => {
  const steps = [
    fixedStep({ store: 'memory', rps: 1351 }),
    fixedStep({ store: 'postgres', rps: 2071 }),
    fixedStep({ store: 'redis', rps: 1004 }),
    fixedStep({ store: 'ioredis', rps: 1480 }), // 9.5% faster: within the tolerance
  ];
  const [group] = compareStores(steps);
  assert.deepEqual(
    group.rows.map((row) => [row.store, row.warnings]),
    [['postgres', ['FASTER_THAN_BASELINE']], ['ioredis', []], ['memory', []], ['redis', []]],
  );
  const text = renderComparison([group]);
  assert.match(text, /\n {10}5 {5}1 {2}postgres ! {2}2071 /);
  assert.match(text, /\n! postgres at concurrency 5: 53% faster than memory, the in-process map, beyond the noise: nothing behind the app can be/);
  assert.doesNotMatch(text, /a step's figures carry a warning|that step's figures/, 'no step warning legend when only the baseline check marked a row');
  assert.deepEqual(
    compareStores(steps.filter((step) => step.store !== 'memory'))[0].rows.map((row) => row.warnings),
    [[], [], []],
    'no memory in the run: no baseline',
  );
});

test('a URL\'s table with repeats: medians, min-max, and the 95% interval from 5 repeats', () => {
  const three = renderRepeatTable('http://h/redis/key1', repeats('redis', [4000, 4200, 3900]));
  assert.deepEqual(three.split('\n').slice(0, 5), [
    '## http://h/redis/key1',
    '-----------------------------------------------------------------------------------------------',
    'concurrency  repeats  rps   rps min-max  meanLatencyMs  mean min-max  p99   p99 min-max  errors',
    '-----------------------------------------------------------------------------------------------',
    '          5        3  4000    3900-4200           1.25     1.19-1.28  4.35    4.35-4.35  0',
  ]);
  const five = renderRepeatTable('http://h/redis/key1', repeats('redis', [4000, 4200, 3900, 4100, 4050]));
  assert.match(five, /rps min-max {2}rps 95% CI {2}meanLatencyMs {2}mean min-max {2}mean 95% CI {2}p99 {3}p99 min-max {2}p99 95% CI/);
  // mean 4050, s = 111.8: 4050 ± 2.776 * 111.8 / sqrt(5)
  assert.match(five, /4050 {4}3900-4200 {3}3911-4189 /);
  assert.match(five, /95% CI: of the mean of the repeats \(Student's t\)/);
});
