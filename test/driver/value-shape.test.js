// --value-shape hash: direct runs that store each value as a Redis hash, or as
// a JSON document where the store has no hash type, against the test's real servers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runDriverCli } from '../helpers/driver-cli.js';
import { reachable, testPostgresUrl, testRedisUrl, unavailable } from '../helpers/services.js';
import { HASH_FIELDS } from '../../config/workloads.js';

const env = { ...process.env, REDIS_URL: testRedisUrl, POSTGRES_URL: testPostgresUrl };
const fieldNames = Array.from({ length: HASH_FIELDS }, (_, i) => `f${i}`);

async function runDirect(args) {
  const run = await runDriverCli(['--direct', '--warmup', '0', '--json', '-', ...args], { env });
  let result = null;
  try {
    result = JSON.parse(run.stdout);
  } catch {}
  return { ...run, result };
}

async function redisClient(t) {
  const { createClient } = await import('redis');
  const client = createClient({ url: testRedisUrl });
  await client.connect();
  t.after(() => client.close());
  return client;
}

for (const [store, url] of [['redis', testRedisUrl], ['postgres', testPostgresUrl]]) {
  test(`--value-shape hash on ${store}: mixed:50/50 over 200 records loads, runs exactly -n calls with the probe, ` +
    'verifies, and records the shape', async (t) => {
    if (!(await reachable(url))) return unavailable(t, `${store} is not reachable at ${url}`);
    const { status, stderr, result } = await runDirect([
      '--stores', store, '--value-shape', 'hash', '--workload', 'mixed:50/50', '--records', '200', '--seed', '11',
      '-n', '400', '-c', '4', '--probe',
    ]);
    assert.equal(status, 0, stderr);
    assert.equal(result.settings.valueShape, 'hash');
    assert.match(stderr, /values 100 B as hashes of 10 fields/);
    assert.equal(result.loads.length, 1);
    assert.equal(result.loads[0].loaded, 200);
    assert.equal(result.loads[0].errors.total, 0);
    const [step] = result.steps;
    assert.equal(step.requests, 400);
    assert.equal(step.responses, 400);
    assert.equal(step.operations.reduce((sum, operation) => sum + operation.requests, 0), 400);
    assert.equal(step.errors.total, 0, JSON.stringify(step.errors)); // no read found nothing, no write failed
    // The probe reads user0000000000 in the same shape: a plain read of a hash would fail.
    assert.equal(step.probe.error, null);
    assert.equal(step.probe.underLoad.errors, 0);
    assert.ok(step.probe.underLoad.count > 0);
    const [verification] = result.verifications;
    assert.equal(verification.mismatched, 0, JSON.stringify(verification.examples));
    assert.ok(verification.verified > 0 && verification.verified === verification.sampled,
      JSON.stringify(verification));
  });
}

test('--value-shape hash on redis: the records really are Redis hashes of 10 fields ' +
  'whose bytes add up to the value size', async (t) => {
  if (!(await reachable(testRedisUrl))) return unavailable(t, `redis is not reachable at ${testRedisUrl}`);
  const { status, stderr } = await runDirect([
    '--stores', 'redis', '--value-shape', 'hash', '--workload', 'read', '--records', '50', '--value-size', '1KB',
    '-n', '50', '-c', '2',
  ]);
  assert.equal(status, 0, stderr);
  const client = await redisClient(t);
  assert.equal(await client.type('user0000000000'), 'hash');
  assert.equal(await client.type('user0000000049'), 'hash');
  assert.deepEqual((await client.hKeys('user0000000000')).sort(), [...fieldNames].sort());
  let total = 0;
  for (const field of fieldNames) total += await client.hStrLen('user0000000000', field);
  assert.equal(total, 1024);
});

test('--value-shape hash on postgres: each record is the JSON document of its 10 fields, in base64', async (t) => {
  if (!(await reachable(testPostgresUrl))) return unavailable(t, `postgres is not reachable at ${testPostgresUrl}`);
  const { status, stderr } = await runDirect([
    '--stores', 'postgres', '--value-shape', 'hash', '--workload', 'read', '--records', '20', '-n', '20', '-c', '2',
  ]);
  assert.equal(status, 0, stderr);
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: testPostgresUrl });
  await client.connect();
  t.after(() => client.end());
  const { rows } = await client.query("SELECT value FROM storebench WHERE key = 'user0000000000'");
  const document = JSON.parse(rows[0].value.toString('utf8'));
  assert.deepEqual(Object.keys(document), fieldNames);
  assert.equal(Object.values(document).reduce((sum, text) => sum + Buffer.from(text, 'base64').length, 0), 100);
});

test('--value-shape hash with --workers 2 on redis: each worker thread reads the hashes in that shape', async (t) => {
  if (!(await reachable(testRedisUrl))) return unavailable(t, `redis is not reachable at ${testRedisUrl}`);
  const { status, stderr, result } = await runDirect([
    '--stores', 'redis', '--value-shape', 'hash', '--workload', 'read', '--records', '100', '-n', '300', '-c', '4',
    '--threads', '2',
  ]);
  assert.equal(status, 0, stderr);
  assert.equal(result.steps[0].requests, 300);
  assert.equal(result.steps[0].errors.total, 0, JSON.stringify(result.steps[0].errors));
});

test('--value-shape hash without --direct: exit 2 with one line, nothing run', async () => {
  const { status, stdout, stderr } = await runDriverCli([
    '--value-shape', 'hash', '--workload', 'mixed:50/50', '--records', '200', '-n', '10',
  ]);
  assert.equal(status, 2);
  assert.equal(stdout, '');
  assert.deepEqual(stderr.split('\n').filter((line) => line.startsWith('node test:')),
    ['node test: --value-shape hash needs --direct: over HTTP the app stores the bytes each request carries']);
  assert.doesNotMatch(stderr, /at .*\.js:\d+/, 'no stack trace');
});
