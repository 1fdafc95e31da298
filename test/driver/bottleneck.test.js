// The bottleneck of real steps whose limit is known: the app (memory's 200 KB key3 at c=20, one
// app process), the network (a store behind --store-rtt 20 at c=5), the driver (the loadtest
// engine against a bare node:http server at c=50) and a store server (a redis-server kept busy
// by scripts, behind an app given its URL). This VM has 2 cores shared with other sessions and
// steal from the hypervisor: when the machine is short of CPU no tier may reach 90% of its
// cores, and the rule then says `machine`, which is the truth of that step. A test accepts that
// verdict only when the step's own figures show the shortage, and then asserts that the tier it
// is about was the one nearest its limit; it says so in a diagnostic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { runBenchmark } from '../../driver/run.js';
import { parseArguments } from '../../cli/options.js';
import { startAppProcess } from '../../driver/app-process.js';
import { fromJson, toJson } from '../../result/format.js';
import { renderRun } from '../../report/run-text.js';
import {
  bottleneckOf, busiestDriverThread, everyCoreBusy, shareOfCores, threadsWaited,
} from '../../result/bottleneck.js';
import { startHoldServer } from '../helpers/driver-servers.js';
import { ownRedis } from '../helpers/own-servers.js';

const noProc = () => !existsSync('/proc/stat');

async function run(args) {
  const { options, problems } = parseArguments([...args, '-q']);
  assert.deepEqual(problems, []);
  const result = await runBenchmark(options);
  assert.deepEqual(fromJson(toJson(result)), result, 'the tiers and bottleneck survive the results file');
  return result;
}

// The tier nearest its limit: its share of the cores it can use (a driver thread: of one core).
function nearestLimit(step) {
  const shares = [
    ['driver', busiestDriverThread(step)],
    ...(step.tiers.app ? [['app', shareOfCores(step.tiers.app)]] : []),
    ...step.tiers.servers.map((server) => [server.name, shareOfCores(server)]),
  ].filter(([, share]) => share !== null);
  return shares.sort((a, b) => b[1] - a[1])[0][0];
}

const machineShort = (step, cpus) => everyCoreBusy(step.machine, cpus) || threadsWaited(step.machine) ||
  step.warnings.some((warning) => warning.code === 'CPU_STEAL' || warning.code === 'BUSY_MACHINE');

/**
 * Asserts `expected` (or, on a machine short of CPU, `machine` with `who` nearest its limit;
 * `who` null: no tier in particular).
 */
function assertAttributed(t, result, expected, who = expected) {
  const [step] = result.steps;
  const { tier, server, evidence } = step.bottleneck;
  t.diagnostic(`${tier}${server ? ` ${server}` : ''}: ${evidence}`);
  if (tier === 'machine' && expected !== 'machine') {
    t.diagnostic(`the machine was short of CPU during this step: ${expected} is not asserted` +
      (who ? `; ${who} is asserted as the tier nearest its limit instead` : ''));
    assert.ok(machineShort(step, result.system.cpuCount), 'a machine verdict rests on the step\'s own figures');
    if (who) assert.equal(nearestLimit(step), who);
    return;
  }
  assert.equal(tier, expected);
  if (expected === 'server') assert.equal(server, who);
}

test('memory\'s 200 KB key3 at concurrency 20 is limited by the app', { timeout: 120_000 }, async (t) => {
  if (noProc()) return void t.skip('no /proc: tiers are read from /proc on Linux');
  const result = await run(['--stores', 'memory', '--keys', 'key3', '-c', '20', '-t', '3', '--engine', 'fast',
    '--warmup-max', '1']);
  const [step] = result.steps;
  assert.equal(step.tiers.app.source, 'proc');
  assert.deepEqual(step.tiers.servers, [], 'memory has no server');
  assertAttributed(t, result, 'app');
  if (step.bottleneck.tier === 'app') assert.match(step.bottleneck.evidence, /^the app used \d+% of its 1 core/);
  assert.match(renderRun(result, { verbose: true }),
    /\nconcurrency 20: bottleneck (app|machine) \(.*\) · CPU µs per response: driver \d+, app \d+\n/);
});

test('a store behind --store-rtt 20 at concurrency 5 is limited by latency', { timeout: 120_000 }, async (t) => {
  if (noProc()) return void t.skip('no /proc: tiers are read from /proc on Linux');
  const result = await run(['--stores', 'redis', '--keys', 'key1', '-c', '5', '-t', '3', '--store-rtt', '20',
    '--warmup-max', '1']);
  const [step] = result.steps;
  const [server] = step.tiers.servers;
  assert.equal(server.name, 'redis');
  assert.notEqual(server.cpuPercent, null, 'the redis server was measured');
  assert.ok(step.latency.meanMs >= 20, `each request waits the emulated round trip: ${step.latency.meanMs} ms`);
  assertAttributed(t, result, 'latency', null);
  // Whatever the machine did, the tiers' own figures say latency: none near its limit.
  const quiet = { ...step.machine, stealPercent: 0, othersCpuPercent: 0 };
  assert.equal(bottleneckOf({ ...step, warnings: [], machine: quiet }, { cpus: result.system.cpuCount }).tier,
    'latency');
});

test('the loadtest engine against a bare node:http server at concurrency 50 is limited by the driver',
  { timeout: 120_000 }, async (t) => {
    if (noProc()) return void t.skip('no /proc: tiers are read from /proc on Linux');
    const server = await startHoldServer(t, [0]);
    const result = await run(['--url', `${server.url}/bare/k`, '-c', '50', '-t', '3', '--engine', 'loadtest',
      '--warmup-max', '1']);
    const [step] = result.steps;
    assert.equal(step.tiers.app.source, 'proc', 'the server in its own process is the app');
    assertAttributed(t, result, 'driver');
  });

test('a redis-server kept busy is the bottleneck, named, behind an app given its URL', { timeout: 120_000 },
  async (t) => {
    if (noProc()) return void t.skip('no /proc: tiers are read from /proc on Linux');
    const redis = await ownRedis(t);
    if (!redis) return;
    const app = await startAppProcess({ stores: ['redis'], env: { ...process.env, REDIS_URL: redis.url } });
    t.after(() => app.stop());
    // Four scripts in flight at all times, each some 10 ms of the server's CPU: the app's GETs wait behind them,
    // and the server never waits on this process for the next (two left it at 88% on a loaded CI machine).
    const { default: Redis } = await import('ioredis');
    const busy = new Redis(redis.url);
    t.after(() => busy.disconnect());
    let keepBusy = true;
    const script = 'local x = 0 for i = 1, 1000000 do x = x + i end return x';
    const loops = Array.from({ length: 4 }, async () => {
      while (keepBusy) await busy.eval(script, 0);
    });
    let result;
    try {
      result = await run(['--target', app.url, '--stores', 'redis', '--keys', 'key1', '-c', '5', '-t', '3',
        '--warmup-max', '1']);
    } finally {
      keepBusy = false;
      await Promise.all(loops);
    }
    const [step] = result.steps;
    assert.deepEqual(step.tiers.servers.map((server) => [server.name, server.source]), [['redis', 'proc']]);
    assertAttributed(t, result, 'server', 'redis');
  });
