// End to end: `node test` as a user runs it, against the embedded app and local servers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { interruptAfter, runDriverCli, withoutSavedLine } from '../helpers/driver-cli.js';
import { startTestServer } from '../helpers/driver-servers.js';
import { unavailable } from '../helpers/services.js';
import { startAppProcess } from '../../driver/app-process.js';
import { decodeHistogram } from '../../result/recorder.js';
import { fromJson } from '../../result/format.js';
import { SYSTEM_DIRS, which } from '../../util/which.js';
import { renderRun } from '../../report/run-text.js';

const HEADER = 'maxRequests  concurrency  rps     meanLatencyMs  maxLatencyMs  minLatencyMs  ' +
  'p50     p90     p99     errors';
// The app says its store's time (Server-Timing): its tables show it after p99.
const APP_HEADER = HEADER.replace('p99     errors', 'p99     storeP50  storeP99  storeMean  errors');

async function tempDir(t) {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-driver-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const rowsOf = (stdout, url) => {
  const section = stdout.split('\n## ').find((part) => part.startsWith(url) || part.startsWith(`## ${url}`));
  return section?.split('\n').filter((line) => /^\s+\d+\s+\d+\s+\d+\s/.test(line)) ?? [];
};

test('node test, embedded default: tiny sweep of memory and redis, tables, comparison and --json file', async (t) => {
  const dir = await tempDir(t);
  const jsonFile = join(dir, 'results.json');
  const csvFile = join(dir, 'results.csv');
  const result = await runDriverCli([
    '-c', '1,2', '-n', '50', '--warmup', '10', '--order', 'sequential', '--stores', 'memory,redis', '--keys', 'key1',
    '--json', jsonFile, '--csv', csvFile,
  ]);
  if (/skipped redis/.test(result.stdout)) return unavailable(t, `the app could not run redis: ${result.stdout.match(/skipped redis: .*/)[0]}`);
  assert.equal(result.status, 0, result.stderr);
  const { stdout } = result;
  assert.match(stdout, /^System: {3}Node v\d+\.\d+\.\d+ · .* · \d+ x .+ · engine fast \(default\)$/m);
  assert.match(stdout, /^Target: {3}app\.js started as a child process at http:\/\/127\.0\.0\.1:\d+$/m);
  assert.match(stdout, /^Date: {5}\d{4}-\d\d-\d\dT/m);
  const base = stdout.match(/child process at (http:\/\/127\.0\.0\.1:\d+)/)[1];
  for (const store of ['memory', 'redis']) {
    assert.ok(stdout.includes(`## ${base}/${store}/key1\n`), `no table for ${store}`);
    const rows = rowsOf(stdout, `${base}/${store}/key1`);
    assert.equal(rows.length, 2, `rows for ${store}:\n${stdout}`);
    assert.match(rows[0], /^\s+50\s+1\s+\d+(\s+\d+\.\d\d){6}(\s+\d+\.\d\d\d?){3}( {2}(-|app|driver|machine|latency|server redis))? +0$/,
      'latency, then store time, the bottleneck where it was told, and errors');
    assert.match(rows[1], /^\s+50\s+2\s/);
  }
  const withBottleneck = APP_HEADER.replace('storeMean  errors', 'storeMean  bottleneck  errors');
  assert.equal(stdout.split('\n').filter((line) => line === withBottleneck || line === APP_HEADER).length, 2);
  assert.match(stdout, /## Comparison: key1/);
  assert.match(stdout, /warning: statistically weak, under 1000 samples or 1 s \(use a larger -n or -t\): concurrency 1 \(50 in \d+\.\d\d s\), concurrency 2 \(50 in/);

  const report = JSON.parse(await readFile(jsonFile, 'utf8'));
  assert.equal(report.system.node, process.version);
  assert.ok(report.system.cpuCount >= 1 && report.system.cpuModel);
  assert.match(report.system.target, /^app\.js started as a child process at http:\/\/127\.0\.0\.1:\d+$/);
  assert.ok(!Number.isNaN(Date.parse(report.system.date)));
  assert.deepEqual(report.settings.concurrency, [1, 2]);
  assert.equal(report.settings.requests, 50);
  assert.equal(report.steps.length, 4);
  assert.equal(report.format, 'storebench-results/6');
  for (const step of report.steps) {
    assert.equal(step.responses, 50);
    assert.deepEqual(step.errors, { total: 0, byKind: {}, samples: {} });
    assert.ok(step.latency.meanMs > 0 && step.latency.p50Ms > 0 && step.latency.p999Ms >= step.latency.p99Ms);
    assert.equal(decodeHistogram(step.histogram).totalCount, 50);
    assert.ok(Date.parse(step.startedAt) >= Date.parse(report.system.date) &&
      Date.parse(step.finishedAt) >= Date.parse(step.startedAt));
    assert.equal(step.warnings[0].code, 'WEAK_SAMPLE');
  }
  assert.deepEqual(report.steps.map((s) => `${s.store}/${s.key}@${s.concurrency}`),
    ['memory/key1@1', 'memory/key1@2', 'redis/key1@1', 'redis/key1@2']);
  assert.equal(report.comparison.length, 2);
  const csv = (await readFile(csvFile, 'utf8')).trim().split('\n');
  assert.equal(csv.length, 5);

  // The saved run prints again exactly as it printed (but the line naming the folder it was kept in).
  const again = await runDriverCli(['report', jsonFile]);
  assert.equal(again.status, 0, again.stderr);
  assert.equal(again.stdout, withoutSavedLine(stdout));

  // The app child is stopped: nothing answers at its address any more.
  await assert.rejects(fetch(`${base}/healthz`));
});

test('--json - puts pure JSON on stdout and the tables on stderr', async (t) => {
  const server = await startTestServer(t);
  const result = await runDriverCli([
    '--url', `${server.url}/memory/key1`, '-c', '1', '-n', '30', '--warmup', '0', '--json', '-',
  ]);
  assert.equal(result.status, 0, result.stderr);
  const report = JSON.parse(result.stdout);
  assert.equal(report.steps.length, 1);
  assert.equal(report.steps[0].responses, 30);
  assert.match(result.stderr, /## http:\/\/127\.0\.0\.1:\d+\/memory\/key1/);
  assert.ok(result.stderr.includes(HEADER) || result.stderr.includes(HEADER.replace('p99     errors',
    'p99     bottleneck  errors')), 'the table, with the bottleneck where it was told');
  assert.equal(renderRun(fromJson(result.stdout)), withoutSavedLine(result.stderr),
    'stderr holds exactly the tables of that JSON, and where the run was kept');
});

test('node test report FILE prints a saved run\'s tables exactly as the run printed them', async (t) => {
  const server = await startTestServer(t);
  const dir = await tempDir(t);
  const jsonFile = join(dir, 'run.json');
  const csvFile = join(dir, 'run.csv');
  // Two URLs (one with a password, which must stay out of every output), a timed sweep.
  const withPassword = `${server.url.replace('http://', 'http://bench:s3cret@')}/redis/key1`;
  const run = await runDriverCli([
    '--url', `${server.url}/memory/key1`, '--url', withPassword, '-c', '1,2', '-t', '0.3', '--warmup', '20',
    '--json', jsonFile, '--csv', csvFile,
  ]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /timed steps \(-t\): maxRequests = requests sent/);
  assert.match(run.stdout, /## Comparison: key1/);
  const report = await runDriverCli(['report', jsonFile]);
  assert.equal(report.status, 0, report.stderr);
  assert.equal(report.stderr, '');
  assert.equal(report.stdout, withoutSavedLine(run.stdout));
  for (const text of [run.stdout, run.stderr, await readFile(jsonFile, 'utf8'), await readFile(csvFile, 'utf8')]) {
    assert.ok(!text.includes('s3cret'));
  }
  // The CSV's maxRequests column holds what the table's does for a timed step: the requests sent.
  const saved = JSON.parse(await readFile(jsonFile, 'utf8'));
  const [header, ...rows] = (await readFile(csvFile, 'utf8')).trim().split('\n');
  const column = header.split(',').indexOf('maxRequests');
  assert.deepEqual(rows.map((row) => Number(row.split(',')[column])), saved.steps.map((step) => step.requests));
});

test('--rps runs the open model, one step per rate, with a targetRps column', async (t) => {
  const server = await startTestServer(t);
  const result = await runDriverCli(['--url', `${server.url}/a/b`, '--rps', '100,200', '-t', '0.5', '--warmup', '0']);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /Settings: open model at 100, 200 rps; 0\.5 s per step/);
  assert.match(result.stdout, /p99 {5}targetRps( {2}bottleneck)? {2}errors/);
  assert.equal(rowsOf(result.stdout, `${server.url}/a/b`).length, 2);
  assert.match(result.stdout, /open model: concurrency = most requests in flight/);
});

test('Ctrl-C prints the steps finished so far, writes the results file and exits 130', async (t) => {
  const server = await startTestServer(t, { sleepMs: 20 });
  const dir = await tempDir(t);
  const jsonFile = join(dir, 'partial.json');
  // Six steps of 25 requests (~0.5 s each); interrupt once the server has seen the first step
  // and a bit of the second.
  const result = await runDriverCli([
    '--url', `${server.url}/redis/key1`, '-c', '1,1,1,1,1,1', '-n', '25', '--warmup', '0', '--json', jsonFile,
  ], {
    onSpawn: interruptAfter(server, 30),
  });
  assert.equal(result.status, 130, result.stderr);
  assert.match(result.stderr, /interrupted: writing the steps finished so far/);
  const report = JSON.parse(await readFile(jsonFile, 'utf8'));
  assert.equal(report.interrupted, true);
  assert.ok(report.steps.length >= 1 && report.steps.length < 6, `${report.steps.length} steps finished`);
  assert.match(result.stdout, new RegExp(`interrupted: ${report.steps.length} step\\(s\\) finished`));
  assert.equal(rowsOf(result.stdout, `${server.url}/redis/key1`).length, report.steps.length);
  const again = await runDriverCli(['report', jsonFile]);
  assert.equal(again.stdout, withoutSavedLine(result.stdout),
    'the partial run re-renders as it printed, interruption included');
});

test('an embedded app that dies mid-sweep: finished steps printed and written, then one line and exit 1', async (t) => {
  const dir = await tempDir(t);
  const jsonFile = join(dir, 'died.json');
  let killed = false;
  const result = await runDriverCli([
    '--stores', 'memory', '--keys', 'key1,key2,key3', '-c', '1,1,1,1', '-t', '0.3', '--warmup', '0',
    '--order', 'sequential', '--json', jsonFile,
  ], {
    onSpawn: (child) => {
      // Once key2's table is out, kill app.js (node test's only child process) as a crash would.
      // (key1's is printed last: its first step is measured again at the end, the control.)
      let seen = '';
      child.stdout.on('data', (chunk) => {
        seen += chunk;
        if (killed || !/\/memory\/key2\n/.test(seen)) return;
        const [appPid] = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
        process.kill(appPid, 'SIGKILL');
        killed = true;
      });
    },
  });
  assert.ok(killed, result.stderr);
  assert.equal(result.status, 1, result.stderr);
  assert.match(result.stderr, /^node test: app\.js exited \(SIGKILL\) during the sweep; the \d+ finished step\(s\) are above and in the results file\n$/m);
  assert.match(result.stdout, /\napp\.js exited \(SIGKILL\) during the sweep: \d+ step\(s\) finished; the step in progress was dropped\n/);
  const saved = JSON.parse(await readFile(jsonFile, 'utf8'));
  assert.equal(saved.interrupted, true);
  assert.equal(saved.appExit, 'SIGKILL');
  assert.ok(saved.steps.length >= 8 && saved.steps.length < 12, `${saved.steps.length} steps kept`);
  const again = await runDriverCli(['report', jsonFile]);
  assert.equal(again.status, 0, 'report prints the saved run; the run itself was the failure');
  assert.equal(again.stdout, withoutSavedLine(result.stdout));
});

test('--target sweeps the stores a running app lists', async (t) => {
  const app = await startAppProcess({ stores: ['memory'] });
  t.after(() => app.stop());
  const result = await runDriverCli(['--target', app.url, '-c', '2', '-n', '30', '--warmup', '0', '--keys', 'key2']);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, new RegExp(`^Target: {3}${app.url}/?$`, 'm'));
  assert.equal(rowsOf(result.stdout, `${app.url}/memory/key2`).length, 1);
  assert.doesNotMatch(result.stdout, /Comparison/, 'one store: nothing to compare');
});

// No REDIS_URL and no redis-server on PATH: the embedded app lists redis as unavailable.
const withoutRedis = { PATH: '/nonexistent', HOME: process.env.HOME ?? '/tmp' };
// The app's reason when redis-server is not on PATH: where it is, when it is installed off it.
const installedRedis = which('redis-server', SYSTEM_DIRS.join(':'));
const REDIS_REASON = installedRedis
  ? `no REDIS_URL and no redis-server on PATH; it is installed at ${installedRedis}, ` +
    `but ${dirname(installedRedis)} is not on PATH: add it or set REDIS_URL`
  : 'no REDIS_URL and no redis-server on PATH; install redis-server or set REDIS_URL';

// With Redis unavailable, `node test --stores redis --keys key1` exited 2
// blaming the key and naming the app's address after the app was gone. Item 14: node test was
// silent while app.js started, and skip lines named the store twice.
test('node test --stores redis --keys key1 with Redis unavailable says so and why, exit 1', async () => {
  const result = await runDriverCli(['--stores', 'redis', '--keys', 'key1'], { env: withoutRedis });
  assert.equal(result.status, 1, result.stderr);
  assert.equal(result.stderr, [
    'starting app.js and its servers (redis-server)…',
    `node test: redis is unavailable, so it was not swept: ${REDIS_REASON}`,
    '',
  ].join('\n'));
  assert.ok(result.stdout.split('\n').includes(`skipped redis: unavailable (${REDIS_REASON})`), result.stdout);
  assert.doesNotMatch(result.stdout, /^## /m, 'nothing was swept');
});

// `--stores redis,memory` with Redis down swept memory and exited 0.
test('a --stores store that cannot be swept fails the run after the others are printed and written', async (t) => {
  const dir = await tempDir(t);
  const jsonFile = join(dir, 'partial.json');
  const result = await runDriverCli([
    '--stores', 'redis,memory', '--keys', 'key1', '-c', '1', '-n', '20', '--warmup', '0', '-q', '--json', jsonFile,
  ], { env: withoutRedis });
  assert.equal(result.status, 1, result.stderr);
  assert.equal(result.stderr, `node test: redis is unavailable, so it was not swept: ${REDIS_REASON}\n`);
  assert.equal(rowsOf(result.stdout, 'http://').length, 1, 'memory was swept and printed');
  assert.match(result.stdout, /^## http:\/\/127\.0\.0\.1:\d+\/memory\/key1$/m);
  const saved = JSON.parse(await readFile(jsonFile, 'utf8'));
  assert.deepEqual(saved.steps.map((step) => step.store), ['memory']);
  assert.deepEqual(saved.skipped, [{ store: 'redis', status: 'unavailable', reason: REDIS_REASON }]);
  assert.deepEqual(saved.settings.stores, ['redis', 'memory']);
  const again = await runDriverCli(['report', jsonFile]);
  assert.equal(again.status, 0, 'report prints the saved run; the run itself was the failure');
  assert.equal(again.stdout, withoutSavedLine(result.stdout));
});

// Tables were headed with the URL as requested, percent-encoded
// (## .../postgres%2Bredis/key1), and skip lines named the store twice when the app's reason did.
test('a table heading shows its URL decoded while the requests use it encoded; ' +
  'a skip line names its store once', async (t) => {
  const paths = [];
  const server = createServer((req, res) => {
    if (req.url === '/stores') {
      const stores = [
        { name: 'postgres+redis', status: 'up', keys: ['key1'] },
        { name: 'redis', status: 'unavailable', reason: 'redis: no REDIS_URL', keys: [] },
      ];
      return res.end(JSON.stringify({ stores }));
    }
    paths.push(req.url);
    res.end('{}');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }));
  const base = `http://127.0.0.1:${server.address().port}`;
  const result = await runDriverCli(['--target', base, '-c', '1', '-n', '5', '--warmup', '0', '-q']);
  assert.equal(result.status, 0, result.stderr);
  assert.ok(result.stdout.includes(`\n## ${base}/postgres+redis/key1\n`), result.stdout);
  assert.ok(result.stdout.split('\n').includes('skipped redis: unavailable (no REDIS_URL)'), result.stdout);
  assert.deepEqual(paths, Array(5).fill('/postgres%2Bredis/key1'));
});
