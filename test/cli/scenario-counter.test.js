// node test --scenario NAME --counter, end to end on real servers at --scale tiny: for each
// scenario one verdict and its counter-run, the system changed so that the claim comes out the
// other way in fact, each run cut down to what that verdict uses (--verdicts). The verdict must
// come out both ways: once with the system as the study had it, once changed; the results file
// keeps both (its verdicts' `counter`, and the counter-run's own tables).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDriverCli } from '../helpers/driver-cli.js';
import { reachable, testPostgresUrl, testRedisUrl, unavailable } from '../helpers/services.js';
import { which } from '../../util/which.js';
import { limitProcesses } from '../../embedded/resource-limits.js';
import { validate } from '../helpers/json-schema.js';
import clientLibraries from '../../studies/scenarios/client-libraries.js';

const HOLDS = 'holds here';
const FAILS = 'does not hold here';

async function servicesEnv(t) {
  for (const url of [testRedisUrl, testPostgresUrl]) {
    if (!(await reachable(url))) return unavailable(t, `${url} is not reachable`) && null;
  }
  // The embedded servers (the CouchDB stand-in, Tarantool, the Redis Cluster) are the run's own.
  const { REDIS_CLUSTER_URLS: _cluster, TARANTOOL_URL: _tarantool, COUCHDB_URL: _couch, ...env } = process.env;
  return { ...env, REDIS_URL: testRedisUrl, POSTGRES_URL: testPostgresUrl };
}

// Runs one verdict of a scenario with its counter-run; resolves to { verdict, record, stdout }.
async function counterRun(t, scenario, id, env) {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-counter-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const json = join(dir, 'r.json');
  const { status, stdout, stderr } = await runDriverCli([
    '--scenario', scenario, '--scale', 'tiny', '--verdicts', id, '--counter', '--json', json, '-q',
  ], { env });
  assert.equal(status, 0, stderr);
  const result = JSON.parse(await readFile(json, 'utf8'));
  const schema = JSON.parse(await readFile(new URL('../../docs/results.schema.json', import.meta.url), 'utf8'));
  assert.deepEqual(validate(schema, result), []);
  const record = result.scenario;
  assert.deepEqual(record.verdicts.map((entry) => entry.id), [id], '--verdicts judges only the one asked for');
  return { verdict: record.verdicts[0], record, stdout };
}

// The verdict and its counter-run came out both ways, and the text shows them side by side.
function assertFlipped({ verdict, record, stdout }, { normal, counter, change }) {
  assert.equal(verdict.verdict, normal, `as the study had it: ${verdict.explanation}`);
  assert.equal(verdict.counter.verdict, counter, `counter-run: ${verdict.counter.explanation}`);
  assert.match(verdict.counter.change, change);
  assert.equal(record.counterRuns.length, 1);
  assert.deepEqual(record.counterRuns[0].verdicts, [verdict.id]);
  assert.ok(record.counterRuns[0].measured.length, 'the counter-run\'s own tables are kept');
  const line = new RegExp(`^. ${normal} +\\| ${counter} +${verdict.id}: `, 'm');
  assert.match(stdout, line);
  assert.match(stdout, /^ {4}counter-run, /m);
}

test('cloudant-vs-redis: redis-faster does not hold with both stores behind the study\'s network, and holds ' +
  'with Cloudant 300 ms from the app', async (t) => {
  const env = await servicesEnv(t);
  if (!env) return;
  const run = await counterRun(t, 'cloudant-vs-redis', 'redis-faster', env);
  assertFlipped(run, { normal: FAILS, counter: HOLDS, change: /^Cloudant 300 ms from the app/ });
  assert.equal(run.verdict.counter.how, '--store-rtt cloudant-legacy=300');
  // Only the runs it uses: Redis and Cloudant without Lite's limits.
  assert.deepEqual(run.record.runs.map((entry) => entry.id), ['redis', 'cloudant-no-limits']);
  assert.ok(run.record.counterRuns[0].notes.some((note) =>
    /network between the app and each store: cloudant-legacy: RTT 300 ms \(the other stores: none\)/.test(note)));
});

test('tarantool-vs-postgres: PostgreSQL writes to random listings go faster concurrently than one at a time, ' +
  'and not through one connection to a PostgreSQL 20 ms away', async (t) => {
  const env = await servicesEnv(t);
  if (!env) return;
  const run = await counterRun(t, 'tarantool-vs-postgres', 'serial-writes-slower', env);
  assertFlipped(run, { normal: HOLDS, counter: FAILS, change: /^one connection to a PostgreSQL 20 ms from the app/ });
  assert.equal(run.verdict.counter.how, 'POSTGRES_POOL_SIZE=1 --store-rtt postgres=20');
  assert.deepEqual(run.record.runs.map((entry) => entry.id), ['single-threaded', 'multi-threaded']);
});

test('cluster-vs-document: Redis Cluster is unstable under 10 KB writes when its nodes run out of memory, ' +
  'and stable with room to spare', async (t) => {
  const env = await servicesEnv(t);
  if (!env) return;
  if (!which('redis-server') || !which('redis-cli')) {
    return void unavailable(t, 'redis-server and redis-cli are not installed (the embedded Redis Cluster)');
  }
  // The study's failure needs a memory limit the nodes can hit: a cgroup, or prlimit.
  const sleeper = spawn('sleep', ['30']);
  t.after(() => sleeper.kill());
  const limit = await limitProcesses([sleeper.pid], { memoryBytes: 64 * 1024 * 1024 });
  if (limit.unavailable) return void unavailable(t, limit.unavailable);
  await limit.release();
  const run = await counterRun(t, 'cluster-vs-document', 'large-writes-redis-unstable', env);
  assertFlipped(run, { normal: HOLDS, counter: FAILS, change: /^the same memory limits with room to spare/ });
  assert.match(run.stdout, /phase c: redis-cluster: \d of the 6 node\(s\) of the redis-cluster server stopped/);
  assert.ok(!run.record.counterRuns[0].notes.some((note) => /stopped during the phase/.test(note)),
    'with room to spare, no node stopped');
});

test('redis-vs-memory: memory-faster holds with Redis 1 ms from both clients (its counter-run); as the study had ' +
  'it, it comes out either way on a tie of the same JSON.stringify', async (t) => {
  const env = await servicesEnv(t);
  if (!env) return;
  const { verdict, record } = await counterRun(t, 'redis-vs-memory', 'memory-faster', env);
  assert.match(verdict.verdict, /^(holds here|does not hold here)$/);
  assert.equal(verdict.counter.verdict, HOLDS, verdict.counter.explanation);
  assert.equal(verdict.counter.how, '--store-rtt redis=1,ioredis=1');
  assert.deepEqual(record.counterRuns[0].verdicts, ['memory-faster']);
});

test('client-libraries: no verdict has a counter-run, and each says why none can be made here', () => {
  for (const conclusion of clientLibraries.conclusions.filter((candidate) => candidate.check)) {
    assert.equal(conclusion.counter, undefined, conclusion.id);
    assert.match(conclusion.noCounter, /no change of the system/, conclusion.id);
  }
});
