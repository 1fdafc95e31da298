// node test compare on two saved runs with known answers (test/fixtures/runs/make-runs.js made
// them by sweeping node:http servers): `slow` held each request 8 ms in before.json and 16 ms
// in after.json, so its rps halves and its latency doubles, beyond any noise; before.json alone
// has fast/key2, after.json alone extra/key1.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fromJson } from '../../result/format.js';
import { regressionError, renderRunComparison } from '../../report/compare-runs.js';
import { compareRuns } from '../../result/run-comparison.js';
import { parseArguments } from '../../cli/options.js';
import { exitCodeOf } from '../../util/errors.js';
import { slowOnly } from '../helpers/busy-runs.js';

const BEFORE = 'test/fixtures/runs/before.json';
const AFTER = 'test/fixtures/runs/after.json';
const load = async (file) => fromJson(await readFile(new URL(`../../${file}`, import.meta.url), 'utf8'));
const figure = (row, name) => row.figures.find((entry) => entry.name === name);

test('compare matches steps by store, key and load, and gives both figures and the change', async () => {
  const [a, b] = [await load(BEFORE), await load(AFTER)];
  const comparison = compareRuns(a, b);
  assert.deepEqual(
    comparison.rows.map((row) => `${row.store} ${row.key} ${row.load}`),
    ['memory key1 2', 'fast key1 2', 'slow key1 2', 'memory key1 4', 'fast key1 4', 'slow key1 4'],
    'in the order A ran them',
  );
  assert.equal(comparison.rows.length, 6);
  for (const row of comparison.rows) {
    assert.deepEqual(row.repeats, [3, 3]);
    assert.deepEqual(
      row.figures.map((entry) => entry.name),
      ['rps', 'latency.meanMs', 'latency.p50Ms', 'latency.p99Ms'],
      'named as a step names them',
    );
  }
  for (const row of comparison.rows.filter((candidate) => candidate.store === 'slow')) {
    const rps = figure(row, 'rps');
    const p50 = figure(row, 'latency.p50Ms');
    assert.ok(
      rps.changePercent < -35 && rps.changePercent > -65,
      `slow at ${row.load}: rps ${rps.changePercent.toFixed(1)}%, about halved`,
    );
    assert.ok(p50.a >= 8 && p50.b >= 16, 'the holds: 8 ms, then 16 ms');
    assert.ok(p50.changePercent > 60 && p50.changePercent < 120, `p50 ${p50.changePercent.toFixed(1)}%, about doubled`);
    assert.equal(rps.withinNoise, false, 'a halved rps is beyond the repeats\' noise');
    assert.equal(p50.withinNoise, false);
    assert.equal(rps.changePercent, ((rps.b - rps.a) / rps.a) * 100);
  }
  assert.deepEqual(comparison.onlyA, ['fast key2 concurrency 2', 'fast key2 concurrency 4']);
  assert.deepEqual(comparison.onlyB, ['extra key1 concurrency 2', 'extra key1 concurrency 4']);
  assert.deepEqual(comparison.settings, []);
  assert.deepEqual(comparison.regressions, [], 'no --fail-on-regression: nothing is a regression');

  const text = renderRunComparison(comparison, { a, b, nameA: 'before.json', nameB: 'after.json' });
  assert.match(text, /^A: before\.json · /);
  assert.match(text, /\n## key1: A -> B\n/);
  assert.match(text, /\n {10}2 {2}slow {4}rps +\d+ +\d+ +-\d+\.\d% {2}beyond noise\n/);
  assert.match(text, /\nonly in A \(not compared\): fast key2 concurrency 2, fast key2 concurrency 4\n/);
  assert.match(text, /\nonly in B \(not compared\): extra key1 concurrency 2, extra key1 concurrency 4\n/);
});

test('--fail-on-regression PCT: an rps down or a p99 up by more than PCT is a regression, exit 3', async () => {
  const [a, b] = [await load(BEFORE), await load(AFTER)];
  const strict = compareRuns(a, b, { failOnRegression: 30 });
  const slowRps = strict.regressions.filter(({ row, figure: entry }) => row.store === 'slow' && entry.name === 'rps');
  assert.equal(slowRps.length, 2, 'slow\'s rps fell by about half at both loads');
  assert.ok(
    strict.regressions.every(({ figure: entry }) => ['rps', 'latency.p99Ms'].includes(entry.name)),
    'only rps and p99 count',
  );
  for (const { figure: entry } of strict.regressions) {
    if (entry.name === 'rps') assert.ok(entry.changePercent < -30);
    else assert.ok(entry.changePercent > 30);
  }
  const error = regressionError(strict);
  assert.equal(exitCodeOf(error), 3);
  assert.equal(error.code, 'REGRESSION');
  assert.match(error.message, /^regression: slow key1 concurrency 2: rps -\d+\.\d% \(more than 30%\)(; B's machine was busy: .*)?$/m);
  assert.equal(regressionError(compareRuns(a, b, { failOnRegression: 900 })), null, 'nothing fell or rose by 900%');
  assert.equal(
    regressionError(compareRuns(a, a, { failOnRegression: 0 })),
    null,
    'a run against itself: no change at all',
  );
  const itself = compareRuns(a, a);
  assert.ok(
    itself.rows.every((row) => row.figures.every((entry) => entry.changePercent === 0 && entry.withinNoise === true)),
  );
});

test('compare\'s flags', () => {
  assert.deepEqual(parseArguments(['compare', 'a.json', 'b.json', '--fail-on-regression', '12.5']), {
    command: 'compare',
    help: false,
    options: { a: 'a.json', b: 'b.json', failOnRegression: 12.5, ignoreBusy: false },
    problems: [],
  });
  const ignoring = parseArguments(['compare', 'a.json', 'b.json', '--fail-on-regression', '5', '--ignore-busy']);
  assert.equal(ignoring.options.ignoreBusy, true);
  assert.deepEqual(parseArguments(['compare', 'a.json', 'b.json', '--ignore-busy']).problems, [
    '--ignore-busy goes with --fail-on-regression PCT: it says which regressions do not fail',
  ]);
  assert.deepEqual(
    parseArguments(['compare', 'a.json', 'b.json', 'c.json']).problems,
    ['unexpected argument "c.json"'],
  );
  assert.equal(parseArguments(['compare', '--help']).help, true);
  assert.deepEqual(parseArguments(['compare']).options, {
    a: undefined,
    b: undefined,
    failOnRegression: null,
    ignoreBusy: false,
  }, 'no files: the last two saved runs');
  assert.deepEqual(parseArguments(['compare', 'a.json']).problems, ['compare needs two results files (node test ' +
    'compare A.json B.json), or none for the last two runs kept in storebench-results/']);
});

test('each regression names the machine warnings of B\'s step beside it, in the table and the exit line', async () => {
  const [a, b] = [slowOnly(await load(BEFORE)), slowOnly(await load(AFTER))];
  const comparison = compareRuns(a, b, { failOnRegression: 30 });
  const slow = comparison.rows.find((row) => row.store === 'slow' && row.load === 2);
  assert.deepEqual(slow.machine.b.map(({ code, steps, of }) => `${code} ${steps}/${of}`), ['BUSY_MACHINE 3/3']);
  const slowSteps = b.steps.filter((step) => step.concurrency === 2);
  const busiest = Math.max(...slowSteps.map((step) => step.machine.othersCpuPercent));
  assert.equal(slow.machine.b[0].peak, busiest, 'the highest other-processes figure of the warned repeats');
  const error = regressionError(comparison);
  const busyNote = /; B's machine was busy: BUSY_MACHINE in 3 of 3 repeats \(other processes up to \d+% of a core\)$/;
  assert.ok(error.message.split('\n').every((line) => busyNote.test(line)), error.message);
  const text = renderRunComparison(comparison, { a, b });
  assert.match(text, /-\d+\.\d% {2}beyond noise, REGRESSION \(over 30%\), B's machine busy: BUSY_MACHINE 3\/3\n/);
  assert.match(text, /\nmachine warnings \(CPU_STEAL, BUSY_MACHINE\): 2 of 2 compared steps in A, 2 in B: /);
  assert.match(text, /\n4 of them on steps whose machine check warned in B .*add --ignore-busy not to fail on them\n/);

  // B quiet at concurrency 4 (its warnings taken off): A's warnings there do not excuse B.
  const mixed = compareRuns(a, slowOnly(await load(AFTER), (load) => load !== 4), { failOnRegression: 30 });
  const quietLine = /^regression: slow key1 concurrency 4: rps -\d+\.\d% \(more than 30%\)$/m;
  assert.match(regressionError(mixed).message, quietLine, 'no machine note where B did not warn');
});

test('--ignore-busy: regressions where B\'s machine check warned do not fail; the output says so', async () => {
  const [a, b] = [slowOnly(await load(BEFORE)), slowOnly(await load(AFTER))];
  const excused = compareRuns(a, b, { failOnRegression: 30, ignoreBusy: true });
  assert.deepEqual(excused.regressions, []);
  assert.equal(excused.ignored.length, 4, 'slow\'s rps and p99 at both loads');
  assert.equal(regressionError(excused), null);
  const text = renderRunComparison(excused, { a, b });
  assert.match(text, /regression \(over 30%\) not counted \(--ignore-busy\): B's machine busy: BUSY_MACHINE 3\/3\n/);
  assert.match(text, /\nno regression beyond 30% counted \(rps down or p99 up\)\n/);
  assert.match(text, /\n4 regression\(s\) beyond 30% not counted \(--ignore-busy\)/);

  // Where B's step was quiet the regression still counts, even though A's machine was busy.
  const quietB = slowOnly(await load(AFTER), (load) => load !== 4);
  const quiet4 = compareRuns(a, quietB, { failOnRegression: 30, ignoreBusy: true });
  const counted = quiet4.regressions.map(({ row, figure: entry }) => `${row.store} ${row.load} ${entry.name}`);
  assert.deepEqual(counted, ['slow 4 rps', 'slow 4 latency.p99Ms']);
  assert.equal(quiet4.ignored.length, 2);
  assert.equal(exitCodeOf(regressionError(quiet4)), 3);
});
