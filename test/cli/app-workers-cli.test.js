// The app's worker count from the command line: app.js --workers N (and its variables), and
// node test --app-workers N, which starts app.js so and records it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runDriverCli } from '../helpers/driver-cli.js';
import { startAppProcess } from '../../driver/app-process.js';
import { fromJson } from '../../result/format.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runApp = (args, env = {}) => spawnSync(process.execPath, ['app.js', ...args], {
  cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH, ...env }, timeout: 10_000,
});

// An environment where every server is embedded and no worker count is set.
function embeddedEnv() {
  const env = { ...process.env };
  for (const name of ['REDIS_URL', 'STOREBENCH_WORKERS', 'WEB_CONCURRENCY']) delete env[name];
  return env;
}

test('app.js: --workers 0, --workers x, and a bad STOREBENCH_WORKERS or WEB_CONCURRENCY are one line each, ' +
  'exit 2', () => {
  const cases = [
    [['--workers', '0'], {}, '--workers must be a whole number from 1 to 256, or auto (one per CPU), not "0"'],
    [['--workers', 'x'], {}, '--workers must be a whole number from 1 to 256, or auto (one per CPU), not "x"'],
    [['--workers', '257'], {}, '--workers must be a whole number from 1 to 256, or auto (one per CPU), ' +
      'not "257"'],
    [[], { STOREBENCH_WORKERS: '0' }, 'STOREBENCH_WORKERS must be a whole number from 1 to 256, or auto (one per ' +
      'CPU), not "0"'],
    [[], { WEB_CONCURRENCY: 'many' }, 'WEB_CONCURRENCY must be a whole number from 1 to 256, or auto (one per CPU), ' +
      'not "many"'],
  ];
  for (const [args, env, line] of cases) {
    const result = runApp(['--port', '0', '--stores', 'memory', ...args], env);
    assert.equal(result.status, 2, result.stderr);
    assert.equal(result.stdout, '');
    assert.deepEqual(result.stderr.trim().split('\n'), [`app.js: ${line}`, 'Run node app.js --help for usage.']);
  }
});

test('app.js: --workers beats STOREBENCH_WORKERS, which beats WEB_CONCURRENCY', async () => {
  const workersOf = async (args, env) => {
    const app = await startAppProcess({
      stores: ['memory'], args: ['--no-embedded', ...args], env: { ...embeddedEnv(), ...env },
    });
    try {
      return (await (await fetch(`${app.url}/healthz`)).json()).workers;
    } finally {
      await app.stop();
    }
  };
  assert.equal(await workersOf([], { WEB_CONCURRENCY: '2' }), 2);
  assert.equal(await workersOf([], { WEB_CONCURRENCY: '3', STOREBENCH_WORKERS: '2' }), 2);
  assert.equal(await workersOf(['--workers', '1'], { STOREBENCH_WORKERS: '2' }), 1);
});

test('node test --app-workers: refused with --target, --url and --direct, and when not 1 to 256 or auto, ' +
  'one line each, exit 2', async () => {
  const cases = [
    [['--target', 'http://127.0.0.1:9/', '--app-workers', '2'],
      '--app-workers sets the workers of the app.js node test starts: a running app (--target, --url) has its own: ' +
      'start it with node app.js --workers N'],
    [['--url', 'http://127.0.0.1:9/memory/key1', '--app-workers', '2'],
      '--app-workers sets the workers of the app.js node test starts: a running app (--target, --url) has its own: ' +
      'start it with node app.js --workers N'],
    [['--direct', '--app-workers', '2'],
      '--app-workers sets the workers of the app.js node test starts: --direct calls the stores in this process, ' +
      'with no app'],
    [['--app-workers', '0'], '--app-workers must be a whole number from 1 to 256, or auto (one per CPU), not "0"'],
    [['--app-workers', 'x'], '--app-workers must be a whole number from 1 to 256, or auto (one per CPU), not "x"'],
    [['--app-workers', '2', '-w', 'update', '--stores', 'memory,redis'],
      '--app-workers 2: memory refuses writes in an app of several workers (each has its own copy), and the update ' +
      'workload writes or loads records: leave memory out of --stores, or use --app-workers 1'],
  ];
  for (const [args, line] of cases) {
    const result = await runDriverCli(args);
    assert.equal(result.status, 2, result.stderr);
    assert.deepEqual(result.stderr.trim().split('\n'), [`node test: ${line}`, 'Run node test --help for usage.']);
  }
});

test('node test --app-workers 2 starts app.js with 2 workers and says so in the Result and the Settings line',
  async () => {
    const result = await runDriverCli([
      '--app-workers', '2', '--stores', 'memory,redis', '--keys', 'key1', '-c', '2', '-n', '40', '--warmup', '0',
      '--warmup-max', '0', '--no-control', '--json', '-',
    ], { env: embeddedEnv() });
    assert.equal(result.status, 0, result.stderr);
    const run = fromJson(result.stdout);
    assert.equal(run.settings.appWorkers, 2);
    assert.match(result.stderr, /^Settings: .*; app\.js in 2 worker processes$/m);
    // The app's peak memory adds up its three processes: each worker holds a whole app.
    assert.equal(run.peakRss.app, 'measured');
    assert.ok(run.peakRss.appBytes > 3 * 20 * 1024 ** 2, `${run.peakRss.appBytes} bytes`);
    assert.deepEqual(run.steps.map((step) => [step.store, step.requests, step.errors.total ?? 0]).sort(),
      [['memory', 40, 0], ['redis', 40, 0]]);
  });

test('node test --target an app of 2 workers, -w update: memory is skipped with the app\'s reason, redis is ' +
  'written and read back', async (t) => {
  const app = await startAppProcess({ stores: ['memory', 'redis'], args: ['--workers', '2'], env: embeddedEnv() });
  t.after(() => app.stop());
  const result = await runDriverCli([
    '--target', app.url, '-w', 'update', '--records', '40', '-c', '2', '-n', '80', '--warmup', '0',
    '--warmup-max', '0', '--no-control', '--json', '-',
  ]);
  assert.equal(result.status, 0, result.stderr);
  const run = fromJson(result.stdout);
  assert.equal(run.settings.appWorkers, null, 'the run started no app');
  const memory = run.skipped.find((skip) => skip.store === 'memory');
  assert.equal(memory.status, 'no writes');
  assert.match(memory.reason, /2 worker processes/);
  assert.deepEqual(run.steps.map((step) => step.store), ['redis']);
  assert.equal(run.verifications.length, 1);
  assert.equal(run.verifications[0].store, 'redis');
  assert.equal(run.verifications[0].mismatched, 0);
});
