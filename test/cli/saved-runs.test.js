// Every run kept, as a user meets it: node test writes its results.json and report.html to a
// folder of its own under STOREBENCH_RESULTS_DIR (./storebench-results by default) and names it
// last; a second run of the same stores names the first and what changed; one with other
// settings says which differ and compares nothing; a folder it cannot write is one warning; a
// run stopped by Ctrl-C keeps its finished steps; node test runs lists them, compare compares
// the last two.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { chmod, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { interruptAfter, runDriverCli } from '../helpers/driver-cli.js';
import { startTestServer } from '../helpers/driver-servers.js';
import { resultsSchema } from '../../result/schema.js';
import { validate } from '../helpers/json-schema.js';
import { saveRun } from '../../cli/saved-runs.js';
import { fromJson } from '../../result/format.js';

const TEST_JS = fileURLToPath(new URL('../../test.js', import.meta.url));
const SAVED = /\nsaved(?: \(interrupted: the \d+ step\(s\) finished\))?: (\S+)\/ \(results\.json, report\.html; /;

async function tempDir(t, name) {
  const dir = await mkdtemp(join(tmpdir(), `storebench-${name}-`));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const envWith = (dir) => ({ ...process.env, STOREBENCH_RESULTS_DIR: dir });

// A server whose `fast` holds each request 1 ms and `slow` 6 ms, each saying so in Server-Timing.
async function storeServer(t) {
  const holds = { fast: 1, slow: 6 };
  const server = createServer((request, response) => {
    const hold = holds[request.url.split('/')[1]] ?? 0;
    setTimeout(() => {
      response.writeHead(200, { 'server-timing': `store;dur=${hold}` });
      response.end('{"message":"Text data"}');
    }, hold);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  }));
  return { url: `http://127.0.0.1:${server.address().port}` };
}

// Four short steps: fast and slow at concurrency 1 and 2.
const quickArgs = (server, extra = []) => ['--url', `${server.url}/fast/key1`, '--url', `${server.url}/slow/key1`,
  '-c', '1,2', '-n', '60', '--warmup', '0', ...extra];

// node test in `cwd`, with `env` as it is (no results folder added).
function runIn(cwd, args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TEST_JS, ...args], { cwd, env });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

const lastLine = (text) => text.trimEnd().split('\n').at(-1);
const tablesOf = (text) => text.slice(0, text.indexOf('\n## Summary: '));

test('a run keeps its results.json (valid by the schema) and report.html in a folder named last; ' +
  'node test report of it prints the same tables', async (t) => {
  const server = await startTestServer(t, { sleepMs: 2 });
  const dir = await tempDir(t, 'kept');
  const run = await runDriverCli(quickArgs(server), { env: envWith(dir) });
  assert.equal(run.status, 0, run.stderr);
  const [, folder] = SAVED.exec(run.stdout);
  assert.match(lastLine(run.stdout), /^saved: /, 'the folder is named in the last line');
  assert.match(folder, /\/\d{8}T\d{6}Z-[0-9a-f]{6}$/);
  assert.deepEqual((await readdir(folder)).sort(), ['report.html', 'results.json'], 'no temporary file left');
  const json = JSON.parse(await readFile(join(folder, 'results.json'), 'utf8'));
  assert.deepEqual(validate(resultsSchema(), json), []);
  assert.equal(json.interrupted, false);
  assert.match(await readFile(join(folder, 'report.html'), 'utf8'), /^<!DOCTYPE html>/i);
  const report = await runDriverCli(['report', join(folder, 'results.json')]);
  assert.equal(report.status, 0, report.stderr);
  assert.equal(tablesOf(report.stdout), tablesOf(run.stdout), 'the same tables, comparison and all');
  assert.match(report.stdout, /\n## Summary: /);
  const verbose = await runDriverCli(['report', join(folder, 'results.json'), '--verbose']);
  assert.ok(verbose.stdout.split('\n').length > report.stdout.split('\n').length, '--verbose prints more');
  assert.match(verbose.stdout, /\n## Comparison: key1 \(rank: /, '--verbose: the comparison\'s row per store and level');

  const none = await runDriverCli(quickArgs(server, ['--no-save']), { env: envWith(await tempDir(t, 'unkept')) });
  assert.equal(none.status, 0, none.stderr);
  assert.doesNotMatch(none.stdout, /saved/);
  assert.match(lastLine(none.stdout), /^key1: |^to tell the stores apart better: /, 'the summary is the last thing');
});

test('a second run names the first and what changed; one with other settings compares nothing and says ' +
  'which settings differ; runs lists them and compare compares the last two', async (t) => {
  const server = await storeServer(t);
  const dir = await tempDir(t, 'against');
  const env = envWith(dir);
  const first = await runDriverCli(quickArgs(server), { env });
  assert.equal(first.status, 0, first.stderr);
  assert.doesNotMatch(first.stdout, /against the last run/, 'nothing to compare with yet');
  const firstDate = JSON.parse(await readFile(join(SAVED.exec(first.stdout)[1], 'results.json'), 'utf8')).system.date;

  const second = await runDriverCli(quickArgs(server), { env });
  assert.equal(second.status, 0, second.stderr);
  assert.match(second.stdout, new RegExp(`\\nagainst the last run \\(${firstDate.replace(/\./g, '\\.')}\\): 4 step\\(s\\) ` +
    'compared; rps .*; no change judged against noise: one run per step \\(--repeat 3 on both runs judges them\\)\\n'));
  assert.match(second.stdout, /\nthe summary's ranks (are the same as then|moved since: .*)\n/);

  const other = await runDriverCli(quickArgs(server, ['-n', '40']), { env });
  assert.equal(other.status, 0, other.stderr);
  assert.match(other.stdout, /\nthe last run of these stores \(.*\) is not compared: its settings differ: requests: 60 vs 40\n/);
  assert.doesNotMatch(other.stdout, /against the last run/);

  const runs = await runDriverCli(['runs'], { env });
  assert.equal(runs.status, 0, runs.stderr);
  const lines = runs.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 3);
  for (const line of lines) {
    assert.match(line, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}fast, slow {2}concurrency 1, 2 {2}fastest by store time: fast {2}\S+$/);
  }
  const compared = await runDriverCli(['compare'], { env });
  assert.equal(compared.status, 0, compared.stderr);
  assert.match(compared.stdout, /^A: .*results\.json · /);
  assert.match(compared.stdout, /\nsettings differ: requests: 60 vs 40\n/);

  const empty = await runDriverCli(['compare'], { env: envWith(await tempDir(t, 'none')) });
  assert.equal(empty.status, 2);
  assert.match(empty.stderr, /compare needs two results files, or two runs kept in .* \(it holds 0\)/);
});

test('a folder that cannot be written is one warning: the run prints its tables and exits 0', async (t) => {
  const server = await startTestServer(t, { sleepMs: 2 });
  const cwd = await mkdtemp(join(tmpdir(), 'storebench-readonly-'));
  t.after(async () => {
    await chmod(cwd, 0o755);
    await rm(cwd, { recursive: true, force: true });
  });
  // Root writes through a folder's mode, so as root a file stands where the folder would go.
  if (process.getuid?.() === 0) await writeFile(join(cwd, 'storebench-results'), 'in the way');
  else await chmod(cwd, 0o555);
  const env = { ...process.env };
  delete env.STOREBENCH_RESULTS_DIR;
  const run = await runIn(cwd, quickArgs(server), env);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /\n## Summary: /);
  const warnings = run.stderr.split('\n').filter((line) => line.startsWith('warning: this run was not saved'));
  assert.equal(warnings.length, 1, run.stderr);
  assert.match(warnings[0], /^warning: this run was not saved \((a file is in the way|permission denied)/);
  assert.doesNotMatch(run.stdout, /\nsaved: /);
});

test('saving writes each file whole: a failure leaves no temporary file, and the error is the file system\'s',
  async (t) => {
    const dir = await tempDir(t, 'whole');
    const result = fromJson(await readFile(new URL('../fixtures/runs/one-store.json', import.meta.url), 'utf8'));
    const folder = await saveRun(result, { dir });
    assert.deepEqual((await readdir(folder)).sort(), ['report.html', 'results.json']);
    assert.deepEqual(fromJson(await readFile(join(folder, 'results.json'), 'utf8')), result);
    await writeFile(join(dir, 'file'), 'a file');
    await assert.rejects(saveRun(result, { dir: join(dir, 'file', 'below') }), /ENOTDIR|EEXIST/);
    const interrupted = await saveRun({ ...result, interrupted: true }, { dir });
    assert.match(interrupted, /-interrupted$/);
    assert.match(await saveRun(result, { dir, failed: true }), /-failed$/);
  });

test('Ctrl-C mid-run keeps the finished steps, marked interrupted', async (t) => {
  const server = await startTestServer(t, { sleepMs: 20 });
  const dir = await tempDir(t, 'interrupted');
  const args = ['--url', `${server.url}/memory/key1`, '-c', '1,1,1,1,1,1', '-n', '25', '--warmup', '0'];
  const stopped = await runDriverCli(args, {
    env: envWith(dir),
    onSpawn: interruptAfter(server, 30),
  });
  assert.equal(stopped.status, 130, stopped.stderr);
  const [, folder] = SAVED.exec(stopped.stdout);
  assert.match(folder, /-interrupted$/);
  assert.match(lastLine(stopped.stdout), /^saved \(interrupted: the \d+ step\(s\) finished\): /);
  const saved = JSON.parse(await readFile(join(folder, 'results.json'), 'utf8'));
  assert.equal(saved.interrupted, true);
  assert.ok(saved.steps.length >= 1 && saved.steps.length < 6, `${saved.steps.length} steps finished`);
  const runs = await runDriverCli(['runs'], { env: envWith(dir) });
  assert.match(runs.stdout, / {2}\[interrupted\]\n$/);
});
