// --workers in direct mode: each worker thread opens its own connection to the
// store's server from the connection the driver resolved; memory, which has no server, runs
// in the driver's main thread.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runDriverCli } from '../helpers/driver-cli.js';
import { reachable, testPostgresUrl, testRedisUrl, unavailable } from '../helpers/services.js';

const env = { ...process.env, REDIS_URL: testRedisUrl, POSTGRES_URL: testPostgresUrl };

for (const [store, url] of [['redis', testRedisUrl], ['postgres', testPostgresUrl]]) {
  test(`--direct --workers 2 on ${store} with -n 400: each worker's own connection, counts exact, ` +
    'every call answered', { timeout: 120_000 }, async (t) => {
    if (!(await reachable(url))) return unavailable(t, `${store} is not reachable at ${url}`);
    const run = await runDriverCli([
      '--direct', '--stores', store, '--keys', 'key1', '--threads', '2', '-c', '4', '-n', '400', '--warmup', '20',
      '-q', '--json', '-',
    ], { env });
    assert.equal(run.status, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    const [step] = result.steps;
    assert.equal(step.mode, 'direct');
    assert.equal(step.requests, 400);
    assert.equal(step.responses, 400);
    assert.deepEqual(step.errors, { total: 0, byKind: {}, samples: {} });
    assert.deepEqual(step.workers.map((worker) => worker.requests), [200, 200]);
  });
}

test('--direct --workers 2 on memory runs its steps in the main thread, and says so', { timeout: 60_000 }, async () => {
  const run = await runDriverCli([
    '--direct', '--stores', 'memory', '--keys', 'key1', '--threads', '2', '-c', '4', '-n', '300', '--warmup', '0',
    '-q', '--json', '-',
  ], { env });
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stderr, /note: the memory store exists only in the driver's main thread: its steps run there, on one worker/);
  const [step] = JSON.parse(run.stdout).steps;
  assert.equal(step.requests, 300);
  assert.equal(step.workers, null);
});
