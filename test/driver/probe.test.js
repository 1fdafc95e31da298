// --probe: a separate prober, one request at a time, before the load and during it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { runDriverCli } from '../helpers/driver-cli.js';
import { reachable, testRedisUrl, unavailable } from '../helpers/services.js';

// A server that holds each request HOLD_PER_REQUEST_MS for every request in flight when it
// arrives, itself included: alone, 2 ms; behind 20 others, 42 ms. Counts what it served.
const HOLD_PER_REQUEST_MS = 2;
async function crowdServer(t) {
  let inFlight = 0;
  let served = 0;
  const server = createServer((request, response) => {
    if (request.url === '/served') return response.end(String(served));
    inFlight += 1;
    served += 1;
    setTimeout(() => {
      inFlight -= 1;
      response.end('ok');
    }, HOLD_PER_REQUEST_MS * inFlight);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  }));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, served: async () => Number(await (await fetch(`${url}/served`)).text()) };
}

test('--probe against a server whose latency grows with the requests in flight: ' +
  'the probe under load is slower than idle, and its requests are not in the step', async (t) => {
  const server = await crowdServer(t);
  const warmup = 50;
  const run = await runDriverCli([
    '--url', `${server.url}/key1`, '--probe', '-c', '20', '-n', '600', '--warmup', String(warmup), '--warmup-max', '0',
    '--json', '-',
  ]);
  assert.equal(run.status, 0, run.stderr);
  const result = JSON.parse(run.stdout);
  const [step] = result.steps;
  const { probe } = step;
  assert.equal(probe.thread, 'worker');
  assert.ok(probe.idle.count > 0 && probe.underLoad.count > 0, JSON.stringify(probe));
  assert.equal(probe.idle.errors + probe.underLoad.errors, 0);
  assert.ok(probe.underLoad.p50Ms > probe.idle.p50Ms,
    `probe p50 under load ${probe.underLoad.p50Ms} ms, idle ${probe.idle.p50Ms} ms`);
  // Alone, a request is held one share; among the step's 20 clients, about 21 shares.
  assert.ok(probe.idle.p50Ms >= HOLD_PER_REQUEST_MS, `idle p50 ${probe.idle.p50Ms} ms`);
  assert.ok(probe.underLoad.p50Ms >= 10 * HOLD_PER_REQUEST_MS, `under-load p50 ${probe.underLoad.p50Ms} ms`);
  // The step counted exactly its own requests; the server saw those, the warm-up's, the
  // probe's, and the one GET that checks a --url is reachable before anything else.
  assert.equal(step.requests, 600);
  assert.equal(step.responses, 600);
  assert.equal(await server.served(), 1 + warmup + 600 + probe.idle.warmup + probe.idle.count + probe.underLoad.count);
  // The table shows the probe's columns.
  assert.match(run.stderr, /probeIdleP50 +probeIdleP99 +probeLoadP50 +probeLoadP99/);
});

test('without --probe a step has probe null and the table no probe columns', async (t) => {
  const server = await crowdServer(t);
  const run = await runDriverCli([
    '--url', `${server.url}/key1`, '-c', '2', '-n', '20', '--warmup', '0', '--json', '-',
  ]);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).steps[0].probe, null);
  assert.doesNotMatch(run.stderr, /probeIdleP50/);
});

test('--probe with -n too small to probe: exit 2 with one line', async () => {
  for (const [args, expected] of [
    [['-c', '10,50', '-n', '400'], /node test: --probe: -n 400 is too few to probe at concurrency 50 .*use -n 500 or more/],
    [['--rps', '2000', '-n', '100'], /node test: --probe: -n 100 at 2000 rps lasts under 0.1 s, too short to probe: use -n 200 or more/],
    [['-t', '0.05'], /node test: --probe: steps of 0.05 s are too short to probe/],
  ]) {
    const run = await runDriverCli(['--url', 'http://127.0.0.1:9/key1', '--probe', ...args]);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, expected);
    assert.equal(run.stderr.split('\n').filter((line) => line.startsWith('node test:')).length, 1, run.stderr);
  }
});

test('--probe in direct mode: redis probed from its own thread and connection, ' +
  'memory from the driver\'s thread', async (t) => {
  if (!(await reachable(testRedisUrl))) return unavailable(t, `redis is not reachable at ${testRedisUrl}`);
  const run = await runDriverCli([
    '--direct', '--stores', 'memory,redis', '--keys', 'key1', '--probe', '-c', '4', '-n', '2000', '--warmup', '0',
    '--json', '-',
  ], {
    env: { ...process.env, REDIS_URL: testRedisUrl },
  });
  assert.equal(run.status, 0, run.stderr);
  const steps = Object.fromEntries(JSON.parse(run.stdout).steps.map((step) => [step.store, step]));
  assert.equal(steps.redis.probe.thread, 'worker');
  assert.equal(steps.memory.probe.thread, 'main');
  for (const step of Object.values(steps)) {
    assert.equal(step.requests, 2000);
    assert.ok(step.probe.idle.count > 0, JSON.stringify(step.probe));
    assert.equal(step.probe.idle.errors, 0);
    assert.ok(step.probe.idle.p50Ms > 0);
  }
  assert.ok(steps.redis.probe.underLoad.count > 0, JSON.stringify(steps.redis.probe));
  assert.match(run.stderr, /probe: one request at a time from the driver's own thread/);
});
