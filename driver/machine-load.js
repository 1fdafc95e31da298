// How busy the machine was during a step apart from the benchmark: CPU steal and other
// processes' CPU, from /proc. On a shared 2-core VM a step can swing 3x between rounds; these
// say when that was the machine. Without /proc every figure is null.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { WARNING_CODES } from '../result/warnings.js';

const STEAL_WARN_PERCENT = 10; // of the CPU time the machine's processes wanted
// Of one core: half a core used by other processes, or half the cores this run left over when
// that is more (docs/measurement.md).
const OTHERS_WARN_PERCENT = 50;
// /proc/stat's clock ticks (USER_HZ, 100 a second on every mainstream kernel), in nanoseconds.
const TICK_NS = 10_000_000;
// /proc counts 10 ms ticks: a step shorter than this many ticks of wall time would be noise (a 5
// ms step read as "other processes used 200% of a core"), so it is not measured. At 20 a tick
// more or less of one process moves its figure by 5 points, half the way from 90% to 100%.
// In wall time, not summed over the CPUs: 20 ticks over 32 CPUs were 6 ms.
export const MIN_SAMPLE_WALL_TICKS = 20;

const NOT_MEASURED = Object.freeze({
  stealPercent: null,
  stealOfBusyPercent: null,
  othersCpuPercent: null,
  irqCpuPercent: null,
  treeCpuPercent: null,
  cpuWaitPercent: null,
  loadAverage: null,
});

const readText = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/**
 * The machine's CPU ticks so far, summed over CPUs: { total, busy, irq, steal, cpus }; busy is
 * processes' time (user, nice, system; guest time is inside user), irq the kernel's interrupt
 * work (irq, softirq: the network stack's, this run's loopback traffic among it), which no
 * process's own ticks hold. null without /proc/stat.
 */
export function parseProcStat(text) {
  const line = text?.split('\n').find((row) => row.startsWith('cpu '));
  if (!line) return null;
  const [user, nice, system, idle, iowait = 0, irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  if (![user, nice, system, idle].every(Number.isFinite)) return null;
  const cpus = text.split('\n').filter((row) => /^cpu\d+\s/.test(row)).length || 1;
  const busy = user + nice + system;
  return { total: busy + irq + softirq + idle + iowait + steal, busy, irq: irq + softirq, steal, cpus };
}

/** Whether two /proc/stat readings span enough wall time to be measured (MIN_SAMPLE_WALL_TICKS). */
export const longEnough = (before, after) =>
  Boolean(before && after) && (after.total - before.total) / after.cpus >= MIN_SAMPLE_WALL_TICKS;

/**
 * Steal in % of the CPU time that was wanted (busy, irq and steal): what a running process lost
 * to the hypervisor. An idle CPU is stolen nothing, so steal over all CPU time hides it on a big
 * machine (8% of one busy core of 4 reads 2%). null with no time wanted.
 */
function stealOfBusy(before, after) {
  const steal = after.steal - before.steal;
  const wanted = after.busy - before.busy + (after.irq ?? 0) - (before.irq ?? 0) + steal;
  return wanted > 0 ? (steal / wanted) * 100 : null;
}

/** { pid, ppid, ticks } from a /proc/<pid>/stat line: ticks = utime + stime + cutime + cstime. */
export function parseProcessStat(text) {
  const close = text?.lastIndexOf(')') ?? -1;
  if (close < 0) return null;
  const pid = Number(text.slice(0, text.indexOf('(')).trim());
  const fields = text.slice(close + 2).split(' ');
  // After "pid (comm) ": state ppid ... utime is field 14 overall, so fields[11]; stime, cutime, cstime follow.
  const ppid = Number(fields[1]);
  const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  return Number.isFinite(ticks) ? { pid, ppid, ticks } : null;
}

/** Every process's ticks and parent from one pass over /proc: { ticks, children }. null without /proc. */
export function readProcessTable(procDir = '/proc') {
  let entries;
  try {
    entries = readdirSync(procDir).filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  const children = new Map();
  const ticks = new Map();
  for (const name of entries) {
    const stat = parseProcessStat(readText(`${procDir}/${name}/stat`));
    if (!stat) continue; // it ended meanwhile
    ticks.set(stat.pid, stat.ticks);
    if (!children.has(stat.ppid)) children.set(stat.ppid, []);
    children.get(stat.ppid).push(stat.pid);
  }
  return { ticks, children };
}

/** The pids of the trees under `roots`, less those under `exclude` (a server the app started is not the app). */
export function treePids(table, roots, exclude = []) {
  const skip = new Set(exclude);
  const seen = new Set();
  const queue = roots.filter((pid) => table.ticks.has(pid) && !skip.has(pid));
  while (queue.length) {
    const pid = queue.pop();
    if (seen.has(pid)) continue;
    seen.add(pid);
    queue.push(...(table.children.get(pid) ?? []).filter((child) => !skip.has(child)));
  }
  return [...seen];
}

/**
 * A thread's /proc/<pid>/task/<tid>/schedstat: { runNs, waitNs }, the time it ran and the time it
 * waited on a run queue, runnable but not running; null when unreadable.
 */
export function parseSchedstat(text) {
  const [runNs, waitNs] = (text ?? '').trim().split(' ').map(Number);
  return Number.isFinite(runNs) && Number.isFinite(waitNs) ? { runNs, waitNs } : null;
}

/**
 * Every thread of `pids` with its run-queue wait so far: Map 'pid/tid' -> ns. A kernel that keeps
 * no scheduler statistics writes zeros: those threads are left out, and the map is then empty.
 */
export function threadWaits(pids, procDir = '/proc') {
  const waits = new Map();
  for (const pid of pids) {
    let tids;
    try {
      tids = readdirSync(`${procDir}/${pid}/task`);
    } catch {
      continue; // it ended meanwhile
    }
    for (const tid of tids) {
      const figures = parseSchedstat(readText(`${procDir}/${pid}/task/${tid}/schedstat`));
      if (figures && figures.runNs > 0) waits.set(`${pid}/${tid}`, figures.waitNs);
    }
  }
  return waits;
}

const ticksOf = (table, pids) => pids.reduce((sum, pid) => sum + table.ticks.get(pid), 0);

export const tableTreeTicks = (table, roots, exclude = []) => ticksOf(table, treePids(table, roots, exclude));

/**
 * CPU ticks used so far by the trees under `roots`. A reaped child's time stays counted
 * (cutime, cstime), so two readings' difference includes children that started and ended between.
 */
export function treeTicks(roots, procDir = '/proc') {
  const table = readProcessTable(procDir);
  return table && tableTreeTicks(table, roots);
}

/**
 * The processes listening on TCP `port`: a target app on this machine is part of the benchmark,
 * not "other processes". Only processes this user may inspect are found.
 */
export function listeningPids(port, procDir = '/proc') {
  return listeningPidsByPort([port], procDir).get(port);
}

/** listeningPids of several ports in one pass: Map port -> [pid]; without `ports`, every port. */
export function listeningPidsByPort(ports = null, procDir = '/proc') {
  const found = new Map((ports ?? []).map((port) => [port, []]));
  const portOfInode = new Map();
  for (const file of ['tcp', 'tcp6']) {
    for (const row of (readText(`${procDir}/net/${file}`) ?? '').split('\n').slice(1)) {
      const cells = row.trim().split(/\s+/);
      // local_address is "ADDR:PORT" in hex; state 0A is LISTEN; the inode is the 10th column.
      if (cells.length <= 9 || cells[3] !== '0A') continue;
      const port = Number.parseInt(cells[1].slice(cells[1].lastIndexOf(':') + 1), 16);
      if (ports && !found.has(port)) continue;
      portOfInode.set(cells[9], port);
      if (!found.has(port)) found.set(port, []);
    }
  }
  if (!portOfInode.size) return found;
  let entries = [];
  try {
    entries = readdirSync(procDir).filter((name) => /^\d+$/.test(name));
  } catch {
    return found;
  }
  for (const name of entries) {
    let fds;
    try {
      fds = readdirSync(`${procDir}/${name}/fd`);
    } catch {
      continue; // not ours to look at, or gone
    }
    const owned = new Set();
    for (const fd of fds) {
      try {
        const link = readlinkSync(`${procDir}/${name}/fd/${fd}`);
        const port = link.startsWith('socket:[') ? portOfInode.get(link.slice(8, -1)) : undefined;
        if (port !== undefined) owned.add(port);
      } catch {
        // closed meanwhile
      }
    }
    for (const port of owned) if (!found.get(port).includes(Number(name))) found.get(port).push(Number(name));
  }
  return found;
}

/** A process's main thread's own ticks (utime + stime of /proc/<pid>/task/<pid>/stat); null when unreadable. */
export function threadTicks(pid, procDir = '/proc') {
  const text = readText(`${procDir}/${pid}/task/${pid}/stat`);
  if (!text?.includes(')')) return null;
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks : null;
}

/**
 * The established TCP connections on `ports` that each of `pids` holds: Map pid -> count. Read
 * without blocking the thread (the driver's, during a step); null without /proc.
 */
export async function connectionsByPid(ports, pids, procDir = '/proc') {
  const wanted = new Set(ports);
  const inodes = new Set();
  let readable = false;
  for (const file of ['tcp', 'tcp6']) {
    const text = await readFile(`${procDir}/net/${file}`, 'utf8').catch(() => null);
    if (text === null) continue;
    readable = true;
    for (const row of text.split('\n').slice(1)) {
      const cells = row.trim().split(/\s+/);
      // State 01 is ESTABLISHED; the local port is the hex after the last ':' of local_address.
      if (cells.length <= 9 || cells[3] !== '01') continue;
      if (wanted.has(Number.parseInt(cells[1].slice(cells[1].lastIndexOf(':') + 1), 16))) inodes.add(cells[9]);
    }
  }
  if (!readable) return null;
  const counts = new Map();
  await Promise.all(pids.map(async (pid) => {
    const fds = await readdir(`${procDir}/${pid}/fd`).catch(() => []);
    const links = await Promise.all(fds.map((fd) => readlink(`${procDir}/${pid}/fd/${fd}`).catch(() => '')));
    // A socket handed over to a process may sit behind more than one of its fds.
    const held = new Set(links.filter((link) => link.startsWith('socket:[')).map((link) => link.slice(8, -1)));
    counts.set(pid, [...held].filter((inode) => inodes.has(inode)).length);
  }));
  return counts;
}

export function executableOf(pid, procDir = '/proc') {
  try {
    return readlinkSync(`${procDir}/${pid}/exe`);
  } catch {
    const stat = readText(`${procDir}/${pid}/stat`);
    return stat ? stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) : null;
  }
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/i;

export function loopbackPorts(urls) {
  const ports = new Set();
  for (const text of urls) {
    try {
      const url = new URL(text);
      if (LOOPBACK.test(url.hostname)) ports.add(Number(url.port || (url.protocol === 'https:' ? 443 : 80)));
    } catch {
      // not a URL: nothing to add
    }
  }
  return [...ports];
}

function snapshot(roots, procDir) {
  const cpu = parseProcStat(readText(`${procDir}/stat`));
  if (!cpu) return null;
  const table = readProcessTable(procDir);
  if (table === null) return null;
  const pids = treePids(table, roots);
  return { cpu, table, tree: ticksOf(table, pids), waits: threadWaits(pids, procDir), atNs: process.hrtime.bigint() };
}

/**
 * The most any thread of this run waited for a CPU during the step, runnable but not running, in %
 * of the step's wall time; null where no thread's wait could be read. A neighbour that wakes in
 * bursts of a few ms takes a core from the driver or the app again and again while /proc/stat
 * still shows idle time, and the closed loop stalls on the thread that waits: this sees it.
 */
function busiestWait(before, after) {
  const wallNs = ((after.cpu.total - before.cpu.total) / after.cpu.cpus) * TICK_NS;
  const waited = [...(after.waits ?? [])].filter(([thread]) => before.waits?.has(thread))
    .map(([thread, waitNs]) => waitNs - before.waits.get(thread));
  return waited.length && wallNs > 0 ? (Math.max(0, ...waited) / wallNs) * 100 : null;
}

/**
 * The figures between two snapshots: stealPercent in % of all CPU time (as vmstat's `st`),
 * stealOfBusyPercent in % of the time wanted (stealOfBusy); the CPU figures in % of one core;
 * loadAverage the one-minute figure at the end.
 */
export function machineFigures(before, after, loadavgText) {
  if (!before || !after) return { ...NOT_MEASURED };
  const loadAverage = Number(loadavgText?.split(' ')[0]);
  if (!longEnough(before.cpu, after.cpu)) {
    return { ...NOT_MEASURED, loadAverage: Number.isFinite(loadAverage) ? loadAverage : null };
  }
  const total = after.cpu.total - before.cpu.total;
  const perCore = (ticks) => (ticks / total) * after.cpu.cpus * 100;
  const busyPercent = perCore(after.cpu.busy - before.cpu.busy);
  const treeCpuPercent = Math.max(0, perCore(after.tree - before.tree));
  return {
    stealPercent: ((after.cpu.steal - before.cpu.steal) / total) * 100,
    stealOfBusyPercent: stealOfBusy(before.cpu, after.cpu) ?? 0,
    othersCpuPercent: Math.max(0, busyPercent - treeCpuPercent),
    irqCpuPercent: perCore((after.cpu.irq ?? 0) - (before.cpu.irq ?? 0)),
    treeCpuPercent,
    cpuWaitPercent: busiestWait(before, after),
    loadAverage: Number.isFinite(loadAverage) ? loadAverage : null,
  };
}

/**
 * The % of a core from which other processes' CPU warns: half a core, or half the cores this run
 * left over when that is more (on 16 cores with this run at 2, 7 cores). Other processes delay
 * this run only where they hold a core one of its threads could have run on.
 */
function othersThreshold(machine, cpus) {
  if (!cpus || !Number.isFinite(machine.treeCpuPercent)) return OTHERS_WARN_PERCENT;
  return Math.max(OTHERS_WARN_PERCENT, (cpus * 100 - machine.treeCpuPercent) / 2);
}

/**
 * Samples the machine around each step. What `rootPids`' trees use is this run's, not "other
 * processes". start() before the step, stop() on its answer after; tiers(responses, store) then
 * resolves to { app, servers } (null without a tier sampler).
 */
export function createMachineMonitor({ rootPids = [process.pid], procDir = '/proc', tiers = null } = {}) {
  const pids = [...new Set(rootPids)];
  return {
    cpus: parseProcStat(readText(`${procDir}/stat`))?.cpus ?? null,
    tierSampler: tiers,
    start() {
      const before = snapshot(pids, procDir);
      const reading = tiers?.begin(before) ?? null;
      let after = null;
      return {
        stop() {
          after = before && snapshot(pids, procDir);
          reading?.end(after);
          return machineFigures(before, after, readText(`${procDir}/loadavg`));
        },
        tiers: async (responses, store) => (reading ? reading.figures(responses, store) : null),
      };
    },
  };
}

/** The monitor for a sweep of these targets: the driver's tree, loopback listeners, the tiers' pids. */
export function machineMonitorFor(urls, { procDir = '/proc', tiers = null } = {}) {
  const listeners = loopbackPorts(urls).flatMap((port) => listeningPids(port, procDir));
  return createMachineMonitor({ rootPids: [process.pid, ...listeners, ...(tiers?.pids ?? [])], procDir, tiers });
}

const MACHINE_NOT_STORE = ': these numbers say more about the machine than about the store';

const warning = (code, message, data) => {
  if (!WARNING_CODES[code]) throw new TypeError(`unregistered warning code ${code}`);
  return { code, message, data };
};

/** The step's machine warnings; `cpus`, the machine's, scales BUSY_MACHINE's threshold (othersThreshold). */
export function machineWarnings(machine, { cpus = null } = {}) {
  const warnings = [];
  const { stealPercent, othersCpuPercent } = machine;
  // Files written before stealOfBusyPercent: steal over all CPU time.
  const stealFelt = machine.stealOfBusyPercent ?? stealPercent;
  if (stealFelt !== null && stealFelt !== undefined && stealFelt >= STEAL_WARN_PERCENT) {
    warnings.push(warning(
      'CPU_STEAL',
      `the hypervisor took ${Math.round(stealFelt)}% of the CPU time this machine's processes wanted (steal) ` +
        `during the step${MACHINE_NOT_STORE}`,
      { stealPercent, stealOfBusyPercent: machine.stealOfBusyPercent ?? null, threshold: STEAL_WARN_PERCENT },
    ));
  }
  const threshold = othersThreshold(machine, cpus);
  if (othersCpuPercent !== null && othersCpuPercent >= threshold) {
    warnings.push(warning(
      'BUSY_MACHINE',
      `other processes on this machine used ${Math.round(othersCpuPercent)}% of a core ` +
        `during the step${MACHINE_NOT_STORE}`,
      { othersCpuPercent, threshold },
    ));
  }
  return warnings;
}
