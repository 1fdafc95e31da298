// How busy the machine was during a step apart from the benchmark: CPU steal and other
// processes' CPU, from /proc. On a shared 2-core VM a step can swing 3x between rounds; these
// say when that was the machine. Without /proc every figure is null.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { WARNING_CODES } from '../result/warnings.js';

export const STEAL_WARN_PERCENT = 10; // of all CPU time during the step
export const OTHERS_WARN_PERCENT = 50; // of one core: half a core used by other processes
// /proc/stat counts 10 ms ticks: a step with less CPU time than this in all would be noise (a 5
// ms step read as "other processes used 200% of a core"), so it is not measured.
export const MIN_SAMPLE_TICKS = 20;

const NOT_MEASURED = Object.freeze({
  stealPercent: null, othersCpuPercent: null, treeCpuPercent: null, loadAverage: null,
});

const readText = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/**
 * The machine's CPU ticks so far, summed over CPUs: { total, busy, steal, cpus }; guest time is
 * inside user. null without /proc/stat.
 */
export function parseProcStat(text) {
  const line = text?.split('\n').find((row) => row.startsWith('cpu '));
  if (!line) return null;
  const [user, nice, system, idle, iowait = 0, irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  if (![user, nice, system, idle].every(Number.isFinite)) return null;
  const cpus = text.split('\n').filter((row) => /^cpu\d+\s/.test(row)).length || 1;
  const busy = user + nice + system + irq + softirq;
  return { total: busy + idle + iowait + steal, busy, steal, cpus };
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

export const tableTreeTicks = (table, roots, exclude = []) =>
  treePids(table, roots, exclude).reduce((sum, pid) => sum + table.ticks.get(pid), 0);

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
  return { cpu, table, tree: tableTreeTicks(table, roots), atNs: process.hrtime.bigint() };
}

/**
 * The figures between two snapshots: stealPercent in % of all CPU time (as vmstat's `st`); the
 * CPU figures in % of one core; loadAverage the one-minute figure at the end.
 */
export function machineFigures(before, after, loadavgText) {
  if (!before || !after) return { ...NOT_MEASURED };
  const total = after.cpu.total - before.cpu.total;
  const loadAverage = Number(loadavgText?.split(' ')[0]);
  if (total < MIN_SAMPLE_TICKS) {
    return { ...NOT_MEASURED, loadAverage: Number.isFinite(loadAverage) ? loadAverage : null };
  }
  const perCore = (ticks) => (ticks / total) * after.cpu.cpus * 100;
  const busyPercent = perCore(after.cpu.busy - before.cpu.busy);
  const treeCpuPercent = Math.max(0, perCore(after.tree - before.tree));
  return {
    stealPercent: ((after.cpu.steal - before.cpu.steal) / total) * 100,
    othersCpuPercent: Math.max(0, busyPercent - treeCpuPercent),
    treeCpuPercent,
    loadAverage: Number.isFinite(loadAverage) ? loadAverage : null,
  };
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

export function machineWarnings(machine) {
  const warnings = [];
  const { stealPercent, othersCpuPercent } = machine;
  if (stealPercent !== null && stealPercent >= STEAL_WARN_PERCENT) {
    warnings.push(warning(
      'CPU_STEAL',
      `the hypervisor took ${Math.round(stealPercent)}% of the CPU time (steal) during the step${MACHINE_NOT_STORE}`,
      { stealPercent, threshold: STEAL_WARN_PERCENT },
    ));
  }
  if (othersCpuPercent !== null && othersCpuPercent >= OTHERS_WARN_PERCENT) {
    warnings.push(warning(
      'BUSY_MACHINE',
      `other processes on this machine used ${Math.round(othersCpuPercent)}% of a core ` +
        `during the step${MACHINE_NOT_STORE}`,
      { othersCpuPercent, threshold: OTHERS_WARN_PERCENT },
    ));
  }
  return warnings;
}
