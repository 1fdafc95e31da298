// node test compare as a user runs it, on two saved runs with known answers
// (test/fixtures/runs/make-runs.js made them): `slow` held each request 8 ms in before.json and
// 16 ms in after.json, so its rps halves and its latency doubles, beyond any noise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromJson, toJson } from '../../result/format.js';
import { compareRuns } from '../../result/run-comparison.js';
import { slowOnly } from '../helpers/busy-runs.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BEFORE = 'test/fixtures/runs/before.json';
const AFTER = 'test/fixtures/runs/after.json';
const load = async (file) => fromJson(await readFile(new URL(`../../${file}`, import.meta.url), 'utf8'));
const cli = (args) =>
  spawnSync(process.execPath, ['test.js', ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 });
const writeRun = async (dir, name, result) => {
  const file = join(dir, name);
  await writeFile(file, toJson(result));
  return file;
};

test('node test compare as a user runs it: 0, 3 with a regression, 2 for bad input', () => {
  const plain = cli(['compare', BEFORE, AFTER]);
  assert.equal(plain.status, 0, plain.stderr);
  assert.match(plain.stdout, /## key1: A -> B/);
  const failing = cli(['compare', BEFORE, AFTER, '--fail-on-regression', '30']);
  assert.equal(failing.status, 3);
  assert.match(failing.stdout, /REGRESSION \(over 30%\)/);
  assert.match(failing.stderr, /^node test: regression: slow key1 concurrency 2: rps -\d+\.\d% \(more than 30%\)(; B's machine was busy: .*)?$/m);
  const bad = cli(['compare', BEFORE, '--fail-on-regression', 'lots']);
  assert.equal(bad.status, 2);
  assert.equal(
    bad.stderr,
    'node test: compare needs two results files (node test compare A.json B.json), or none for the last two runs ' +
    'kept in storebench-results/\nnode test: --fail-on-regression must be a percentage from 0 to 1000 (e.g. 10), ' +
    'not "lots"\nRun node test --help for usage.\n',
  );
  const notResults = cli(['compare', BEFORE, 'package.json']);
  assert.equal(notResults.status, 2);
  assert.match(notResults.stderr, /package\.json: not a storebench results file/);
});

test('a file compared with itself, or with a copy, says the runs are identical', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-compare-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const copy = join(dir, 'copy.json');
  await copyFile(new URL(`../../${BEFORE}`, import.meta.url), copy);
  for (const other of [BEFORE, copy]) {
    const run = cli(['compare', BEFORE, other, '--fail-on-regression', '10']);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /\nidentical runs: A and B hold the same 24 steps \(same start times, same histograms\)/);
    assert.match(run.stdout, /so every change is 0 and says nothing about noise or regressions/);
  }
  const apart = cli(['compare', BEFORE, AFTER]);
  assert.doesNotMatch(apart.stdout, /identical runs/);
  assert.equal(compareRuns(await load(BEFORE), await load(AFTER)).identical, false);
});

test('--ignore-busy: regressions where B\'s machine check warned do not fail; the output says so ' +
  '(node test compare)', async (t) => {
  const [a, b] = [slowOnly(await load(BEFORE)), slowOnly(await load(AFTER))];
  const dir = await mkdtemp(join(tmpdir(), 'storebench-compare-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const [fileA, fileB] = [await writeRun(dir, 'a.json', a), await writeRun(dir, 'b.json', b)];
  const run = cli(['compare', fileA, fileB, '--fail-on-regression', '30', '--ignore-busy']);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /4 regression\(s\) beyond 30% not counted \(--ignore-busy\)/);
  const strict = cli(['compare', fileA, fileB, '--fail-on-regression', '30']);
  assert.equal(strict.status, 3, 'by default a busy machine does not excuse a regression');
  assert.match(strict.stderr, /B's machine was busy: BUSY_MACHINE in 3 of 3 repeats/);
});
