// Regression (issue 35): the bottleneck labels held on this 2-core VM and misled on bigger
// machines and with app workers. Each case feeds recorded /proc figures (test/helpers/recorded-proc.js)
// through the machine monitor, the tier sampler and the step record, on 2, 4, 16 and 64 cores,
// and checks the label the rules give (result/bottleneck.js, docs/measurement.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMachineMonitor } from '../../driver/machine-load.js';
import { createTierSampler } from '../../driver/tier-cpu.js';
import { stepRecord } from '../../driver/sweep-phases.js';
import { recordedProc } from '../helpers/recorded-proc.js';

const CORES = [2, 4, 16, 64];
const DRIVER = 10;
const NODE = '/usr/bin/node';

// The app alone (pid 100), or a cluster primary (100) and its workers (101...).
const appProcesses = (workers) => [
  { pid: 100, ppid: 1, exe: NODE },
  ...Array.from({ length: workers }, (_, index) => ({ pid: 101 + index, ppid: 100, exe: NODE })),
];

/**
 * One step of `seconds` on a machine of `cpus` CPUs: the driver's thread at `driver`% of a core,
 * each process at `percent[pid]`, and the machine as `machine` says ({ others, irq, steal }).
 * Resolves to the step record, its `tiers` and `bottleneck` among it.
 */
async function judge(t, {
  cpus, seconds = 1, driver = 20, workers = 0, servers = [], serverProcesses = [], percent = {}, threads = {},
  waits = {}, established = [], metrics = null, ...machine
}) {
  const processes = [
    { pid: DRIVER, ppid: 1, exe: NODE }, ...(metrics ? [] : appProcesses(workers)), ...serverProcesses,
  ];
  const proc = await recordedProc(t, { cpus, processes, established });
  const app = metrics
    ? { source: 'metrics', metricsUrl: 'http://10.0.0.9:8080/metrics' }
    : { source: 'proc', roots: [100], exclude: [], ports: [8080] };
  const tiers = createTierSampler({
    app, servers, cpus, procDir: proc.dir, appWorkersFlag: 'app.js --workers', readMetrics: metrics,
  });
  const roots = [DRIVER, ...(metrics ? [] : [100]), ...servers.flatMap((server) => server.pids)];
  const monitor = createMachineMonitor({ rootPids: roots, procDir: proc.dir, tiers });
  const sample = monitor.start();
  // The app's connections are counted a quarter of a second into the step.
  if (established.length || metrics) await sleep(300);
  await proc.step({ seconds, percent: { [DRIVER]: driver, ...percent }, threads, waits, ...machine });
  const figures = sample.stop();
  const read = await sample.tiers(10_000, servers[0]?.stores[0] ?? 'memory');
  const rps = 10_000 / seconds;
  return stepRecord({
    url: 'http://127.0.0.1:8080/memory/key1',
    mode: 'http',
    model: 'closed',
    concurrency: 5,
    requests: 10_000,
    responses: 10_000,
    wallSeconds: seconds,
    elapsedSeconds: seconds,
    rps,
    latency: { meanMs: 5000 / rps },
    errors: { total: 0, byKind: {} },
    cpuPercent: driver,
    cpuSeconds: (driver / 100) * seconds,
  }, {
    target: { store: 'memory', key: 'key1' },
    shown: { url: 'http://127.0.0.1:8080/memory/key1' },
    workload: null,
    repeat: 1,
    warmup: null,
    machine: figures,
    probe: null,
    engine: 'fast',
    tiers: read,
    monitor,
  });
}

const label = (step) => step.bottleneck.tier;

for (const cpus of CORES) {
  test(`${cpus} cores, steal: an app losing 8% of its core to the hypervisor is at its limit at 87%`, async (t) => {
    // Its core wanted 87 + 8 ticks a tick of ten... the driver's 30 lost 3: steal 11 of the 130
    // ticks the busy CPUs wanted (8.5%), however many idle CPUs average it away (2.75% of 4).
    const step = await judge(t, { cpus, percent: { 100: 87 }, driver: 30, others: 2, steal: 11 });
    assert.ok(Math.abs(step.machine.stealOfBusyPercent - (11 / 130) * 100) < 1e-9);
    assert.equal(label(step), 'app', step.bottleneck.evidence);
    assert.match(step.bottleneck.evidence, /^the app used 87% of its 1 core less 8% steal \(1 process, /);
  });

  test(`${cpus} cores, one pegged worker of four (c=5 held 2/1/1/1) is named: the app`, async (t) => {
    const established = [101, 101, 102, 103, 104].map((pid) => ({ port: 8080, pid }));
    const step = await judge(t, {
      cpus, workers: 4, established, percent: { 100: 2, 101: 95, 102: 20, 103: 20, 104: 15 },
    });
    const { app } = step.tiers;
    assert.deepEqual(app.detail.map(({ pid, role, connections }) => [pid, role, connections]),
      [[100, 'primary', 0], [101, 'worker', 2], [102, 'worker', 1], [103, 'worker', 1], [104, 'worker', 1]]);
    assert.deepEqual([app.processes, app.cores, app.busiestPercent], [5, Math.min(5, cpus), 95]);
    assert.equal(label(step), 'app', step.bottleneck.evidence);
    assert.match(step.bottleneck.evidence, /^the app's busiest process \(worker 101\) used 95% of a core, holding 2 of 5 connections; the app used 152% of its \d+ cores \(4 workers and their primary, /);
  });

  test(`${cpus} cores, a short step: 0.15 s, where one tick of luck is 7 points, is not judged`, async (t) => {
    // The app ran 14 of 15 ticks: 93% of a core, or 87% had one tick fallen the other way.
    const step = await judge(t, { cpus, seconds: 0.15, percent: { 100: 14 / 0.15 } });
    assert.equal(step.tiers.app.cpuPercent, null);
    assert.equal(step.machine.othersCpuPercent, null);
    assert.equal(label(step), null, step.bottleneck.evidence);
  });

  test(`${cpus} cores, 0.6 of a core of background work and the loopback's interrupts`, async (t) => {
    // This run: the driver 40%, the app 60%; others 60%, irq and softirq 10% (this run's networking).
    const step = await judge(t, { cpus, driver: 40, percent: { 100: 60 }, others: 60, irq: 10 });
    assert.equal(step.machine.othersCpuPercent, 60, 'interrupts are not other processes');
    assert.equal(step.machine.irqCpuPercent, 10);
    // This run left 1 core on 2, of which other processes took 60%; on 4 they took a fifth of the 3 left.
    const expected = cpus === 2 ? 'machine' : 'latency';
    assert.equal(label(step), expected, step.bottleneck.evidence);
    assert.equal(step.warnings.some((warning) => warning.code === 'BUSY_MACHINE'), cpus === 2);
  });

  test(`${cpus} cores, a neighbour in bursts: the driver's thread waited 22% of the step for a CPU`, async (t) => {
    // Recorded here (docs/measurement.md, "Waiting for a CPU"): the loadtest engine against bare node:http at
    // c=50 beside a process busy 2 ms in every 7. /proc/stat read others at 7%; the driver's run queue told.
    const figures = { cpus, driver: 78, percent: { 100: 41 }, others: 7 };
    const waited = await judge(t, { ...figures, waits: { [DRIVER]: 22, 100: 9 } });
    assert.ok(Math.abs(waited.machine.cpuWaitPercent - 22) < 1e-6, `${waited.machine.cpuWaitPercent}`);
    assert.equal(label(waited), 'machine', waited.bottleneck.evidence);
    assert.match(waited.bottleneck.evidence,
      /^no tier saturated \(driver 78%, app 41% of 1 core\); a thread of this run waited for a CPU 22% of the step/);
    const quiet = await judge(t, { ...figures, waits: { [DRIVER]: 3, 100: 2 } });
    assert.equal(label(quiet), 'latency', 'waits as a quiet step\'s (1-4%) leave the verdict to the tiers');
  });

  test(`${cpus} cores, a remote app of 4 workers read through /metrics at 170% of a core`, async (t) => {
    // Its /metrics adds up its primary and 4 workers, and says its machine's cores (here as many).
    const startedAt = process.hrtime.bigint();
    const metrics = async () => ({
      cpuSeconds: 1000 + 1.7 * (Number(process.hrtime.bigint() - startedAt) / 1e9), processes: 5, cpus,
    });
    const step = await judge(t, { cpus, metrics });
    const { app } = step.tiers;
    assert.deepEqual([app.source, app.processes, app.cores], ['metrics', 5, Math.min(5, cpus)]);
    assert.ok(Math.abs(app.cpuPercent - 170) < 15, `${app.cpuPercent}% of a core`);
    assert.equal(label(step), 'latency', step.bottleneck.evidence);
  });
}

test('32 cores, 20 ticks in all (6 ms): the app\'s one tick is not 160% of a core', async (t) => {
  // The reproduction: the floor counted ticks over every CPU.
  const step = await judge(t, { cpus: 32, seconds: 20 / 32 / 100, percent: { 100: 1 / (20 / 32 / 100) } });
  assert.equal(step.tiers.app.cpuPercent, null);
  assert.notEqual(label(step), 'app');
});

const server = (name, unit, pids, cores) => ({ name, stores: [name], cores, unit, pids, redisUrl: null });

for (const cpus of CORES) {
  test(`${cpus} cores, tarantool: its network and WAL threads are no part of its one core`, async (t) => {
    // 95% in all, of which its tx (main) thread 60%: room for more commands.
    const tarantool = server('tarantool', 'thread', [300], 1);
    const step = await judge(t, {
      cpus,
      servers: [tarantool],
      serverProcesses: [{ pid: 300, ppid: 1, exe: '/usr/bin/tarantool' }],
      percent: { 100: 30, 300: 95 },
      threads: { 300: 60 },
    });
    const [figures] = step.tiers.servers;
    assert.deepEqual([figures.cpuPercent, figures.busiestPercent, figures.detail[0].mainThreadPercent], [95, 60, 60]);
    assert.equal(label(step), 'latency', step.bottleneck.evidence);
  });

  test(`${cpus} cores, PostgreSQL: one backend at its core is the server's limit`, async (t) => {
    // The postmaster (400) and ten backends; one serves the hot connection at 96%.
    const backends = Array.from({ length: 10 }, (_, index) => ({
      pid: 401 + index, ppid: 400, exe: '/usr/lib/postgresql',
    }));
    const postgres = server('postgres', 'process', [400], cpus);
    const step = await judge(t, {
      cpus,
      servers: [postgres],
      serverProcesses: [{ pid: 400, ppid: 1, exe: '/usr/lib/postgresql' }, ...backends],
      percent: { 100: 50, 401: 96, 402: 4, 403: 4 },
    });
    const [figures] = step.tiers.servers;
    assert.deepEqual([figures.processes, figures.cores, figures.busiestPercent], [11, Math.min(11, cpus), 96]);
    assert.deepEqual([label(step), step.bottleneck.server], ['server', 'postgres'], step.bottleneck.evidence);
    assert.match(step.bottleneck.evidence, /its busiest process 96% of a core/);
  });
}
