// npm run load:cf run for real against a stand-in for cf (the real cf CLI is in neither Debian
// nor npm): its run-task starts each task's command as a local process with the app's
// environment, as Cloud Foundry starts a task in a container of the app's droplet. The parts
// really run, against a real app.js, and send their results through its results area.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAppProcess } from '../../driver/app-process.js';
import { which } from '../../util/which.js';
import { parseLoadArguments, routeOf, taskCommand } from '../../scripts/cf/load-parts.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const TOKEN = 'Cf-Load-Test-Token-7c2e91a4';
const GUID = '4b9a1f2e-0c3d-4e5f-8a6b-7c8d9e0f1a2b';

/**
 * A stand-in cf: `app NAME` shows the route, `app NAME --guid` the GUID, `run-task APP --command
 * CMD --name N` records its arguments and starts `sh -c CMD` in the repository (the droplet) with
 * the app's environment (APP_ENV_FILE), detached, as the platform would; a task named in
 * SKIP_TASKS is accepted and never started (a task the platform lost).
 */
const standInCf = ({ route, log, appEnvFile, taskLogDir }) => {
  const appEnv = JSON.stringify(appEnvFile);
  const repository = JSON.stringify(root);
  return `#!${process.execPath}
const { appendFileSync, readFileSync, openSync } = require('fs');
const { spawn } = require('child_process');
const args = process.argv.slice(2);
appendFileSync(${JSON.stringify(log)}, JSON.stringify(args) + '\\n');
if (args[0] === 'app' && args.includes('--guid')) { console.log(${JSON.stringify(GUID)}); process.exit(0); }
if (args[0] === 'app') {
  console.log('Showing health and status for app ' + args[1] + ' in org o / space s as me...\\n');
  console.log('name:              ' + args[1] + '\\nrequested state:   started\\nroutes:            ${route}\\n');
  process.exit(0);
}
if (args[0] === 'run-task') {
  const command = args[args.indexOf('--command') + 1];
  const name = args[args.indexOf('--name') + 1];
  if ((process.env.SKIP_TASKS || '').split(',').some((suffix) => suffix && name.endsWith('-' + suffix))) {
    console.log('task name: ' + name);
    process.exit(0);
  }
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...JSON.parse(readFileSync(${appEnv}, 'utf8')) };
  const out = openSync(${JSON.stringify(taskLogDir)} + '/' + name + '.log', 'a');
  spawn('sh', ['-c', command], { cwd: ${repository}, env, detached: true, stdio: ['ignore', out, out] }).unref();
  console.log('Task has been submitted successfully for execution.\\ntask name: ' + name);
  process.exit(0);
}
console.error('stand-in cf: unknown command ' + args[0]);
process.exit(1);
`;
};

async function setUp(t) {
  const work = mkdtempSync(join(tmpdir(), 'storebench-cfload-'));
  t.after(() => rmSync(work, { recursive: true, force: true }));
  const app = await startAppProcess({ stores: ['memory'], env: { ...process.env, STOREBENCH_WRITE_TOKEN: TOKEN } });
  t.after(() => app.stop());
  const route = app.url.replace(/^http:\/\//, '');
  const bin = join(work, 'bin');
  const log = join(work, 'cf.log');
  const appEnvFile = join(work, 'app-env.json');
  writeFileSync(appEnvFile, JSON.stringify({ STOREBENCH_WRITE_TOKEN: TOKEN }), { mode: 0o600 });
  rmSync(bin, { force: true, recursive: true });
  mkdtempSync(join(work, 'x'));
  const { mkdirSync } = await import('node:fs');
  mkdirSync(bin);
  mkdirSync(join(work, 'tasks'));
  symlinkSync(process.execPath, join(bin, 'node'));
  symlinkSync(which('sh'), join(bin, 'sh'));
  writeFileSync(join(bin, 'cf'), standInCf({ route, log, appEnvFile, taskLogDir: join(work, 'tasks') }));
  chmodSync(join(bin, 'cf'), 0o755);
  return { work, app, bin, log };
}

function loadCf(args, { bin, work, env = {} }) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'scripts/cf/load.js'), ...args], {
      cwd: work,
      env: { PATH: bin, HOME: process.env.HOME, STOREBENCH_WRITE_TOKEN: TOKEN, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const driverFlags = [
  '--stores', 'memory', '--keys', 'key1', '-c', '6', '-n', '900', '--warmup', '0', '--warmup-max', '0',
];

test('load:cf runs N parts as stand-in cf tasks, collects them from the app and merges exact counts', async (t) => {
  const env = await setUp(t);
  const out = join(env.work, 'all.json');
  const { code, stdout, stderr } = await loadCf([
    '--parts', '3', '--app', 'storebench', ...driverFlags,
    '--seed', '42', '--start-at', '+12s', '--json', out, '--wait', '60',
  ], env);
  assert.equal(code, 0, stderr);
  assert.match(stdout, /^total\s+900\b/m, 'the merged table');
  assert.match(stderr, /3 tasks of storebench against http:\/\/127\.0\.0\.1:\d+, starting at/);
  const merged = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(merged.steps.length, 1);
  assert.equal(merged.steps[0].requests, 900, 'the parts\' shares add up to -n exactly');
  assert.equal(merged.steps[0].machines.length, 3);
  assert.deepEqual(merged.steps[0].machines.map((machine) => machine.requests), [300, 300, 300]);
  assert.deepEqual(merged.merged.map((entry) => entry.file), ['part-1-of-3', 'part-2-of-3', 'part-3-of-3']);
  assert.equal(merged.start.parts.length, 3, 'each part\'s start kept');

  const calls = readFileSync(env.log, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  const tasks = calls.filter((args) => args[0] === 'run-task');
  assert.equal(tasks.length, 3);
  const starts = new Set(tasks.map((args) => /--start-at (\S+)/.exec(args[3])[1]));
  assert.equal(starts.size, 1, 'one --start-at for every part');
  assert.deepEqual(tasks.map((args) => /--part (\d+\/\d+)/.exec(args[3])[1]), ['1/3', '2/3', '3/3']);
  for (const args of tasks) assert.match(args[3], /^node test\.js .*--seed 42 /);
  // The token reached the tasks through their environment only.
  for (const text of [stdout, stderr, readFileSync(env.log, 'utf8'), readFileSync(out, 'utf8')]) {
    assert.ok(!text.includes(TOKEN));
  }
});

test('load:cf names a part whose result never came, and exits 1', async (t) => {
  const env = await setUp(t);
  const { code, stdout, stderr } = await loadCf([
    '--parts', '2', '--app', 'storebench', ...driverFlags, '--seed', '7', '--start-at', '+6s', '--wait', '8',
  ], { ...env, env: { SKIP_TASKS: '2' } });
  assert.equal(code, 1, stderr);
  assert.match(stderr, /^npm run load:cf: part 2 of 2: no result by the deadline \(cf tasks storebench; cf logs storebench --recent\)$/m);
  assert.doesNotMatch(stderr, /load:cf: part 1 of 2/);
  assert.match(stderr, /1 of 2 parts in/);
  assert.equal(stdout, '');
  assert.ok(!stderr.includes(TOKEN));
});

test('load:cf names a part that failed, with its last line, and bad flags exit 2 before any task', async (t) => {
  const env = await setUp(t);
  // --start-at already passed by the time the tasks are ready: each part stops as NOT_READY.
  const late = await loadCf([
    '--parts', '2', '--app', 'storebench', ...driverFlags, '--seed', '7', '--start-at', '+0.2s', '--wait', '30',
  ], env);
  assert.equal(late.code, 1, late.stderr);
  assert.match(late.stderr, /^npm run load:cf: part 1 of 2 failed: exit 1: .*not ready in time for --start-at/m);
  assert.match(late.stderr, /^npm run load:cf: part 2 of 2 failed: exit 1: /m);

  const before = readFileSync(env.log, 'utf8');
  const bad = await loadCf(['--parts', 'x', '--app', 'storebench', '-c', '0'], env);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /npm run load:cf: npm run load:cf needs --parts N \(1 to 1000\), not "x"/);
  assert.doesNotMatch(bad.stderr, /\n\s+at /, 'no stack trace');
  assert.equal(readFileSync(env.log, 'utf8'), before, 'no cf call');
});

test('the task command: part flags, the route as --target, no token; routes parsed from cf app', () => {
  const command = taskCommand({
    index: 2,
    parts: 4,
    seed: 9,
    startAt: new Date('2030-01-01T00:00:00Z'),
    driver: ['--stores', 'redis', '-c', '40'],
    target: 'https://sb.example.com',
    url: 'https://sb.example.com',
    run: 'abc',
    guid: GUID,
  });
  assert.match(command, /^node test\.js --stores redis -c 40 --target https:\/\/sb\.example\.com --part 2\/4 --seed 9 --start-at 2030-01-01T00:00:00\.000Z -q --json /);
  assert.match(command, /node scripts\/cf\/send-result\.js https:\/\/sb\.example\.com abc 2 4b9a1f2e-/);
  assert.equal(routeOf('name: x\nroutes:  sb.example.com, other.example.com\n'), 'https://sb.example.com');
  assert.equal(routeOf('routes: 127.0.0.1:3000\n'), 'http://127.0.0.1:3000');
  assert.throws(() => routeOf('routes:\n'), /no route/);
  const { problems } = parseLoadArguments(['--parts', '2', '--app', 'a', '--direct', '--memory', 'lots'], { env: {} });
  assert.ok(problems.some((problem) => /--memory must be a size/.test(problem)), problems.join('\n'));
});
