// The CPU of each tier behind a step (the app, each store server), from /proc, or else from the
// app's /metrics or a Redis's INFO cpu. % of ONE core and µs per response; unmeasured is null, never 0.
// Each tier also says the busiest part of it that can use at most one core (a process of the app
// or of PostgreSQL, the command thread of Redis or tarantool), so that one pegged worker among
// idle ones shows (result/bottleneck.js judges both).
import {
  connectionsByPid, executableOf, longEnough, tableTreeTicks, threadTicks, treePids,
} from './machine-load.js';
import { readMetricsFigures, readRedisCpuSeconds } from './tier-remote.js';
import { serverQuota } from '../embedded/cpu-quota.js';

const NOT_MEASURED = Object.freeze({ cpuPercent: null, microsPerResponse: null });
const UNMEASURED_APP = Object.freeze({
  ...NOT_MEASURED, processes: null, cores: null, busiestPercent: null, detail: null, source: null,
});
// The app's connections are counted once, this long into the step: the driver opens its
// connections at the start and closes them when the step is over.
const CONNECTIONS_AFTER_MS = 250;

/**
 * @typedef {object} AppPlan  where the app's CPU comes from
 * @property {'proc'|'metrics'} source
 * @property {number[]} [roots]    proc: the app's processes (its trees are the app)...
 * @property {number[]} [exclude]  ...less the trees of the store servers it started
 * @property {number[]} [ports]    proc: the loopback ports it serves, where its connections are counted
 * @property {string} [metricsUrl] metrics: its /metrics
 */

/**
 * @typedef {object} ServerPlan  one store server
 * @property {string} name      the service (`redis`, `postgres`...), or `service@host:port` for one of several nodes
 * @property {string[]} stores  the run's stores it serves
 * @property {number} cores     the cores it can use
 * @property {'thread'|'process'|null} [unit]  what can use one core at most: its command thread,
 *   each of its processes, or nothing smaller than the whole (driver/tier-plan.js serverUnit)
 * @property {number[]} pids    its listening processes on this machine (their trees are it); [] when not found
 * @property {string|null} redisUrl  a Redis's URL (with its password), read through INFO cpu when not found in /proc
 */

// Each process of the app's tree with its role: a node:cluster primary hands connections to its
// workers (and with a global --store-rtt relays their store traffic); a process running another
// executable is `other`.
function appRoles(table, roots, exclude, procDir) {
  const pids = treePids(table, roots, exclude);
  const executables = new Set(roots.map((pid) => executableOf(pid, procDir)).filter(Boolean));
  const own = new Set(pids.filter((pid) => executables.has(executableOf(pid, procDir))));
  const parents = new Set([...own].filter((pid) => (table.children.get(pid) ?? []).some((child) => own.has(child))));
  const roles = new Map();
  for (const pid of pids) {
    if (!own.has(pid)) roles.set(pid, 'other');
    else if (parents.has(pid)) roles.set(pid, 'primary');
    else roles.set(pid, parents.size ? 'worker' : 'app');
  }
  return roles;
}

function figuresOf(share, seconds, responses) {
  if (!(share >= 0) || !(seconds > 0)) return { ...NOT_MEASURED };
  return {
    cpuPercent: share * 100,
    microsPerResponse: responses > 0 ? (share * seconds * 1e6) / responses : null,
  };
}

const timed = (read) => read().then(
  (value) => (value === null ? null : { value, atNs: process.hrtime.bigint() }),
  () => null,
);

function remoteFigures(before, after, responses, cpuSeconds = (value) => value) {
  if (!before || !after) return { ...NOT_MEASURED };
  const seconds = Number(after.atNs - before.atNs) / 1e9;
  return figuresOf((cpuSeconds(after.value) - cpuSeconds(before.value)) / seconds, seconds, responses);
}

/**
 * The app read through its /metrics, from two readings { value: { cpuSeconds, processes, cpus },
 * atNs }: storebench's app says how many processes the figure adds up (its primary and workers) and
 * the cores its machine has; another app is one process's figure on one core.
 */
function remoteAppFigures(before, after, responses) {
  const figures = remoteFigures(before, after, responses, (value) => value.cpuSeconds);
  if (figures.cpuPercent === null) return { ...UNMEASURED_APP };
  const processes = after.value.processes ?? 1;
  const cores = Math.min(processes, after.value.cpus ?? 1);
  return { ...figures, processes, cores, busiestPercent: null, detail: null, source: 'metrics' };
}

/**
 * A sampler of the tiers' CPU for the machine monitor: begin(snapshot), end(snapshot), then
 * figures(responses, store) resolves to { app, servers }. `pids`: every pid it reads.
 *
 * `readMetrics(url)` reads an app's /metrics (readMetricsFigures; a test gives recorded ones).
 *
 * @param {{ app: AppPlan|null, servers: ServerPlan[], cpus: number, appWorkersFlag?: string|null,
 *   procDir?: string, cgroupRoot?: string, readMetrics?: (url: string) => Promise<object|null> }} plan
 */
export function createTierSampler({
  app, servers, cpus, appWorkersFlag = null, procDir = '/proc', cgroupRoot, readMetrics = readMetricsFigures,
}) {
  const procServers = servers.filter((server) => server.pids.length);
  const redisServers = servers.filter((server) => !server.pids.length && server.redisUrl);
  const readRemote = () => ({
    app: app?.source === 'metrics' ? timed(() => readMetrics(app.metricsUrl)) : null,
    servers: new Map(redisServers.map((server) => [server, timed(() => readRedisCpuSeconds(server.redisUrl))])),
  });
  const appInProc = (snapshot) => app?.source === 'proc' && app.roots.every((pid) => snapshot.table.ticks.has(pid));
  const ticksIn = (snapshot) => snapshot && {
    app: appInProc(snapshot) ? tableTreeTicks(snapshot.table, app.roots, app.exclude) : null,
    servers: new Map(procServers.map((server) => [server, tableTreeTicks(snapshot.table, server.pids)])),
    // A command thread's own clock (/proc/<pid>/task/<pid>/stat), read with the snapshot.
    threads: new Map(procServers.filter((server) => server.unit === 'thread')
      .flatMap((server) => server.pids.map((pid) => [pid, threadTicks(pid, procDir)]))),
  };
  return {
    pids: [...(app?.roots ?? []), ...procServers.flatMap((server) => server.pids)],
    appWorkersFlag,
    cpus,
    begin(before) {
      const first = { snapshot: before, ticks: ticksIn(before), remote: readRemote() };
      let last = null;
      const connections = countConnectionsLater(app, before, procDir);
      return {
        end(after) {
          connections.stop();
          last = { snapshot: after, ticks: ticksIn(after), remote: readRemote() };
        },
        async figures(responses, store) {
          if (!last) return null;
          const quotas = new Map();
          const serving = (name) => servers.filter((server) => server.stores.includes(name));
          const { snapshot: from } = first;
          const { snapshot: to } = last;
          const measured = Boolean(from && to) && longEnough(from.cpu, to.cpu);
          // In % of one core over the step: ticks over the step's wall time in ticks per CPU.
          const wallTicks = measured ? (to.cpu.total - from.cpu.total) / to.cpu.cpus : 0;
          const seconds = measured ? Number(to.atNs - from.atNs) / 1e9 : 0;
          const share = (ticksBefore, ticksAfter) => Math.max(0, ticksAfter - ticksBefore) / wallTicks;
          const procFigures = (ticksBefore, ticksAfter) => {
            if (ticksBefore === null || ticksAfter === null || !measured) return { ...NOT_MEASURED };
            return figuresOf(share(ticksBefore, ticksAfter), seconds, responses);
          };
          const perProcess = (pids) => pids.map((pid) => ({
            pid, cpuPercent: share(from.table.ticks.get(pid) ?? 0, to.table.ticks.get(pid)) * 100,
          }));
          const context = { first, last, measured, procFigures, perProcess, share, responses, cpus, procDir };
          return {
            app: app && await appFigures(app, { ...context, connections: await connections.counted }),
            servers: quotaLimited(quotas, await Promise.all(serving(store).map(async (server) => {
              const own = { name: server.name, stores: [...server.stores], cores: server.cores };
              if (server.pids.length) {
                const ticksOf = (reading) => reading.ticks?.servers.get(server) ?? null;
                const figures = procFigures(ticksOf(first), ticksOf(last));
                const quota = await serverQuota(server.pids, { procDir, cgroupRoot });
                if (quota) quotas.set(own.name, quota);
                if (figures.cpuPercent === null) return { ...own, ...figures, source: null };
                return { ...own, ...figures, ...serverParts(server, context), source: 'proc' };
              }
              if (server.redisUrl) {
                const [a, b] = await Promise.all([first.remote.servers.get(server), last.remote.servers.get(server)]);
                const figures = remoteFigures(a, b, responses);
                return { ...own, ...figures, source: figures.cpuPercent === null ? null : 'redis-info' };
              }
              return { ...own, ...NOT_MEASURED, source: null };
            }))),
          };
        },
      };
    },
  };
}

// A server's processes and its busiest one-core part: its command thread, or its busiest process
// (PostgreSQL: a backend serves one connection at a time, so its cores are at most its processes).
function serverParts(server, { first, last, perProcess, share }) {
  const pids = treePids(last.snapshot.table, server.pids).sort((a, b) => a - b);
  const detail = perProcess(pids).map((entry) => ({
    ...entry, role: server.pids.includes(entry.pid) ? 'server' : 'child', mainThreadPercent: null,
  }));
  if (server.unit === 'thread') {
    for (const entry of detail) {
      const [before, after] = [first.ticks.threads.get(entry.pid), last.ticks.threads.get(entry.pid)];
      if (Number.isFinite(before) && Number.isFinite(after)) entry.mainThreadPercent = share(before, after) * 100;
    }
  }
  const units = server.unit === 'thread'
    ? detail.map((entry) => entry.mainThreadPercent).filter(Number.isFinite)
    : server.unit === 'process' ? detail.map((entry) => entry.cpuPercent) : [];
  const cores = server.unit === 'process' ? Math.min(server.cores, detail.length) : server.cores;
  return {
    cores,
    processes: detail.length,
    busiestPercent: units.length ? Math.max(...units) : null,
    detail,
  };
}

// A cgroup CPU quota caps a server's cores. Servers sharing one quota share it by their use, so
// each reads saturated exactly when the group is at its quota.
function quotaLimited(quotas, figures) {
  return figures.map((server) => {
    const quota = quotas.get(server.name);
    if (!quota) return server;
    const sharing = figures.filter((other) => quotas.get(other.name)?.groups === quota.groups);
    const used = sharing.reduce((sum, member) => sum + (member.cpuPercent ?? 0), 0);
    let share = 1;
    if (sharing.length > 1) share = used > 0 ? (server.cpuPercent ?? 0) / used : 1 / sharing.length;
    const cores = quota.cores * share;
    return cores < server.cores ? { ...server, cores: Number(cores.toPrecision(3)) } : server;
  });
}

async function appFigures(app, { first, last, procFigures, perProcess, responses, cpus, procDir, connections }) {
  if (app.source === 'proc') {
    const figures = procFigures(first.ticks?.app ?? null, last.ticks?.app ?? null);
    if (figures.cpuPercent === null) return { ...UNMEASURED_APP };
    const roles = appRoles(last.snapshot.table, app.roots, app.exclude, procDir);
    const detail = perProcess([...roles.keys()].sort((a, b) => a - b)).map((entry) => ({
      ...entry, role: roles.get(entry.pid), connections: connections?.get(entry.pid) ?? null,
    }));
    const own = detail.filter((entry) => entry.role !== 'other');
    const processes = Math.max(1, own.length);
    return {
      ...figures,
      processes,
      cores: Math.min(processes, cpus),
      busiestPercent: own.length ? Math.max(...own.map((entry) => entry.cpuPercent)) : figures.cpuPercent,
      detail,
      source: 'proc',
    };
  }
  if (app.source !== 'metrics') return { ...UNMEASURED_APP };
  const [before, after] = await Promise.all([first.remote.app, last.remote.app]);
  return remoteAppFigures(before, after, responses);
}

// The established connections each of the app's processes holds on its ports, read once during
// the step (without blocking the driver's thread); counted resolves to Map pid -> count, or null.
function countConnectionsLater(app, before, procDir) {
  if (app?.source !== 'proc' || !app.ports?.length || !before) return { counted: Promise.resolve(null), stop() {} };
  const pids = treePids(before.table, app.roots, app.exclude);
  if (pids.length < 2) return { counted: Promise.resolve(null), stop() {} };
  let settle;
  const counted = new Promise((resolve) => { settle = resolve; });
  let started = false;
  const timer = setTimeout(() => {
    started = true;
    connectionsByPid(app.ports, pids, procDir).then(settle, () => settle(null));
  }, CONNECTIONS_AFTER_MS);
  timer.unref();
  return {
    counted,
    // A step shorter than the wait: not counted. A count under way resolves on its own.
    stop() {
      if (started) return;
      clearTimeout(timer);
      settle(null);
    },
  };
}
