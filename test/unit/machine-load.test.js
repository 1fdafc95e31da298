import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  MIN_SAMPLE_WALL_TICKS, createMachineMonitor, loopbackPorts, machineFigures, machineWarnings, parseProcStat,
  parseProcessStat, parseSchedstat, threadWaits, treeTicks,
} from '../../driver/machine-load.js';
import { renderMachineLoad, renderMachineWarnings } from '../../report/machine-summary.js';
import { WARNING_DATA } from '../../result/fields.js';
import { fixedStep } from '../helpers/driver-fixtures.js';

// A /proc with two CPUs; cpu fields: user nice system idle iowait irq softirq steal.
const procStat = ([user, nice, system, idle, iowait, irq, softirq, steal]) =>
  `cpu  ${user} ${nice} ${system} ${idle} ${iowait} ${irq} ${softirq} ${steal} 0 0\ncpu0 0 0 0 0 0 0 0 0 0 0\n` +
  'cpu1 0 0 0 0 0 0 0 0 0 0\nintr 1\n';
// /proc/<pid>/stat: "pid (comm) state ppid ..." with utime, stime, cutime, cstime at fields 14-17.
const pidStat = (pid, ppid, [utime, stime, cutime = 0, cstime = 0], comm = 'node') =>
  `${pid} (${comm}) S ${ppid} 1 1 0 -1 0 0 0 0 0 ${utime} ${stime} ${cutime} ${cstime} 20 0 1 0 0 0 0\n`;

async function fakeProc(t, { stat, pids }) {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-proc-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const write = async ({ stat: cpu, pids: processes }) => {
    await writeFile(join(dir, 'stat'), procStat(cpu));
    await writeFile(join(dir, 'loadavg'), '1.25 1.10 0.90 2/300 4242\n');
    for (const name of (await readdir(dir)).filter((entry) => /^\d+$/.test(entry))) await rm(join(dir, name), { recursive: true });
    for (const [pid, ppid, ticks, comm] of processes) {
      await mkdir(join(dir, String(pid)), { recursive: true });
      await writeFile(join(dir, String(pid), 'stat'), pidStat(pid, ppid, ticks, comm));
    }
  };
  await write({ stat, pids });
  return { dir, write };
}

test('/proc/stat and /proc/<pid>/stat lines are read as the kernel writes them, ' +
  'a comm with spaces and brackets too', () => {
  assert.deepEqual(
    parseProcStat(procStat([100, 0, 50, 800, 10, 0, 5, 35])),
    { total: 1000, busy: 150, irq: 5, steal: 35, cpus: 2 },
  );
  assert.equal(parseProcStat('no cpu line here'), null);
  assert.equal(parseProcStat(null), null);
  assert.deepEqual(parseProcessStat(pidStat(42, 7, [10, 5, 3, 2], 'my (odd) name')), { pid: 42, ppid: 7, ticks: 20 });
});

test('a thread\'s schedstat is its time run and its time waited for a CPU; a kernel writing zeros is not read',
  async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'storebench-proc-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    // Recorded on this VM: a node process's two threads, and one that kernel statistics left at zero.
    const threads = { '10/10': '346610505 3662660 15\n', '10/11': '1502236 88211 40\n', '20/20': '0 0 1\n' };
    for (const [thread, text] of Object.entries(threads)) {
      const [pid, tid] = thread.split('/');
      await mkdir(join(dir, pid, 'task', tid), { recursive: true });
      await writeFile(join(dir, pid, 'task', tid, 'schedstat'), text);
    }
    assert.deepEqual(parseSchedstat(threads['10/10']), { runNs: 346610505, waitNs: 3662660 });
    assert.equal(parseSchedstat('garbage'), null);
    assert.equal(parseSchedstat(null), null);
    assert.deepEqual(threadWaits([10, 20, 99], dir), new Map([['10/10', 3662660], ['10/11', 88211]]));
  });

test('a process tree\'s ticks: the root and every descendant, nothing else', async (t) => {
  const { dir } = await fakeProc(t, {
    stat: [0, 0, 0, 0, 0, 0, 0, 0],
    pids: [[10, 1, [100, 0]], [11, 10, [20, 0]], [12, 11, [5, 5]], [20, 1, [1000, 0]]],
  });
  assert.equal(treeTicks([10], dir), 130);
  assert.equal(treeTicks([10, 20], dir), 1130);
  assert.equal(treeTicks([99], dir), 0, 'a root that is gone counts nothing');
  assert.equal(treeTicks([10], join(dir, 'nowhere')), null);
});

test('steal and other processes\' CPU from two readings: % of CPU time, and % of one core', async (t) => {
  // Two CPUs, 200 ticks of wall time each: 400 ticks in all. Busy 300 (150% of a core), of
  // which our tree used 100 (50%): others 200 ticks = 100% of a core. Steal 40 of 400 = 10%.
  const proc = await fakeProc(
    t,
    { stat: [1000, 0, 0, 5000, 0, 0, 0, 100], pids: [[10, 1, [50, 0]], [11, 10, [0, 0]]] },
  );
  const monitor = createMachineMonitor({ rootPids: [10], procDir: proc.dir });
  const sample = monitor.start();
  await proc.write({ stat: [1250, 0, 50, 5060, 0, 0, 0, 140], pids: [[10, 1, [100, 0]], [11, 10, [50, 0]]] });
  // Of the 340 ticks the CPUs wanted (busy 300, steal 40), steal took 40.
  assert.deepEqual(sample.stop(), {
    stealPercent: 10,
    stealOfBusyPercent: (40 / 340) * 100,
    othersCpuPercent: 100,
    irqCpuPercent: 0,
    treeCpuPercent: 50,
    cpuWaitPercent: null, // this /proc has no threads' schedstat
    loadAverage: 1.25,
  });
});

test('a child that ended during the step still counts as ours, through its parent\'s cutime', async (t) => {
  const proc = await fakeProc(t, { stat: [0, 0, 0, 0, 0, 0, 0, 0], pids: [[10, 1, [10, 0]], [11, 10, [30, 0]]] });
  const sample = createMachineMonitor({ rootPids: [10], procDir: proc.dir }).start();
  // The child used 70 more ticks, ended and was reaped: its 100 ticks are now the parent's cutime.
  await proc.write({ stat: [70, 0, 0, 130, 0, 0, 0, 0], pids: [[10, 1, [10, 0, 100, 0]]] });
  const figures = sample.stop();
  assert.equal(figures.treeCpuPercent, 70);
  assert.equal(figures.othersCpuPercent, 0);
});

test('where /proc is missing every figure is null, no warning is raised, and the report says "not measured"', () => {
  const figures = createMachineMonitor({ procDir: '/nonexistent-proc' }).start().stop();
  assert.deepEqual(figures, {
    stealPercent: null,
    stealOfBusyPercent: null,
    othersCpuPercent: null,
    irqCpuPercent: null,
    treeCpuPercent: null,
    cpuWaitPercent: null,
    loadAverage: null,
  });
  assert.deepEqual(machineWarnings(figures), []);
  assert.deepEqual(machineFigures(null, null, null), figures);
  const steps = [fixedStep({ machine: figures })];
  assert.equal(
    renderMachineLoad(steps),
    'Machine:  not measured (no /proc/stat on this platform): CPU steal and other processes\' CPU unknown',
  );
});

test('CPU_STEAL from 10% steal of the time wanted, BUSY_MACHINE from half a core of other processes, ' +
  'with their figures', () => {
  assert.deepEqual(
    machineWarnings({
      stealPercent: 9.9, stealOfBusyPercent: 9.9, othersCpuPercent: 49.9, treeCpuPercent: 100, loadAverage: 1,
    }, { cpus: 2 }),
    [],
  );
  const warnings = machineWarnings({
    stealPercent: 11, stealOfBusyPercent: 21.4, othersCpuPercent: 98.6, treeCpuPercent: 100, loadAverage: 3,
  }, { cpus: 2 });
  assert.deepEqual(warnings.map((warning) => warning.code), ['CPU_STEAL', 'BUSY_MACHINE']);
  assert.deepEqual(warnings[0].data, { stealPercent: 11, stealOfBusyPercent: 21.4, threshold: 10 });
  assert.deepEqual(warnings[1].data, { othersCpuPercent: 98.6, threshold: 50 });
  for (const warning of warnings) assert.deepEqual(Object.keys(warning.data), Object.keys(WARNING_DATA[warning.code]));
  assert.equal(
    warnings[0].message,
    'the hypervisor took 21% of the CPU time this machine\'s processes wanted (steal) during the step: ' +
    'these numbers say more about the machine than about the store',
  );
  assert.equal(
    warnings[1].message,
    'other processes on this machine used 99% of a core during the step: ' +
    'these numbers say more about the machine than about the store',
  );
});

test('the run\'s machine line and a table\'s one warning line', () => {
  const busy = (stealPercent, othersCpuPercent) => {
    const machine = { stealPercent, othersCpuPercent, treeCpuPercent: 80, loadAverage: 2 };
    return fixedStep({ machine, warnings: machineWarnings(machine) });
  };
  const steps = [busy(2, 10), busy(21, 10), busy(30, 120)];
  assert.equal(
    renderMachineLoad(steps),
    'Machine:  steal 2%-30% (median 21%) · other processes 10%-120% (median 10%) ' +
    'of a core · load average 2.00 · 2 of 3 steps warned: CPU_STEAL 2, BUSY_MACHINE 1',
  );
  assert.equal(
    renderMachineWarnings(steps),
    'warning: the machine was busy during 2 of 3 steps (CPU steal 21%-30% in 2, ' +
    'other processes 120% of a core in 1): their figures say more about the machine than about the store',
  );
  assert.equal(renderMachineWarnings([busy(2, 10)]), '');
});

test('a target on this machine\'s loopback is part of the run: its listener\'s process tree is ours', () => {
  assert.deepEqual(loopbackPorts(['http://127.0.0.1:3000/memory/key1', 'http://localhost/x', 'https://[::1]/y', 'http://10.0.0.5:3000/z', 'http://127.0.0.1:3000/redis/key1']), [3000, 80, 443]);
});

test('a step shorter than MIN_SAMPLE_WALL_TICKS of wall time is not measured: ' +
  'a tick or two would read as a busy machine', async (t) => {
  // Regression: a 5 ms step of a scenario read "other processes used 200% of a core" from 2 ticks.
  const proc = await fakeProc(t, { stat: [1000, 0, 0, 5000, 0, 0, 0, 0], pids: [[10, 1, [50, 0]]] });
  const sample = createMachineMonitor({ rootPids: [10], procDir: proc.dir }).start();
  await proc.write({ stat: [1002, 0, 0, 5000, 0, 0, 0, 0], pids: [[10, 1, [50, 0]]] });
  const figures = sample.stop();
  assert.deepEqual(figures, {
    stealPercent: null,
    stealOfBusyPercent: null,
    othersCpuPercent: null,
    irqCpuPercent: null,
    treeCpuPercent: null,
    cpuWaitPercent: null,
    loadAverage: 1.25,
  });
  assert.deepEqual(machineWarnings(figures), []);
  assert.equal(MIN_SAMPLE_WALL_TICKS, 20);
  const steps = [fixedStep({ machine: figures })];
  assert.equal(
    renderMachineLoad(steps),
    'Machine:  not measured: every step was shorter than /proc\'s clock ticks can time (0.2 s)',
  );
});
