// `node test --workload ...` as a user runs it: bad input exits 2 before any load, a run over
// a key space prints its load, per-operation and verification lines and saves them, a store
// that loses writes exits 1, the write token never shows. Against the contract test server,
// and against the real app.js and its write routes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDriverCli, withoutSavedLine } from '../helpers/driver-cli.js';
import { startContractServer } from '../helpers/contract-server.js';
import { unavailable } from '../helpers/services.js';
import { startAppProcess } from '../../driver/app-process.js';
import { httpRequest } from '../../driver/http-request.js';

async function tempDir(t) {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-workload-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('bad workload input: exit 2, one clear line each, before any load', async (t) => {
  const server = await startContractServer(t);
  const cases = [
    [['--workload', 'nosuch'],
      'node test: --workload: no workload "nosuch" (known: read, write, update, insert, append, ' +
      'ycsb-a, ycsb-b, ycsb-c, ycsb-d, ycsb-f, mixed:R/W; --workload list describes them)'],
    [['--workload', 'mixed:120/5'],
      'node test: --workload mixed:120/5: R and W are whole percentages of reads and updates adding up to 100, ' +
      'as in mixed:95/5'],
    [['--workload', 'ycsb-e'],
      'node test: --workload ycsb-e: YCSB workload E is short range scans, and no store here offers an ordered scan ' +
      'over HTTP (the app reads one key per request: GET /<store>/<key>); it is not supported'],
    [['-w', 'write', '--value-size', '-1'],
      'node test: --value-size must be a size in bytes such as 100, 10KB or 1MB, ' +
      'or a range such as 100-1000, not "-1"'],
    [['--records', '0'], 'node test: --records must be a positive whole number of records, not "0"'],
    [['-w', 'write', '--value-size', '17MB'],
      'node test: --value-size 17MB is more than the app accepts in one value: at most 16 MB (16,777,216 bytes)'],
  ];
  for (const [args, line] of cases) {
    const result = await runDriverCli(['--target', server.url, ...args]);
    assert.equal(result.status, 2, args.join(' '));
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, `${line}\nRun node test --help for usage.\n`);
  }
  assert.deepEqual(server.counts, { get: 0, put: 0, dropped: 0, append: 0, delete: 0, bulk: 0, bulkRecords: 0 },
    'nothing reached the server');
});

test('node test --workload list describes every workload and exits 0', async () => {
  const result = await runDriverCli(['--workload', 'list']);
  assert.equal(result.status, 0, result.stderr);
  const names = ['read', 'write', 'update', 'insert', 'append', 'mixed:R/W'];
  for (const name of [...names, 'ycsb-a', 'ycsb-b', 'ycsb-c', 'ycsb-d', 'ycsb-e', 'ycsb-f']) {
    assert.match(result.stdout, new RegExp(`^${name.replace('/', '\\/')} `, 'm'), name);
  }
  assert.match(result.stdout, /^ycsb-e .*not supported \(no store exposes ordered scans over HTTP\)$/m);
});

test('a key-space run prints the load, each operation and the verification, saves them, ' +
  'and prints them again the same', async (t) => {
  const server = await startContractServer(t, { stores: ['memory'], token: 'letmein' });
  const dir = await tempDir(t);
  const json = join(dir, 'run.json');
  // --warmup-max 0: a steady-state warm-up lasts as long as the target takes to settle, so its
  // request count, and with it the sequence the seed gives the step, would differ between runs.
  const args = [
    '--target', server.url, '-w', 'ycsb-b', '--records', '2000', '-c', '2', '-n', '1000', '--warmup', '50',
    '--warmup-max', '0', '--json', json,
  ];
  const result = await runDriverCli(args, { env: { ...process.env, STOREBENCH_WRITE_TOKEN: 'letmein' } });
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^Workload: ycsb-b \(read 95%, update 5%\) over 2,000 records, zipfian; values 100 B; seed \d+; loaded first; written values verified after$/m);
  assert.match(result.stdout, /\n## load: http:\/\/127\.0\.0\.1:\d+\/memory \(POST: 1 batch of records; rps = records loaded per second\)\n/);
  assert.match(result.stdout, /\n {26}update {5}\s*\d+ /);
  assert.match(result.stdout, /\nverified \d+\/\d+ written values\n/);
  const saved = JSON.parse(await readFile(json, 'utf8'));
  assert.equal(saved.settings.workload, 'ycsb-b');
  assert.equal(saved.loads[0].loaded, 2000);
  assert.equal(saved.verifications[0].mismatched, 0);
  for (const text of [result.stdout, result.stderr, JSON.stringify(saved)]) {
    assert.ok(!text.includes('letmein'), 'the token is never printed or saved');
  }
  const again = await runDriverCli(['report', json]);
  assert.equal(again.status, 0, again.stderr);
  assert.equal(again.stdout, withoutSavedLine(result.stdout));
  // The same seed sends the same sequence: the server sees the same writes again.
  const seed = String(saved.settings.seed);
  const putsBefore = server.counts.put;
  const repeat = await runDriverCli([...args.slice(0, -2), '--seed', seed, '--token', 'letmein', '-q']);
  assert.equal(repeat.status, 0, repeat.stderr);
  // At least the step's updates: the warm-up's 50 requests at 5% updates may hold none (0.95^50: 1 seed in 13).
  assert.ok(putsBefore >= saved.steps[0].operations[1].requests, 'the first run\'s updates, its warm-up\'s included');
  assert.equal(server.counts.put - putsBefore, putsBefore, 'the same operations again: exactly as many updates');
});

test('a store that loses acknowledged writes fails the run: exit 1 after the tables and results file', async (t) => {
  const server = await startContractServer(t, { stores: ['memory'], dropEvery: 100 });
  const dir = await tempDir(t);
  const json = join(dir, 'run.json');
  const result = await runDriverCli([
    '--target', server.url, '-w', 'write', '--records', '1000', '--distribution', 'sequential',
    '-c', '1', '-n', '1000', '--warmup', '0', '--json', json,
  ]);
  assert.equal(result.status, 1);
  assert.match(result.stdout, /\nverified 990\/1000 written values\n {2}user0000000099: expected version 1, 100 B; got missing \(404\)\n/);
  assert.equal(result.stderr, 'node test: memory: 10 of 1000 written values read back different from what it ' +
    'acknowledged (listed under its table)\n');
  const saved = JSON.parse(await readFile(json, 'utf8'));
  assert.equal(saved.verifications[0].warnings[0].code, 'VERIFY_MISMATCH');
});

// Driver -> the real app.js -> memory and redis, through the app's write routes (PUT, the bulk
// route). A write the app refuses fails the test: the routes are part of the app.
async function appWithWrites(t, stores, args = []) {
  const token = 'storebench-test-token';
  const app = await startAppProcess({ stores, args, env: { ...process.env, STOREBENCH_WRITE_TOKEN: token } });
  t.after(() => app.stop());
  const probe = await httpRequest(`${app.url}/memory/storebench-probe`, {
    method: 'PUT', body: Buffer.from('x'), headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(probe.status, 204, `PUT /memory/<key> with the token: ${probe.status} ${probe.body}`);
  return { app, token };
}

test('app.js end to end: ycsb-a over memory and redis loads, runs each operation, ' +
  'and verifies what it wrote', async (t) => {
  const { app, token } = await appWithWrites(t, ['memory', 'redis']);
  const listing = JSON.parse((await httpRequest(`${app.url}/stores`)).body.toString());
  if (listing.stores.find((store) => store.name === 'redis')?.status !== 'up') {
    return unavailable(t, 'redis is not up in the app');
  }
  const result = await runDriverCli([
    '--target', app.url, '--stores', 'memory,redis', '-w', 'ycsb-a', '--records', '5000', '-c', '4', '-n', '2000',
    '--warmup', '100', '--token', token,
  ]);
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stdout.match(/\nverified \d+\/\d+ written values\n/g)?.length, 2, result.stdout);
  assert.match(result.stdout, /## Comparison: ycsb-a · update/);
  assert.doesNotMatch(result.stdout, /http 4\d\d|http 5\d\d/, 'no request refused or failed');
});

test('app.js end to end: the embedded default writes to the app it starts (a made-up token in its environment), ' +
  'and verifies', async (t) => {
  await appWithWrites(t, ['memory']);
  // Sequential over 1,000 records, 1,000 writes: each key written once, all of them followed.
  const result = await runDriverCli([
    '--stores', 'memory', '-w', 'write', '--records', '1000', '--distribution', 'sequential',
    '--value-size', '100-1000', '-c', '2', '-n', '1000', '--warmup', '0',
  ]);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /\nverified 1000\/1000 written values\n/);
  assert.doesNotMatch(result.stdout, /http 40[13]/);
});

test('app.js off loopback wants the write token: --token or STOREBENCH_WRITE_TOKEN is sent, ' +
  'none gives 401s, never a crash', async (t) => {
  // Bound to all interfaces (reached here over loopback), the app takes writes only with its token.
  const { app, token } = await appWithWrites(t, ['memory'], ['--host', '0.0.0.0']);
  const args = [
    '--target', app.url, '--stores', 'memory', '-w', 'write', '--records', '100', '-c', '2', '-n', '200',
    '--warmup', '0', '--no-verify',
  ];
  // The errors cell of the step's row: its last cell (cells are set apart by two spaces or more).
  const errorsOf = (stdout) => /\n( +200 +2 .*)\n/.exec(stdout)?.[1].trim().split(/ {2,}/).at(-1);
  const withFlag = await runDriverCli([...args, '--token', token]);
  assert.equal(withFlag.status, 0, withFlag.stderr);
  assert.equal(errorsOf(withFlag.stdout), '0', withFlag.stdout);
  const { STOREBENCH_WRITE_TOKEN: _, ...withoutToken } = process.env;
  const fromEnv = await runDriverCli(args, { env: { ...withoutToken, STOREBENCH_WRITE_TOKEN: token } });
  assert.equal(errorsOf(fromEnv.stdout), '0', 'the token from the environment');
  // No request of the named store succeeded: the run fails (exit 1), saying why, after its table.
  const none = await runDriverCli(args, { env: withoutToken });
  assert.equal(none.status, 1, none.stderr);
  assert.match(none.stderr, /memory write at concurrency 2: no request succeeded \(http 401: 200 \(WRITE_TOKEN_REQUIRED/);
  assert.match(none.stdout, /http 401: 200/);
  for (const text of [withFlag.stdout, withFlag.stderr, fromEnv.stdout, fromEnv.stderr]) {
    assert.ok(!text.includes(token), 'the token is never printed');
  }
});

// A value size over the app's own limit exits 2 before any load, also when the
// app was started with a --max-value-size below the 16 MB default (its /stores `limits` say so).
test('app.js with --max-value-size 1KB: --value-size 2KB exits 2 naming the app\'s limit, ' +
  'and nothing is written', async (t) => {
  const app = await startAppProcess({ stores: ['memory'], args: ['--max-value-size', '1KB'] });
  t.after(() => app.stop());
  const listing = JSON.parse((await httpRequest(`${app.url}/stores`)).body.toString());
  assert.deepEqual(listing.limits, { maxValueSize: 1024 });
  const result = await runDriverCli([
    '--target', app.url, '--stores', 'memory', '-w', 'write', '--records', '10', '--value-size', '2KB',
    '-c', '1', '-n', '5', '--warmup', '0',
  ]);
  assert.equal(result.status, 2, result.stderr);
  assert.equal(result.stderr, `node test: --value-size: values up to 2048 bytes, but ${app.url}/ accepts at most ` +
    '1024 bytes in one value (its --max-value-size)\nRun node test --help for usage.\n');
  assert.equal((await httpRequest(`${app.url}/memory/user0000000000`)).status, 404, 'nothing was written');
});
