// Limits on the memory and CPU of server processes this run started, for a run that must see a server
// meet its limits (study 002's Redis, killed for memory). A cgroup of their own (v2 or v1: root and a
// mounted controller), else for memory alone prlimit's RLIMIT_AS (allocations then fail, and
// redis-server stops with "Out Of Memory" instead of being killed). A process moved into a cgroup keeps
// the memory it had charged elsewhere: the limit is the room it leaves, not the total.
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

async function cgroupOf(pid, controller) {
  const lines = (await readText(`/proc/${pid}/cgroup`))?.trim().split('\n') ?? [];
  const mine = (entry) => (controller ? entry.split(':')[1].split(',').includes(controller) : entry.startsWith('0::'));
  const line = lines.find(mine);
  return line ? line.slice(line.indexOf(':', line.indexOf(':') + 1) + 1) : '/';
}

async function hierarchies() {
  const v2 = (await readText(join(CGROUP_ROOT, 'cgroup.controllers')))?.trim().split(/\s+/) ?? [];
  const mounted = async (...names) => {
    for (const dirName of names) if (await exists(join(CGROUP_ROOT, dirName))) return join(CGROUP_ROOT, dirName);
    return null;
  };
  const v1 = { memory: await mounted('memory'), cpu: await mounted('cpu', 'cpu,cpuacct') };
  return { v2, v1 };
}

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

// "oom_kill N" in memory.events or memory.oom_control; null where the kernel does not say.
async function oomKills(path) {
  const count = (await readText(path))?.match(/^oom_kill (\d+)/m)?.[1];
  return count === undefined ? null : Number(count);
}

async function leave(groups, pids) {
  for (const { dir, home } of groups) {
    for (const pid of pids) await writeFile(join(home(pid), 'cgroup.procs'), String(pid)).catch(() => {});
    // Processes started inside since (a PostgreSQL backend) leave with their parent's home.
    const left = (await readText(join(dir, 'cgroup.procs')))?.trim().split('\n').filter(Boolean) ?? [];
    for (const pid of left) await writeFile(join(home(pids[0]), 'cgroup.procs'), pid).catch(() => {});
    await rmdir(dir).catch(() => {});
  }
}

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

// Limits pids together: memoryBytes more than they hold now, cpuCores of CPU (0.25: a quarter of one
// core). Resolves to { how, oomKills(), release() }, or { unavailable: why } where neither way works.
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
