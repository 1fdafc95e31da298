// The library as a user meets it: the examples/ folder run as a user runs it, and a scratch
// project that installs storebench from its path and benchmarks the memory store in five lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runDriverCli } from '../helpers/driver-cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function spawnIn(cwd, command, args) {
  return new Promise((resolve) => {
    // Without NODE_TEST_CONTEXT: a node --test child would otherwise report to this runner, not print.
    const { NODE_TEST_CONTEXT, ...env } = process.env;
    const child = spawn(command, args, { cwd, env: { ...env, npm_config_update_notifier: 'false' } });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

test('examples/ci-gate.js passes a met threshold (exit 0) and fails a missed one (exit 3, its row FAIL)', async () => {
  const env = { ...process.env, REQUESTS: '300' };
  const met = await runDriverCli(['memory:p99<1000ms', 'errors=0'], { script: 'examples/ci-gate.js', env });
  assert.equal(met.status, 0, met.stderr);
  assert.match(met.stdout, /all 2 checks passed/);
  const missed = await runDriverCli(['memory:rps>=100000000'], { script: 'examples/ci-gate.js', env });
  assert.equal(missed.status, 3, missed.stderr);
  assert.match(missed.stdout, /memory:rps>=100000000 +memory +2 +2 .*FAIL/);
});

test('examples/benchmark.test.js runs under node --test and passes', async () => {
  const { status, stdout, stderr } = await spawnIn(root, process.execPath, ['--test', 'examples/benchmark.test.js']);
  assert.equal(status, 0, `${stdout}\n${stderr}`);
  assert.match(stdout, /^# pass 1$/m);
  assert.match(stdout, /^# fail 0$/m);
});

test('a scratch project installs storebench from its path, runs the memory store in five lines, ' +
  'and gets the CLI\'s words for a bad value', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-scratch-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const manifest = { name: 'scratch', version: '1.0.0', type: 'module', private: true };
  await writeFile(join(dir, 'package.json'), JSON.stringify(manifest));
  // A path install links the folder: no registry is asked, its dependencies are the checkout's.
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const install = await spawnIn(dir, npm, [
    'install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', root,
  ]);
  assert.equal(install.status, 0, install.stderr);
  await writeFile(join(dir, 'bench.js'), [
    "import { run } from 'storebench';",
    'const options = JSON.parse(process.argv[2]);',
    'const result = await run(options).catch((error) => ({ code: error.code, message: error.message }));',
    'console.log(JSON.stringify(result.code ? result : { format: result.format, steps: result.steps.length }));',
  ].join('\n'));
  const options = { direct: true, stores: ['memory'], keys: ['key1'], concurrency: [5], requests: 200, warmup: 0 };
  const good = await spawnIn(dir, process.execPath, ['bench.js', JSON.stringify(options)]);
  assert.equal(good.status, 0, good.stderr);
  assert.deepEqual(JSON.parse(good.stdout), { format: 'storebench-results/6', steps: 1 });

  const bad = await spawnIn(dir, process.execPath, ['bench.js', JSON.stringify({ ...options, concurrency: [0] })]);
  const cli = await runDriverCli([
    '--direct', '--stores', 'memory', '--keys', 'key1', '-c', '0', '-n', '200', '--warmup', '0',
  ]);
  assert.equal(cli.status, 2);
  const { code, message } = JSON.parse(bad.stdout);
  assert.equal(code, 'USAGE');
  assert.equal(message, '-c/--concurrency: "0" is not a positive whole number');
  assert.ok(cli.stderr.includes(message), cli.stderr);

  // The target app's factory, through the package's second entry.
  await writeFile(join(dir, 'app.js'), [
    "import { startApp } from 'storebench/app';",
    "const app = await startApp({ port: 0, stores: ['memory'], embedded: false });",
    "const answer = await fetch(new URL('/memory/key1', app.url));",
    'console.log(answer.status);',
    'await app.close();',
  ].join('\n'));
  const app = await spawnIn(dir, process.execPath, ['app.js']);
  assert.equal(app.status, 0, app.stderr);
  assert.equal(app.stdout.trim(), '200');
});
