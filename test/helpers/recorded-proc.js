// A /proc made of recorded figures, for the judging code to read as the kernel writes them: a
// /proc/stat of any number of CPUs, each process's stat and its main thread's (with the thread's
// schedstat: time run, time waited for a CPU), its executable, and the sockets it listens on or
// holds. Figures are given in % of one core over the step, so a case reads the same on 2 cores
// and on 64.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TICKS_PER_SECOND = 100;
const BASE_TICKS = 100_000; // every counter starts here, as on a machine up for a while
const NS_PER_TICK = 1e9 / TICKS_PER_SECOND;
const BASE_WAIT_NS = 5e9;

const pidStat = (pid, ppid, ticks, comm) =>
  `${pid} (${comm}) S ${ppid} 1 1 0 -1 0 0 0 0 0 ${ticks} 0 0 0 20 0 1 0 0 0 0\n`;
const hexPort = (port) => Number(port).toString(16).toUpperCase().padStart(4, '0');

/**
 * @param {import('node:test').TestContext} t
 * @param {object} machine
 * @param {number} machine.cpus
 * @param {{ pid: number, ppid: number, exe: string }[]} machine.processes
 * @param {Record<number, number>} [machine.listening]  port -> the pid listening on it
 * @param {{ port: number, pid: number }[]} [machine.established]  one connection to `port`, held by `pid`
 * @returns {Promise<{ dir: string, step: (figures: object) => Promise<void> }>} step() writes the
 *   readings at the end of a step of `seconds` in which each pid used `percent[pid]` of a core (its
 *   main thread `threads[pid]`, which waited for a CPU `waits[pid]`% of the step), other processes
 *   `others`, interrupts `irq`, and the hypervisor took `steal` (all in % of one core)
 */
export async function recordedProc(t, { cpus, processes, listening = {}, established = [] }) {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-recorded-proc-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'net'));
  const socketRows = [
    ...Object.entries(listening).map(([port], index) => ({ port, state: '0A', inode: 9000 + index })),
    ...established.map(({ port }, index) => ({ port, state: '01', inode: 9500 + index })),
  ];
  const rows = socketRows.map(({ port, state, inode }, index) =>
    `   ${index}: 0100007F:${hexPort(port)} 0100007F:9C40 ${state} 00000000:00000000 00:00000000 00000000` +
    `     0        0 ${inode} 1 0000000000000000 100 0 0 10 0`);
  await writeFile(join(dir, 'net', 'tcp'), `  sl  local_address rem_address   st\n${rows.join('\n')}\n`);
  await writeFile(join(dir, 'net', 'tcp6'), '  sl  local_address\n');
  const comm = (exe) => exe.split('/').at(-1);
  const writeProcess = async ({ pid, ppid, exe }, ticks, threadTicks, waitNs = BASE_WAIT_NS) => {
    const task = join(dir, String(pid), 'task', String(pid));
    await writeFile(join(dir, String(pid), 'stat'), pidStat(pid, ppid, ticks, comm(exe)));
    await writeFile(join(task, 'stat'), pidStat(pid, ppid, threadTicks, comm(exe)));
    await writeFile(join(task, 'schedstat'), `${threadTicks * NS_PER_TICK} ${waitNs} 1000\n`);
  };
  for (const entry of processes) {
    await mkdir(join(dir, String(entry.pid), 'fd'), { recursive: true });
    await mkdir(join(dir, String(entry.pid), 'task', String(entry.pid)), { recursive: true });
    await symlink(entry.exe, join(dir, String(entry.pid), 'exe'));
    await writeProcess(entry, BASE_TICKS, BASE_TICKS);
  }
  let fd = 10;
  for (const { pid, inode } of [
    ...Object.entries(listening).map(([, pid], index) => ({ pid, inode: 9000 + index })),
    ...established.map(({ pid }, index) => ({ pid, inode: 9500 + index })),
  ]) {
    await symlink(`socket:[${inode}]`, join(dir, String(pid), 'fd', String(fd++)));
  }
  const writeStat = async ({ user, idle, irq = 0, steal = 0 }) => {
    await writeFile(join(dir, 'stat'), `cpu  ${user} 0 0 ${idle} 0 ${irq} 0 ${steal} 0 0\n` +
      Array.from({ length: cpus }, (_, index) => `cpu${index} 0 0 0 0 0 0 0 0 0 0\n`).join(''));
    await writeFile(join(dir, 'loadavg'), '0.50 0.50 0.50 1/100 1\n');
  };
  await writeStat({ user: BASE_TICKS, idle: BASE_TICKS });

  const step = async ({ seconds, percent = {}, threads = {}, waits = {}, others = 0, irq = 0, steal = 0 }) => {
    const ticks = (share) => Math.round((share / 100) * seconds * TICKS_PER_SECOND);
    let used = ticks(others);
    for (const entry of processes) {
      const own = ticks(percent[entry.pid] ?? 0);
      used += own;
      const waitNs = BASE_WAIT_NS + ((waits[entry.pid] ?? 0) / 100) * seconds * 1e9;
      await writeProcess(entry, BASE_TICKS + own, BASE_TICKS + ticks(threads[entry.pid] ?? percent[entry.pid] ?? 0),
        waitNs);
    }
    const all = cpus * seconds * TICKS_PER_SECOND;
    const busy = used + ticks(irq) + ticks(steal);
    if (busy > all) throw new RangeError(`${busy} ticks busy in ${all}: more than the machine has`);
    await writeStat({ user: BASE_TICKS + used, idle: BASE_TICKS + all - busy, irq: ticks(irq), steal: ticks(steal) });
  };
  return { dir, step };
}
