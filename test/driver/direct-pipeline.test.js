// --direct --pipeline N: each caller sends N calls at once and its next N when all N settled,
// against real servers: exact counts, one write per batch (the server's own read count),
// Little's law with c x N in flight, and the refusals (exit 2, before any load).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClient } from 'redis';
import { runDriverCli } from '../helpers/driver-cli.js';
import { reachable, testPostgresUrl, unavailable } from '../helpers/services.js';
import { ownRedis } from '../helpers/own-servers.js';
import { measureStep } from '../../driver/step.js';
import { directEngine } from '../../driver/engines/direct.js';
import { honestyWarnings } from '../../result/honesty.js';
import * as memoryAdapter from '../../stores/memory.js';
import * as redisAdapter from '../../stores/redis.js';
import { shapedStore } from '../../driver/workloads/value-shape.js';
import { createWorkload } from '../../driver/workloads/workload.js';
import { parseWorkload } from '../../options/workload.js';

async function runDirect(args, env) {
  const argv = ['--direct', '--warmup', '0', '--no-control', '--json', '-', ...args];
  const run = await runDriverCli(argv, { env: { ...process.env, ...env } });
  let result = null;
  try {
    result = JSON.parse(run.stdout);
  } catch {}
  return { ...run, result };
}

// What the server read off its sockets so far: one read takes in whatever one write of the
// client put there, so N commands in one write are one read (INFO stats, Redis 6 and later).
async function serverReads(admin) {
  const info = await admin.info('stats');
  return Number(/total_reads_processed:(\d+)/.exec(info)[1]);
}

for (const store of ['redis', 'ioredis']) {
  test(`--pipeline 16 on ${store}: exactly -n calls per step, and each batch of 16 reaches the server ` +
    'in one read', async (t) => {
    const server = await ownRedis(t);
    if (!server) return;
    const admin = createClient({ url: server.url });
    admin.on('error', () => {}); // the server stops before this client closes (t.after runs in order)
    await admin.connect();
    t.after(() => admin.destroy());
    const reads = async (args) => {
      const before = await serverReads(admin);
      const run = await runDirect(['--stores', store, '--keys', 'key1', ...args], { REDIS_URL: server.url });
      assert.equal(run.status, 0, run.stderr);
      return { ...run, reads: (await serverReads(admin)) - before };
    };
    // 1000 calls at -c 3 -P 16: 20 batches of 48, then one of 40 (the -n count is exact).
    const pipelined = await reads(['-c', '3', '--pipeline', '16', '-n', '1000']);
    const [step] = pipelined.result.steps;
    assert.equal(pipelined.result.settings.pipeline, 16);
    assert.equal(step.requests, 1000);
    assert.equal(step.responses, 1000);
    assert.equal(step.latency.count, 1000);
    assert.equal(step.errors.total, 0, JSON.stringify(step.errors));
    assert.equal(step.peakInFlight, 48);
    assert.match(pipelined.stderr, /Pipeline: each caller sends 16 calls at once/);
    // The run's own commands (open, seed, status, close) add a few dozen reads at most.
    const unpipelined = await reads(['-c', '1', '-n', '1000']);
    t.diagnostic(`server reads: ${pipelined.reads} for 1000 calls at -c 3 -P 16, ${unpipelined.reads} at -c 1`);
    assert.equal(unpipelined.result.settings.pipeline, 1);
    assert.ok(unpipelined.reads >= 1000, `${unpipelined.reads} reads for 1000 calls one at a time`);
    assert.ok(pipelined.reads < 1000 / 16 + 50,
      `${pipelined.reads} reads for 1000 calls in batches of 16: not pipelined`);
  });
}

// Little's law: a closed loop keeps concurrency x pipeline calls in flight. Through a 4 ms
// emulated round trip (--store-rtt) a batch costs one round trip, so -P 8 runs 8 times the
// calls of -P 1 at the same concurrency, each as long, and mean = c x N / rps.
test('--pipeline 8 -c 2 through a 4 ms round trip: c x N calls in flight (Little\'s law), ' +
  '8 times the rps of --pipeline 1', async (t) => {
  const server = await ownRedis(t);
  if (!server) return;
  const env = { REDIS_URL: server.url };
  const common = ['--stores', 'redis', '--keys', 'key1', '--store-rtt', '4', '-c', '2'];
  const pipelined = await runDirect([...common, '--pipeline', '8', '-n', '1600'], env);
  const single = await runDirect([...common, '-n', '200'], env);
  for (const run of [pipelined, single]) assert.equal(run.status, 0, run.stderr);
  const [step] = pipelined.result.steps;
  const [one] = single.result.steps;
  assert.equal(step.requests, 1600);
  assert.equal(step.errors.total, 0, JSON.stringify(step.errors));
  const expectedMs = ((2 * 8) / step.rps) * 1000;
  assert.ok(Math.abs(step.latency.meanMs - expectedMs) / expectedMs < 0.1,
    `mean ${step.latency.meanMs} ms, c x N / rps ${expectedMs} ms`);
  assert.deepEqual(step.warnings.filter((warning) => warning.code === 'LITTLES_LAW'), []);
  // Each call waits about one round trip whether it went alone or in a batch of 8.
  assert.ok(step.latency.p50Ms < one.latency.p50Ms * 1.5,
    `p50 ${step.latency.p50Ms} ms in batches, ${one.latency.p50Ms} ms alone`);
  assert.ok(step.rps > one.rps * 5, `${Math.round(step.rps)} rps at -P 8, ${Math.round(one.rps)} at -P 1`);
});

test('Little\'s law counts concurrency x pipeline calls in flight, or -n when fewer', () => {
  const figures = { responses: 5000, wallSeconds: 2, rps: 2500, cpuPercent: 10, errors: { total: 0, byKind: {} } };
  const step = { ...figures, model: 'closed', concurrency: 2, maxRequests: null, latency: { meanMs: 6.4 } };
  assert.deepEqual(honestyWarnings(step, { pipeline: 8 }).map((warning) => warning.code), []);
  const [little] = honestyWarnings(step);
  assert.equal(little.code, 'LITTLES_LAW');
  assert.equal(little.data.expectedMs, 0.8);
  const [slow] = honestyWarnings({ ...step, latency: { meanMs: 9 } }, { pipeline: 8 });
  assert.match(slow.message, /concurrency x pipeline\/rps = 6\.40 ms/);
  // -n 10 at -c 2 -P 8: 10 calls in flight at most.
  const short = honestyWarnings({ ...step, maxRequests: 10, latency: { meanMs: 4 } }, { pipeline: 8 });
  assert.equal(short.filter((warning) => warning.code === 'LITTLES_LAW').length, 0);
});

test('postgres pipelined(): one set of calls per pooled connection, byte-exact, the same ones every time, ' +
  'closed with the store', async (t) => {
  if (!(await reachable(testPostgresUrl))) return unavailable(t, `postgres is not reachable at ${testPostgresUrl}`);
  const postgresAdapter = await import('../../stores/postgres.js');
  const store = await postgresAdapter.open({ postgres: { url: testPostgresUrl } }, { postgresPoolSize: 3 });
  t.after(() => store.close());
  const connections = await store.pipelined();
  assert.equal(connections.length, 3);
  assert.equal(await store.pipelined(), connections);
  const bytes = Buffer.from([0, 255, 13, 10, 128, 7]);
  // Issued together on one connection: each answer goes to its own query, in order.
  const [first] = connections;
  const key = `pipelined-${process.pid}`;
  const answers = await Promise.all([
    first.set(key, bytes), first.get(key), first.append(key, bytes), first.get(key), first.delete(key), first.get(key),
  ]);
  assert.deepEqual(answers, [undefined, bytes, undefined, Buffer.concat([bytes, bytes]), undefined, null]);
  // What one connection wrote, the pool and the other connections read.
  await connections[1].set(key, bytes);
  assert.deepEqual(await connections[2].get(key), bytes);
  assert.deepEqual(await store.get(key), bytes);
  await store.delete(key);
});

test('--pipeline 16 on postgres: node-postgres\'s pipeline mode, caller 0 on one connection, 8 times the rps ' +
  'of one call at a time through a 4 ms round trip', async (t) => {
  if (!(await reachable(testPostgresUrl))) return unavailable(t, `postgres is not reachable at ${testPostgresUrl}`);
  const env = { POSTGRES_URL: testPostgresUrl };
  const common = ['--stores', 'postgres', '--keys', 'key1', '--store-rtt', '4', '-c', '1'];
  const pipelined = await runDirect([...common, '--pipeline', '16', '-n', '1000'], env);
  const single = await runDirect([...common, '-n', '100'], env);
  for (const run of [pipelined, single]) assert.equal(run.status, 0, run.stderr);
  const [step] = pipelined.result.steps;
  const [one] = single.result.steps;
  assert.equal(step.requests, 1000);
  assert.equal(step.responses, 1000);
  assert.equal(step.errors.total, 0, JSON.stringify(step.errors));
  assert.equal(step.peakInFlight, 16);
  // One caller, one connection: 16 queries answered in about one round trip, not sixteen.
  assert.ok(step.rps > one.rps * 8, `${Math.round(step.rps)} rps at -P 16, ${Math.round(one.rps)} at -P 1`);
});

// memjs and tarantool-driver write each request at once, whatever is in flight, on one
// connection per server: a batch of 8 takes one round trip of the emulated network (tarantool),
// or two (memcached: memjs leaves Nagle's algorithm on, so the kernel holds the batch's later
// requests until the first one's answer acknowledges it), not eight.
const ROUND_TRIPS = { tarantool: 1, memcached: 2 };
test('--pipeline 8 on memcached and tarantool (embedded servers): 8 calls in one round trip (tarantool) ' +
  'or two (memcached)', async (t) => {
  const { which } = await import('../../util/which.js');
  const stores = ['memcached', 'tarantool'].filter((store) => which(store));
  if (!stores.length) return unavailable(t, 'neither memcached nor tarantool is installed');
  const common = ['--stores', stores.join(','), '--keys', 'key1', '--store-rtt', '4', '-c', '1'];
  const pipelined = await runDirect([...common, '--pipeline', '8', '-n', '400'], {});
  const single = await runDirect([...common, '-n', '50'], {});
  for (const run of [pipelined, single]) assert.equal(run.status, 0, run.stderr);
  for (const store of stores) {
    const step = pipelined.result.steps.find((each) => each.store === store);
    const one = single.result.steps.find((each) => each.store === store);
    assert.equal(step.requests, 400);
    assert.equal(step.errors.total, 0, JSON.stringify(step.errors));
    const least = (8 / ROUND_TRIPS[store]) * 0.6;
    assert.ok(step.rps > one.rps * least,
      `${store}: ${Math.round(step.rps)} rps at -P 8, ${Math.round(one.rps)} at -P 1`);
    assert.ok(step.latency.p50Ms < one.latency.p50Ms * (ROUND_TRIPS[store] + 0.5),
      `${store}: p50 ${step.latency.p50Ms} ms in batches, ${one.latency.p50Ms} ms alone`);
  }
});

test('--pipeline refuses HTTP mode, the open model and stores whose client does not pipeline: exit 2, ' +
  'one line each, before any load', async () => {
  const cases = [
    [['--pipeline', '16'], /--pipeline 16 needs --direct: over HTTP/],
    [
      ['--direct', '--pipeline', '16', '--rps', '100'],
      /--pipeline 16 sends 16 calls at once from each caller of the closed loop \(-c\); the open model \(--rps\)/,
    ],
    [
      ['--direct', '--stores', 'memory,redis', '--pipeline', '4'],
      /^node test: --pipeline 4: memory cannot pipeline: a Map in this process/m,
    ],
    [
      ['--direct', '--stores', 'couchdb-nano', '--pipeline', '4'],
      /^node test: --pipeline 4: couchdb-nano cannot pipeline: an HTTP\/1\.1 client: one request at a time/m,
    ],
    [
      ['--direct', '--stores', 'postgres+redis', '--pipeline', '2'],
      /--pipeline 2: postgres\+redis cannot pipeline: a layer of two stores/,
    ],
    [['--direct', '--pipeline', '0'], /--pipeline must be a positive whole number, not "0"/],
    [['--direct', '--pipeline', '1001'], /--pipeline must be at most 1,000, not "1001"/],
  ];
  for (const [args, message] of cases) {
    const { status, stderr } = await runDriverCli([...args, '-n', '10']);
    assert.equal(status, 2, `${args.join(' ')}: ${stderr}`);
    assert.match(stderr, message);
    assert.doesNotMatch(stderr, /opening the stores|starting app\.js/);
  }
});

// The engine itself, on stores that answer at once or never.
test('the engine: -n 1000 at -c 3 -P 16 on the memory store starts exactly 1000 calls, ' +
  'at most 48 in flight', async () => {
  const store = await memoryAdapter.open();
  await store.set('key1', Buffer.from('x'));
  const load = { url: 'direct://memory/key1', store, key: 'key1', concurrency: 3, pipeline: 16, maxRequests: 1000 };
  const step = await measureStep(directEngine, load);
  assert.equal(step.requests, 1000);
  assert.equal(step.responses, 1000);
  assert.equal(step.errors.total, 0);
  assert.equal(step.peakInFlight, 48);
});

test('the engine: calls that settle while their batch is being sent (405, no append) neither stall ' +
  'nor overrun the batch', async () => {
  // A regression guard for the batch's own bookkeeping: every call of a batch ends before send() returns.
  const store = shapedStore(await memoryAdapter.open(), 'hash'); // a hash has no append
  const { mix } = parseWorkload('append').value;
  const valueSize = { min: 10, max: 10 };
  const workload = createWorkload({ mix, distribution: { name: 'uniform' }, records: 50, valueSize, seed: 1 });
  const load = { url: 'direct://memory', store, concurrency: 2, pipeline: 16, maxRequests: 500, workload };
  const step = await measureStep(directEngine, load);
  assert.equal(step.requests, 500);
  assert.equal(step.responses, 500);
  assert.deepEqual(step.errors.byKind, { 'http 405': 500 });
});

test('the engine sends a redis batch of GETs as one explicit pipeline (getMany), each call timed and ' +
  'counted, a short last batch too; an error reply fails each call with the error one GET gets', async (t) => {
  const server = await ownRedis(t);
  if (!server) return;
  const store = await redisAdapter.open({ redis: { url: server.url } });
  t.after(() => store.close());
  await store.set('key1', Buffer.from('value'));
  const batches = [];
  const counted = { ...store, getMany: (keys) => { batches.push(keys.length); return store.getMany(keys); } };
  const load = { url: 'direct://redis/key1', store: counted, key: 'key1', concurrency: 3, pipeline: 16 };
  const step = await measureStep(directEngine, { ...load, maxRequests: 1000 });
  assert.equal(step.requests, 1000);
  assert.equal(step.responses, 1000);
  assert.equal(step.errors.total, 0, JSON.stringify(step.errors));
  assert.equal(step.latency.count, 1000);
  assert.equal(step.peakInFlight, 48);
  assert.equal(batches.reduce((sum, size) => sum + size, 0), 1000);
  assert.deepEqual([...new Set(batches)].sort((a, b) => a - b), [8, 16], 'batches of 16, one of 8 to end -n');

  // A hash under the key: GET answers WRONGTYPE, pipelined or not, and every call counts it.
  const admin = createClient({ url: server.url });
  admin.on('error', () => {}); // the server stops before this client closes (t.after runs in order)
  await admin.connect();
  t.after(() => admin.destroy());
  await admin.del('key1');
  await admin.hSet('key1', 'f', 'v');
  const pipelined = await measureStep(directEngine, { ...load, maxRequests: 40 });
  const single = await measureStep(directEngine, { ...load, pipeline: 1, maxRequests: 40 });
  assert.equal(pipelined.errors.total, 40);
  assert.deepEqual(Object.keys(pipelined.errors.byKind), Object.keys(single.errors.byKind));
  assert.equal(single.errors.total, 40);
});

test('the engine: a server frozen past the deadline times the batch out, and -n still ends ' +
  'with exactly -n calls', async (t) => {
  const server = await ownRedis(t);
  if (!server) return;
  const store = await redisAdapter.open({ redis: { url: server.url } });
  t.after(() => store.close());
  await store.set('key1', Buffer.from('x'));
  const load = { url: 'direct://redis/key1', store, key: 'key1', concurrency: 2, pipeline: 8 };
  const stepDone = measureStep(directEngine, { ...load, maxRequests: 100_000, durationSeconds: 1.2, timeoutMs: 200 });
  await sleep(300);
  server.signal('SIGSTOP');
  await sleep(500);
  server.signal('SIGCONT');
  const step = await stepDone;
  // Each batch in flight during the freeze times out whole (its callers then send the next).
  const timeouts = step.errors.byKind.timeout;
  assert.ok(timeouts >= 16 && timeouts % 8 === 0, JSON.stringify(step.errors));
  assert.equal(step.requests, step.responses + timeouts);
  assert.ok(step.responses > 0);
  const counted = await measureStep(directEngine, { ...load, maxRequests: 333 });
  assert.equal(counted.requests, 333);
  assert.equal(counted.responses, 333);
});

test('the engine refuses a pipeline in the open model, and a pipeline that is not a whole number from 1', async () => {
  const store = await memoryAdapter.open();
  const load = { url: 'direct://memory/key1', store, key: 'key1', maxRequests: 10 };
  await assert.rejects(measureStep(directEngine, { ...load, rps: 100, pipeline: 4 }),
    /pipelines in the closed loop only/);
  await assert.rejects(measureStep(directEngine, { ...load, pipeline: 0 }), /a whole number from 1, not 0/);
});
