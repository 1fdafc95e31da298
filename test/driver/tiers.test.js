// The tiers' CPU against known cases: a process burning a known share of a core reads that
// share; a server burning a known CPU time per request reads it per response; an app's /metrics
// and a Redis's INFO cpu agree with /proc about the same process. The truth each is held to is
// the process's own clock (process.cpuUsage, Redis's used_cpu_*), not the figure under test's
// /proc ticks. This VM is shared: a burner may get less than it asks, so the figure is held to
// what it really used, and to the share it asked for only when it got about that.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runSweep } from '../../driver/sweep.js';
import { sweepSettings } from '../helpers/sweep-settings.js';
import { measureStep } from '../../driver/step.js';
import { loadtestEngine } from '../../driver/engines/loadtest.js';
import { createMachineMonitor, listeningPidsByPort } from '../../driver/machine-load.js';
import { createTierSampler } from '../../driver/tier-cpu.js';
import { planTiers } from '../../driver/tier-plan.js';
import { joinUrl } from '../../driver/targets.js';
import { startAppProcess } from '../../driver/app-process.js';
import { forkListening } from '../../util/fork-child.js';
import { ownRedis } from '../helpers/own-servers.js';

const BURN_SERVER = fileURLToPath(new URL('../helpers/burn-server.js', import.meta.url));
const noProc = () => !existsSync('/proc/stat');

async function startBurnServer(t, spec) {
  const { message, stop } = await forkListening(BURN_SERVER, [JSON.stringify(spec)], { name: 'burn-server' });
  t.after(stop);
  const own = async () => (await fetch(`${message.url}/cpu`)).json();
  return { url: message.url, own };
}

// What the burner used by its own clock between two of its /cpu answers: % of a core, µs per request.
const usedBetween = (before, after) => ({
  percent: ((after.cpuMicros - before.cpuMicros) / 1000 / (after.atMs - before.atMs)) * 100,
  microsPerRequest: (after.cpuMicros - before.cpuMicros) / Math.max(1, after.served - before.served),
});

test('a process burning half a core reads as the app at what it burnt, by its own clock', { timeout: 60_000 },
  async (t) => {
    if (noProc()) return void t.skip('no /proc: tiers are read from /proc on Linux');
    const server = await startBurnServer(t, { dutyPercent: 50 });
    // A trickle of requests (20 a second), so that the app's CPU is its background burn.
    const settings = sweepSettings({ rps: [20], duration: 3, warmup: 0, keepAlive: true, timeoutMs: 5000 });
    const before = await server.own();
    const { steps: [step] } = await runSweep([{ url: `${server.url}/burn/k`, store: 'burn', key: 'k' }], settings);
    const used = usedBetween(before, await server.own());
    const { app } = step.tiers;
    t.diagnostic(`burner's own clock ${used.percent.toFixed(1)}%; tiers.app ${JSON.stringify(app)}`);
    assert.equal(app.source, 'proc');
    assert.deepEqual([app.processes, app.cores], [1, 1]);
    assert.ok(Math.abs(app.cpuPercent - used.percent) <= 8,
      `tiers.app ${app.cpuPercent.toFixed(1)}% against its own ${used.percent.toFixed(1)}%`);
    if (used.percent >= 40 && used.percent <= 60) {
      assert.ok(Math.abs(app.cpuPercent - 50) <= 12, `asked 50% of a core, read ${app.cpuPercent.toFixed(1)}%`);
    } else {
      t.diagnostic(`the burner got ${used.percent.toFixed(0)}% of a core, not the 50% asked: the machine was busy`);
    }
    assert.deepEqual(step.tiers.servers, [], 'a --url with no listing: no server known');
  });

test('a server burning 1.5 ms of CPU per request reads that per response: CPU over responses', { timeout: 60_000 },
  async (t) => {
    if (noProc()) return void t.skip('no /proc: tiers are read from /proc on Linux');
    const server = await startBurnServer(t, { requestMicros: 1500 });
    const settings = sweepSettings({ concurrency: [2], duration: 2, warmup: 0, keepAlive: true, timeoutMs: 5000 });
    const before = await server.own();
    const { steps: [step] } = await runSweep([{ url: `${server.url}/burn/k`, store: 'burn', key: 'k' }], settings);
    const used = usedBetween(before, await server.own());
    const { app, driver } = step.tiers;
    t.diagnostic(`own ${used.microsPerRequest.toFixed(0)} µs per request; tiers ${JSON.stringify(step.tiers)}`);
    assert.ok(app.microsPerResponse >= 1500 * 0.95, `at least the burn: ${app.microsPerResponse.toFixed(0)} µs`);
    assert.ok(Math.abs(app.microsPerResponse / used.microsPerRequest - 1) <= 0.15,
      `${app.microsPerResponse.toFixed(0)} µs per response against its own ${used.microsPerRequest.toFixed(0)}`);
    // The driver's: its CPU seconds over its responses.
    const expected = (step.cpuSeconds * 1e6) / step.responses;
    assert.ok(Math.abs(driver.microsPerResponse - expected) < 1e-6 * expected);
    assert.equal(driver.threads, 1);
  });

test('an app\'s /metrics and /proc agree on its CPU over the same step', { timeout: 90_000 }, async (t) => {
  if (noProc()) return void t.skip('no /proc: tiers are read from /proc on Linux');
  const app = await startAppProcess({ stores: ['memory'], args: ['--metrics'] });
  t.after(() => app.stop());
  const cpus = 2;
  const fromProc = createTierSampler(planTiers({ appPid: app.child.pid, services: new Map() }));
  const fromMetrics = createTierSampler({
    app: { source: 'metrics', metricsUrl: joinUrl(app.url, 'metrics') }, servers: [], cpus,
  });
  const samples = [fromProc, fromMetrics].map((tiers) => createMachineMonitor({ tiers }).start());
  const load = { url: joinUrl(app.url, 'memory/key1'), concurrency: 5, durationSeconds: 3 };
  const step = await measureStep(loadtestEngine, load);
  for (const sample of samples) sample.stop();
  const [proc, metrics] = await Promise.all(samples.map((sample) => sample.tiers(step.responses, 'memory')));
  t.diagnostic(`proc ${JSON.stringify(proc.app)}; metrics ${JSON.stringify(metrics.app)}`);
  assert.equal(metrics.app.source, 'metrics');
  assert.ok(proc.app.cpuPercent > 10, 'the app worked');
  assert.ok(Math.abs(proc.app.cpuPercent - metrics.app.cpuPercent) <= 12,
    `proc ${proc.app.cpuPercent.toFixed(1)}% and metrics ${metrics.app.cpuPercent.toFixed(1)}% of a core`);
});

test('a Redis\'s INFO cpu and /proc agree on its CPU over the same load', { timeout: 60_000 }, async (t) => {
  if (noProc()) return void t.skip('no /proc: tiers are read from /proc on Linux');
  const redis = await ownRedis(t);
  if (!redis) return;
  const { port } = new URL(redis.url);
  const pids = listeningPidsByPort([Number(port)]).get(Number(port));
  assert.ok(pids.length, 'our own redis-server is visible in /proc');
  const server = (how) => ({ name: 'redis', stores: ['redis'], cores: 1, ...how });
  const samplers = [
    createTierSampler({ app: null, servers: [server({ pids, redisUrl: null })], cpus: 2 }),
    createTierSampler({ app: null, servers: [server({ pids: [], redisUrl: redis.url })], cpus: 2 }),
  ];
  const { default: Redis } = await import('ioredis');
  const client = new Redis(redis.url);
  t.after(() => client.disconnect());
  await client.set('tiers-test-key', 'x'.repeat(1000));
  const samples = samplers.map((tiers) => createMachineMonitor({ tiers }).start());
  let commands = 0;
  const until = Date.now() + 2500;
  while (Date.now() < until) {
    await Promise.all(Array.from({ length: 50 }, () => client.get('tiers-test-key')));
    commands += 50;
  }
  for (const sample of samples) sample.stop();
  const [proc, info] = (await Promise.all(samples.map((sample) => sample.tiers(commands, 'redis'))))
    .map((figures) => figures.servers[0]);
  t.diagnostic(`proc ${JSON.stringify(proc)}; INFO ${JSON.stringify(info)}`);
  assert.deepEqual([proc.source, info.source], ['proc', 'redis-info']);
  assert.ok(proc.cpuPercent > 5, 'the server worked');
  assert.ok(Math.abs(proc.cpuPercent - info.cpuPercent) <= 10,
    `proc ${proc.cpuPercent.toFixed(1)}% and INFO ${info.cpuPercent.toFixed(1)}% of a core`);
});
