// The direct mode: node test --direct against real stores, and the direct engine
// against a real redis-server the test freezes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { runDriverCli } from '../helpers/driver-cli.js';
import { reachable, testPostgresUrl, testRedisUrl, unavailable } from '../helpers/services.js';
import { ownMemcached, ownRedis } from '../helpers/own-servers.js';
import { closedPort } from '../helpers/driver-servers.js';
import { redactUrl } from '../../util/redact.js';
import { measureStep } from '../../driver/step.js';
import { directEngine } from '../../driver/engines/direct.js';
import * as memoryAdapter from '../../stores/memory.js';
import * as redisAdapter from '../../stores/redis.js';
import * as memcachedAdapter from '../../stores/memcached.js';
import { createWorkload } from '../../driver/workloads/workload.js';
import { parseWorkload } from '../../options/workload.js';
import { payloads } from '../../stores/payloads.js';

// The environment of a direct run: the test's servers, and nothing embedded started for stores not asked for.
const env = { ...process.env, REDIS_URL: testRedisUrl, POSTGRES_URL: testPostgresUrl };

async function runDirect(args, extraEnv = {}) {
  const run = await runDriverCli(['--direct', '--warmup', '0', '--json', '-', ...args], {
    env: { ...env, ...extraEnv },
  });
  let result = null;
  try {
    result = JSON.parse(run.stdout);
  } catch {}
  return { ...run, result };
}

for (const [store, url] of [['memory', null], ['redis', testRedisUrl], ['postgres', testPostgresUrl]]) {
  test(`--direct on ${store} with -n 250: every step has exactly 250 calls, all answered, mode direct`, async (t) => {
    if (url && !(await reachable(url))) return unavailable(t, `${store} is not reachable at ${url}`);
    const { status, stderr, result } = await runDirect(['--stores', store, '-n', '250', '-c', '1,7']);
    assert.equal(status, 0, stderr);
    assert.match(stderr, /opening the stores in this process \(direct mode/);
    assert.deepEqual(result.targets.map((target) => target.url), ['key1', 'key2', 'key3'].map((key) => `direct://${store}/${key}`));
    // Each target says which server it reached (what node test merge checks): none for memory.
    const servers = url ? { [store]: `${store === 'redis' ? 'REDIS_URL' : 'POSTGRES_URL'}: ${redactUrl(url)}` } : {};
    for (const target of result.targets) assert.deepEqual(target.servers, servers);
    assert.equal(result.steps.length, 6);
    assert.equal(result.steps.reduce((sum, step) => sum + step.requests, 0), 250 * result.steps.length);
    for (const step of result.steps) {
      assert.equal(step.mode, 'direct');
      assert.equal(step.model, 'closed');
      assert.equal(step.requests, 250);
      assert.equal(step.responses, 250);
      assert.equal(step.latency.count, 250);
      assert.equal(step.errors.total, 0, JSON.stringify(step.errors));
    }
    assert.match(result.system.target, /direct mode/);
  });
}

test('--direct with a key-space workload loads the records through the store, runs, ' +
  'and verifies what it wrote', async (t) => {
  const stores = ['memory'];
  if (await reachable(testRedisUrl)) stores.push('redis');
  else t.diagnostic(`redis not reachable at ${testRedisUrl}: memory only`);
  const { status, stderr, result } = await runDirect([
    '--stores', stores.join(','), '--workload', 'ycsb-a', '--records', '600', '--seed', '7', '-n', '800', '-c', '4',
  ]);
  assert.equal(status, 0, stderr);
  assert.deepEqual(result.targets.map((target) => target.url), stores.map((store) => `direct://${store}`));
  assert.equal(result.loads.length, stores.length);
  for (const load of result.loads) {
    assert.equal(load.records, 600);
    assert.equal(load.loaded, 600);
    assert.equal(load.errors.total, 0);
  }
  for (const step of result.steps) {
    assert.equal(step.requests, 800);
    assert.equal(step.operations.reduce((sum, operation) => sum + operation.requests, 0), 800);
    assert.deepEqual(step.operations.map((operation) => operation.operation), ['read', 'update']);
    // Every record was loaded: no read finds nothing.
    assert.equal(step.errors.total, 0, JSON.stringify(step.errors));
  }
  assert.equal(result.verifications.length, stores.length);
  for (const verification of result.verifications) {
    assert.equal(verification.mismatched, 0, JSON.stringify(verification.examples));
    assert.ok(verification.verified > 0 && verification.verified === verification.sampled,
      JSON.stringify(verification));
  }
});

test('--direct: a named store that is down is skipped with its reason ' +
  'and the run exits 1 after the others', async () => {
  const port = await closedPort();
  const { status, stderr, result } = await runDirect(['--stores', 'memory,tarantool', '-n', '20', '-c', '1', '--keys', 'key1'], { TARANTOOL_URL: `tarantool://127.0.0.1:${port}` });
  assert.equal(status, 1, stderr);
  assert.deepEqual(result.targets.map((target) => target.url), ['direct://memory/key1']);
  assert.equal(result.steps.length, 1);
  assert.equal(result.skipped.length, 1);
  assert.equal(result.skipped[0].store, 'tarantool');
  assert.equal(result.skipped[0].status, 'unavailable');
  assert.match(result.skipped[0].reason, /ECONNREFUSED/);
  assert.match(stderr, /node test: tarantool is unavailable, so it was not swept: .*ECONNREFUSED/);
});

test('--direct with --url or --target: exit 2 with one line, before anything is opened', async () => {
  for (const args of [['--url', 'http://127.0.0.1:9/redis/key1'], ['--target', 'http://127.0.0.1:9']]) {
    const { status, stdout, stderr } = await runDriverCli(['--direct', ...args]);
    assert.equal(status, 2);
    assert.equal(stdout, '');
    assert.deepEqual(stderr.trim().split('\n').filter((line) => line.startsWith('node test:')).length, 1, stderr);
    assert.doesNotMatch(stderr, /at .*\.js:\d+/, 'no stack trace');
    assert.match(stderr, new RegExp(`node test: --direct calls the stores in this process: it takes no ${args[0]}`));
  }
});

test('direct engine: -n is exact whatever the concurrency, on a store that answers without I/O', async (t) => {
  const store = await memoryAdapter.open();
  t.after(() => store.close());
  await store.set('key1', payloads.key1);
  for (const [concurrency, maxRequests] of [[1, 1], [50, 7], [3, 1000], [64, 20_000]]) {
    const step = await measureStep(directEngine, { url: 'direct://memory/key1', store, key: 'key1', concurrency, maxRequests });
    assert.equal(step.requests, maxRequests, `c ${concurrency}`);
    assert.equal(step.responses, maxRequests);
    assert.equal(step.errors.total, 0);
    assert.equal(step.mode, 'direct');
  }
});

test('direct engine: a timed step on a store that answers without I/O still ends on time ' +
  '(the loop yields)', async (t) => {
  const store = await memoryAdapter.open();
  t.after(() => store.close());
  const step = await measureStep(directEngine, { url: 'direct://memory/none', store, key: 'none', concurrency: 8, durationSeconds: 0.3 });
  assert.ok(step.requests > 0);
  assert.equal(step.requests, step.responses);
  // A missing key reads as the app's 404.
  assert.deepEqual(step.errors.byKind, { 'http 404': step.responses });
});

// The open model's promise in direct mode: a store that stalls shows the stall as latency,
// because each call's latency counts from its intended start, not from when it went out.
test('direct engine, open model: a real redis-server frozen 300 ms shows as latency of at least 300 ms ' +
  'minus one interval', async (t) => {
  const server = await ownRedis(t);
  if (!server) return;
  const store = await redisAdapter.open({ redis: { url: server.url } });
  t.after(() => store.close());
  await store.set('key1', payloads.key1);
  const rps = 200;
  const intervalMs = 1000 / rps;
  const stepDone = measureStep(directEngine, { url: 'direct://redis/key1', store, key: 'key1', rps, maxRequests: 300 });
  await sleep(400);
  server.signal('SIGSTOP');
  await sleep(300);
  server.signal('SIGCONT');
  const step = await stepDone;
  assert.equal(step.requests, 300);
  assert.equal(step.responses, 300);
  assert.equal(step.errors.total, 0);
  assert.equal(step.model, 'open');
  // The call due just after the freeze began waited for the whole freeze (300 ms or more: a
  // timer never fires early), less at most one interval between the freeze and its due time.
  assert.ok(step.latency.maxMs >= 300 - intervalMs, `max ${step.latency.maxMs} ms: the 300 ms stall is hidden`);
  // And not one call: each of the ~60 calls due during the freeze (20% of the step) waited for
  // its end, 300 ms down to 0, so more than 10% of the calls took over 100 ms.
  assert.ok(step.latency.p90Ms >= 100,
    `p90 ${step.latency.p90Ms} ms: the calls due during the stall did not wait for it`);
  assert.ok(step.latency.p50Ms < step.latency.maxMs / 2,
    `p50 ${step.latency.p50Ms} ms: the calls outside the stall are fast`);
});

// The descendants of pid (children, theirs...), from /proc (Linux): [{ pid, command }].
async function descendantsOf(pid) {
  const { readdir, readFile } = await import('node:fs/promises');
  const all = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const command = (await readFile(`/proc/${name}/cmdline`, 'utf8')).replaceAll('\0', ' ');
      all.push({ pid: Number(name), ppid, command });
    } catch {}
  }
  const found = [];
  const parents = new Set([pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of all) {
      if (parents.has(entry.ppid) && !parents.has(entry.pid)) {
        parents.add(entry.pid);
        found.push({ pid: entry.pid, command: entry.command });
        grew = true;
      }
    }
  }
  return found;
}
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('--direct: Ctrl-C during a step closes the stores and stops the redis-server it started (exit 130)', async (t) => {
  if (process.platform !== 'linux') return t.skip('reads /proc');
  const { which } = await import('../../util/which.js');
  if (!which('redis-server')) return unavailable(t, 'redis-server is not installed');
  const { REDIS_URL, ...withoutRedis } = process.env; // nothing configured: the embedded default starts one
  let started = [];
  const run = await runDriverCli([
    '--direct', '--stores', 'redis', '--keys', 'key1', '-c', '2', '-t', '30', '--warmup', '0',
  ], {
    env: withoutRedis,
    onSpawn: (child) => {
      let seen = '';
      child.stdout.on('data', async (chunk) => {
        seen += chunk;
        if (!seen.includes('Settings:') || started.length) return;
        started = await descendantsOf(child.pid);
        child.kill('SIGINT');
      });
    },
  });
  assert.equal(run.status, 130, run.stderr);
  assert.ok(started.some((child) => child.command.startsWith(which('redis-server'))),
    `no embedded redis-server among ${JSON.stringify(started)}`);
  for (const child of started) {
    assert.equal(alive(child.pid), false, `${child.command} (${child.pid}) outlived the run`);
  }
});

// A workload's requests as the direct engine maps them, from a workload made as the sweep makes it.
const workloadOf = (name, { records = 50, size = 100 } = {}) => {
  const { mix, distribution } = parseWorkload(name).value;
  return createWorkload({
    mix,
    distribution: distribution ? { name: distribution } : null,
    records,
    valueSize: { min: size, max: size },
    seed: 11,
  });
};

test('direct engine: read-modify-write of keys never loaded answers 404 like the app, ' +
  'and writes nothing', async (t) => {
  const store = await memoryAdapter.open();
  t.after(() => store.close());
  const workload = workloadOf('ycsb-f');
  const step = await measureStep(directEngine, { url: 'direct://memory', store, concurrency: 3, maxRequests: 300, workload });
  assert.equal(step.requests, 300);
  assert.deepEqual(step.errors.byKind, { 'http 404': 300 });
  const byOperation = Object.fromEntries(step.operations.map((operation) => [operation.operation, operation]));
  assert.equal(byOperation.read.requests + byOperation['read-modify-write'].requests, 300);
  assert.ok(byOperation['read-modify-write'].requests > 0);
  // The set after a read that found nothing never went out.
  for (let index = 0; index < 50; index += 1) {
    assert.equal(await store.get(`user${String(index).padStart(10, '0')}`), null);
  }
});

test('direct engine: a value a real memcached refuses for its size counts as http 413, ' +
  'as the app answers it', async (t) => {
  const server = await ownMemcached(t);
  if (!server) return;
  const store = await memcachedAdapter.open({ memcached: { url: server.url } });
  t.after(() => store.close());
  const workload = workloadOf('write', { size: 2 * 1024 * 1024 }); // over memcached's 1 MB item limit
  const step = await measureStep(directEngine, { url: 'direct://memcached', store, concurrency: 2, maxRequests: 10, workload });
  assert.equal(step.requests, 10);
  assert.deepEqual(step.errors.byKind, { 'http 413': 10 });
  assert.equal(step.latency.count, 10, 'a refusal is an answer: its latency counts');
});
