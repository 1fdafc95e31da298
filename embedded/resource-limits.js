// Limits on the memory and CPU of server processes this run started, for runs that must see a
// server meet its limits as a study's did (study 002's Redis, killed for memory) or a counter-run
// that makes a server the bottleneck. The processes go into a cgroup of their own: cgroup v2
// (memory.max, cpu.max) or v1 (memory.limit_in_bytes, cpu.cfs_quota_us), which takes root and
// a mounted controller; a memory limit alone falls back to prlimit(1)'s RLIMIT_AS on each
// process, which takes neither (the process's own allocations then fail, and a server such as
// redis-server stops with "Out Of Memory" instead of the kernel killing it).
//
// A process moved into a cgroup keeps the memory it had charged where it was: the limit bounds
// what it allocates from then on, so a caller sizes it as the room it leaves, not the total.
import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findTool } from '../util/which.js';

const run = promisify(execFile);
const CGROUP_ROOT = '/sys/fs/cgroup';
const CPU_PERIOD_US = 100_000;
let made = 0;

const exists = async (path) => {
  try {
    await readdir(path);
    return true;
  } catch {
    return false;
  }
};
const readText = (path) => readFile(path, 'utf8').catch(() => null);

/** Every process under `pid` (itself first), from /proc's parent links: a server's workers too. */
export async function processTree(pid, procDir = '/proc') {
  const children = new Map();
  for (const name of (await readdir(procDir).catch(() => [])).filter((entry) => /^\d+$/.test(entry))) {
    const stat = await readText(`${procDir}/${name}/stat`);
    const ppid = Number(stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (!Number.isFinite(ppid)) continue;
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(name));
  }
  const tree = [];
  const queue = [pid];
  while (queue.length) {
    const next = queue.shift();
    if (tree.includes(next)) continue;
    tree.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return tree;
}

// Where a process's cgroup is for a v1 controller (its line "N:memory:/path"), or v2's ("0::/path").
async function cgroupOf(pid, controller) {
  const lines = (await readText(`/proc/${pid}/cgroup`))?.trim().split('\n') ?? [];
  const mine = (entry) => (controller ? entry.split(':')[1].split(',').includes(controller) : entry.startsWith('0::'));
  const line = lines.find(mine);
  return line ? line.slice(line.indexOf(':', line.indexOf(':') + 1) + 1) : '/';
}

// The cgroup versions and controllers this machine lets us write: { v2: [controllers], v1: { memory, cpu } }.
async function hierarchies() {
  const v2 = (await readText(join(CGROUP_ROOT, 'cgroup.controllers')))?.trim().split(/\s+/) ?? [];
  const mounted = async (...names) => {
    for (const dirName of names) if (await exists(join(CGROUP_ROOT, dirName))) return join(CGROUP_ROOT, dirName);
    return null;
  };
  const v1 = { memory: await mounted('memory'), cpu: await mounted('cpu', 'cpu,cpuacct') };
  return { v2, v1 };
}

// One cgroup with the limits, the processes moved in; resolves to { how, release } or throws.
async function cgroupLimit(pids, { memoryBytes, cpuCores }) {
  const { v2, v1 } = await hierarchies();
  const wanted = [memoryBytes && 'memory', cpuCores && 'cpu'].filter(Boolean);
  const name = `storebench-${process.pid}-${(made += 1)}`;
  if (wanted.every((controller) => v2.includes(controller))) {
    const dir = join(CGROUP_ROOT, name);
    const homes = new Map(await Promise.all(pids.map(async (pid) => [pid, await cgroupOf(pid)])));
    await writeFile(join(CGROUP_ROOT, 'cgroup.subtree_control'), wanted.map((c) => `+${c}`).join(' '));
    await mkdir(dir);
    try {
      if (memoryBytes) await writeFile(join(dir, 'memory.max'), String(memoryBytes));
      if (cpuCores) await writeFile(join(dir, 'cpu.max'), `${Math.round(cpuCores * CPU_PERIOD_US)} ${CPU_PERIOD_US}`);
      for (const pid of pids) await writeFile(join(dir, 'cgroup.procs'), String(pid));
    } catch (error) {
      await rmdir(dir).catch(() => {});
      throw error;
    }
    return {
      how: 'cgroup v2',
      oomKills: () => oomKills(join(dir, 'memory.events')),
      release: () => leave([{ dir, home: (pid) => join(CGROUP_ROOT, homes.get(pid) ?? '/') }], pids),
    };
  }
  const roots = wanted.map((controller) => ({ controller, root: v1[controller] }));
  if (roots.some(({ root }) => !root)) {
    throw new Error(`no cgroup controller for ${wanted.join(' and ')} is mounted at ${CGROUP_ROOT}`);
  }
  const groups = [];
  try {
    for (const { controller, root } of roots) {
      const homes = new Map(await Promise.all(pids.map(async (pid) => [pid, await cgroupOf(pid, controller)])));
      const dir = join(root, name);
      await mkdir(dir);
      groups.push({ dir, home: (pid) => join(root, homes.get(pid) ?? '/') });
      if (controller === 'memory') await writeFile(join(dir, 'memory.limit_in_bytes'), String(memoryBytes));
      if (controller === 'cpu') {
        await writeFile(join(dir, 'cpu.cfs_period_us'), String(CPU_PERIOD_US));
        await writeFile(join(dir, 'cpu.cfs_quota_us'), String(Math.round(cpuCores * CPU_PERIOD_US)));
      }
      for (const pid of pids) await writeFile(join(dir, 'cgroup.procs'), String(pid));
    }
  } catch (error) {
    await leave(groups, pids);
    throw error;
  }
  const memoryGroup = groups.find(({ dir }) => dir.startsWith(v1.memory ?? '\0'));
  return {
    how: 'cgroup v1',
    oomKills: () => (memoryGroup ? oomKills(join(memoryGroup.dir, 'memory.oom_control')) : Promise.resolve(null)),
    release: () => leave(groups, pids),
  };
}

// How many processes the kernel's OOM killer ended in a cgroup ("oom_kill N" in memory.events
// or memory.oom_control); null where the kernel does not say.
async function oomKills(path) {
  const count = (await readText(path))?.match(/^oom_kill (\d+)/m)?.[1];
  return count === undefined ? null : Number(count);
}

// The processes still alive back where they were, and the cgroups removed.
async function leave(groups, pids) {
  for (const { dir, home } of groups) {
    for (const pid of pids) await writeFile(join(home(pid), 'cgroup.procs'), String(pid)).catch(() => {});
    // Processes started inside since (a PostgreSQL backend) leave with their parent's home.
    const left = (await readText(join(dir, 'cgroup.procs')))?.trim().split('\n').filter(Boolean) ?? [];
    for (const pid of left) await writeFile(join(home(pids[0]), 'cgroup.procs'), pid).catch(() => {});
    await rmdir(dir).catch(() => {});
  }
}

// RLIMIT_AS on each process: its address space now plus the room.
async function prlimitMemory(pids, memoryBytes) {
  const prlimit = findTool('prlimit');
  if (!prlimit) throw new Error('prlimit (util-linux) is not on PATH');
  const set = [];
  try {
    for (const pid of pids) {
      const status = await readText(`/proc/${pid}/status`);
      const vmKb = Number(status?.match(/^VmSize:\s+(\d+)\s+kB/m)?.[1]);
      if (!Number.isFinite(vmKb)) throw new Error(`no VmSize for process ${pid}`);
      await run(prlimit, ['--pid', String(pid), `--as=${vmKb * 1024 + memoryBytes}`]);
      set.push(pid);
    }
  } catch (error) {
    await unlimit(prlimit, set);
    throw error;
  }
  return { how: 'prlimit --as', oomKills: async () => null, release: () => unlimit(prlimit, set) };
}

const unlimit = (prlimit, pids) => Promise.allSettled(pids.map((pid) =>
  run(prlimit, ['--pid', String(pid), '--as=unlimited'])));

/**
 * Limits the processes `pids` together: `memoryBytes` more than they hold now, `cpuCores` of CPU
 * time (0.25: a quarter of one core). Resolves to { how, oomKills(), release() } (how: 'cgroup
 * v2', 'cgroup v1' or 'prlimit --as'; oomKills(): how many of them the kernel killed for the
 * memory limit, null where it does not say; release() lifts the limits from those still alive
 * and removes the cgroup), or to { unavailable: why } when this machine allows neither way.
 */
export async function limitProcesses(pids, { memoryBytes = 0, cpuCores = 0 } = {}) {
  if (!pids.length) return { unavailable: 'no process to limit' };
  const reasons = [];
  try {
    return await cgroupLimit(pids, { memoryBytes, cpuCores });
  } catch (error) {
    reasons.push(`a cgroup: ${error.code ?? ''} ${error.message}`.replace(/\s+/g, ' ').trim());
  }
  if (memoryBytes && !cpuCores) {
    try {
      return await prlimitMemory(pids, memoryBytes);
    } catch (error) {
      reasons.push(`prlimit: ${error.message.split('\n')[0]}`);
    }
  }
  return {
    unavailable: `cannot limit ${[memoryBytes && 'memory', cpuCores && 'CPU'].filter(Boolean).join(' and ')}` +
    ` here: ${reasons.join('; ')}`,
  };
}
