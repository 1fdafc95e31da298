// The bottleneck rule (result/bottleneck.js) on made-up tier figures: each verdict, the order of
// precedence between them, and the evidence naming the figures that decided it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  bottleneckOf, bottleneckText, commonBottleneck, everyCoreBusy, idleCores, sharedBottleneck,
} from '../../result/bottleneck.js';
import { machineWarnings } from '../../driver/machine-load.js';
import { stepTiers } from '../../driver/sweep-phases.js';

const QUIET = { stealPercent: 0, othersCpuPercent: 5, treeCpuPercent: 60, loadAverage: 0.5 };

/** A step with these tiers' CPU (% of a core) on a 2-core machine: app on 1 core, redis on 1. */
function step({ driver = 20, app = 40, redis = 5, machine = QUIET, workers = null, mode = 'http', appCpu } = {}) {
  const tier = (cpuPercent, cores) =>
    ({ cpuPercent, microsPerResponse: cpuPercent === null ? null : cpuPercent * 2, cores });
  return {
    mode,
    model: 'closed',
    cpuPercent: driver,
    workers,
    latency: { meanMs: 4.2 },
    machine,
    warnings: machineWarnings(machine),
    tiers: {
      driver: { cpuPercent: driver, microsPerResponse: 50, threads: workers?.length ?? 1 },
      app: mode === 'direct'
        ? null
        : { ...tier(app, 1), processes: 1, source: app === null ? null : 'proc', ...appCpu },
      servers: redis === undefined ? [] : [{ name: 'redis', stores: ['redis'], ...tier(redis, 1), source: 'proc' }],
    },
  };
}
const verdict = (figures, options = { cpus: 2 }) => bottleneckOf(step(figures), options);

test('each tier saturated is named, with the figure that decided it', () => {
  const app = verdict({ app: 97 });
  assert.equal(app.tier, 'app');
  assert.match(app.evidence, /^the app used 97% of its 1 core \(1 process, 194 µs per response\); driver 20%, redis 5% of 1 core/);
  const server = verdict({ redis: 99 });
  assert.deepEqual([server.tier, server.server], ['server', 'redis']);
  assert.match(server.evidence, /^redis used 99% of its 1 core, 198 µs per response; driver 20%, app 40% of 1 core$/);
  const driver = verdict({ driver: 95 });
  assert.equal(driver.tier, 'driver');
  assert.match(driver.evidence, /^the driver's thread used 95% of a core, 50 µs per response; app 40% of 1 core/);
  const workers = verdict({ driver: 150, workers: [{ cpuPercent: 92 }, { cpuPercent: 58 }] });
  assert.equal(workers.tier, 'driver', 'with --workers: the busiest thread decides');
  assert.match(workers.evidence, /^the busiest of 2 driver threads used 92% of a core/);
  assert.equal(verdict({ driver: 150, workers: [{ cpuPercent: 75 }, { cpuPercent: 75 }] }).tier, 'latency',
    'two threads at 75% each: no thread saturated');
});

test('precedence: driver, then app, then server, then machine, then latency', () => {
  const busy = { stealPercent: 30, othersCpuPercent: 120, treeCpuPercent: 80, loadAverage: 3 };
  assert.equal(verdict({ driver: 95, app: 99, redis: 99, machine: busy }).tier, 'driver');
  assert.equal(verdict({ app: 99, redis: 99, machine: busy }).tier, 'app');
  assert.equal(verdict({ redis: 99, machine: busy }).tier, 'server');
  assert.equal(verdict({ machine: busy }).tier, 'machine');
  assert.equal(verdict({}).tier, 'latency');
});

test('an app at 90% of one core is saturated; an app of 2 processes at 120% on 2 cores is not', () => {
  assert.equal(verdict({ app: 90 }).tier, 'app');
  assert.equal(verdict({ app: 89 }).tier, 'latency');
  const two = verdict({ app: 120, appCpu: { processes: 2, cores: 2 } });
  assert.equal(two.tier, 'latency');
  assert.equal(verdict({ app: 185, appCpu: { processes: 2, cores: 2 } }).tier, 'app');
});

test('machine: steal, other processes, or every core busy, each named in the evidence', () => {
  const steal = verdict({ machine: { ...QUIET, stealPercent: 25 } });
  assert.equal(steal.tier, 'machine');
  assert.match(steal.evidence, /^no tier saturated \(driver 20%, app 40% of 1 core, redis 5% of 1 core\); the hypervisor took 25%/);
  const others = verdict({ machine: { ...QUIET, othersCpuPercent: 70 } });
  assert.match(others.evidence, /other processes used 70% of a core$/);
  // 150 + 40 + 2 x 3 = 196 of 200: every core busy, under both warnings' thresholds.
  const full = { stealPercent: 3, othersCpuPercent: 40, treeCpuPercent: 150, loadAverage: 2 };
  assert.deepEqual(machineWarnings(full), []);
  assert.equal(everyCoreBusy(full, 2), true);
  assert.match(verdict({ machine: full }).evidence, /every core was busy \(this run 150%, others 40%, steal 3% of 2 cores\)/);
});

test('latency: nothing saturated and the machine idle; open model says the rate was served', () => {
  const latency = verdict({});
  assert.equal(latency.tier, 'latency');
  assert.match(latency.evidence, /the closed loop waited on the store or the network \(mean latency 4\.20 ms\)$/);
  assert.match(bottleneckOf({ ...step({}), model: 'open' }, { cpus: 2 }).evidence, /the offered rate was served/);
});

test('a tier not measured: no latency claim; a saturated tier still decides', () => {
  const unknown = verdict({ app: null });
  assert.equal(unknown.tier, null);
  assert.match(unknown.evidence, /^cannot tell: .*the app could not be measured$/);
  assert.equal(verdict({ app: null, redis: 99 }).tier, 'server');
  assert.equal(verdict({ app: null, driver: 97 }).tier, 'driver');
  const direct = verdict({ mode: 'direct', redis: 10 });
  assert.equal(direct.tier, 'latency', 'direct mode has no app to measure');
  assert.equal(bottleneckText(unknown), '-');
});

test('the app message suggests more app processes when cores sat idle, by the run\'s own flag', () => {
  const idle = { stealPercent: 0, othersCpuPercent: 5, treeCpuPercent: 95, loadAverage: 1 };
  assert.equal(idleCores(idle, 2), 1);
  const hinted = verdict({ app: 95, machine: idle }, { cpus: 2, appWorkersFlag: '--app-workers' });
  assert.match(hinted.evidence, /; 1 core idle: --app-workers 2 lets it use it$/);
  const full = { stealPercent: 0, othersCpuPercent: 90, treeCpuPercent: 105, loadAverage: 3 };
  assert.doesNotMatch(verdict({ app: 95, machine: full }, { cpus: 2, appWorkersFlag: '--app-workers' }).evidence, /idle/);
  assert.doesNotMatch(verdict({ app: 95, machine: idle }, { cpus: 2 }).evidence, /idle/, 'no flag: no hint');
});

test('a comparison row takes its repeats\' most common bottleneck; a group names the tier its rows share', () => {
  const of = (tier, server = null) => ({ bottleneck: { tier, server, evidence: `${tier} evidence` } });
  const common = commonBottleneck([of('machine'), of('app'), of('app')]);
  assert.deepEqual([common.tier, common.evidence], ['app', '2 of 3 repeats; the first: app evidence']);
  assert.deepEqual(commonBottleneck([of('server', 'redis')]), of('server', 'redis').bottleneck);
  assert.equal(commonBottleneck([{}, {}]), null, 'steps without one (a merged run): none');
  const rows = (...tiers) => tiers.map((tier) => ({ failed: false, bottleneck: tier && { tier } }));
  assert.equal(sharedBottleneck(rows('app', 'app', 'app')), 'app');
  assert.equal(sharedBottleneck(rows('app', 'latency')), null);
  assert.equal(sharedBottleneck(rows('app', null)), null);
  assert.equal(sharedBottleneck([...rows('driver', 'driver'), { failed: true, bottleneck: null }]), 'driver');
});

test('a step\'s tiers: the driver\'s µs per response is its CPU seconds over its responses', () => {
  // Regression (issue 35): it was cpuPercent times elapsedSeconds, though cpuPercent is over the
  // step's own clock (a longer span: the drain, the engine's start): 2.4 s here, not 2.
  const tiers = stepTiers({ cpuPercent: 50, cpuSeconds: 1.2, elapsedSeconds: 2, responses: 4000, mode: 'http' }, null);
  assert.deepEqual(tiers.driver, { cpuPercent: 50, microsPerResponse: 300, threads: 1 });
  assert.deepEqual(tiers.app, {
    cpuPercent: null,
    microsPerResponse: null,
    processes: null,
    cores: null,
    busiestPercent: null,
    detail: null,
    source: null,
  }, 'over HTTP with nothing read: the app is there, not measured');
  assert.deepEqual(tiers.servers, []);
  assert.equal(stepTiers({ cpuPercent: 50, elapsedSeconds: 2, responses: 10, mode: 'direct' }, null).app, null);
  const idle = stepTiers({ cpuPercent: 0, elapsedSeconds: 0, responses: 0, mode: 'http' }, null);
  assert.equal(idle.driver.microsPerResponse, null);
  const figures = { cpuPercent: 120, elapsedSeconds: 1, responses: 100, mode: 'http', workers: [{}, {}] };
  const workers = stepTiers(figures, null);
  assert.equal(workers.driver.threads, 2);
});
