// The CPU of each tier behind a step (the app, each store server), from /proc, or else from the
// app's /metrics or a Redis's INFO cpu. % of ONE core and µs per response; unmeasured is null, never 0.
import { MIN_SAMPLE_TICKS, executableOf, tableTreeTicks, treePids } from './machine-load.js';
import { readMetricsCpuSeconds, readRedisCpuSeconds } from './tier-remote.js';
import { serverQuota } from '../embedded/cpu-quota.js';

const NOT_MEASURED = Object.freeze({ cpuPercent: null, microsPerResponse: null });

/**
 * @typedef {object} AppPlan  where the app's CPU comes from
 * @property {'proc'|'metrics'} source
 * @property {number[]} [roots]    proc: the app's processes (its trees are the app)...
 * @property {number[]} [exclude]  ...less the trees of the store servers it started
 * @property {string} [metricsUrl] metrics: its /metrics
 */

/**
 * @typedef {object} ServerPlan  one store server
 * @property {string} name      the service (`redis`, `postgres`...), or `service@host:port` for one of several nodes
 * @property {string[]} stores  the run's stores it serves
 * @property {number} cores     the cores it can use
 * @property {number[]} pids    its listening processes on this machine (their trees are it); [] when not found
 * @property {string|null} redisUrl  a Redis's URL (with its password), read through INFO cpu when not found in /proc
 */

// A node:cluster primary hands connections to its workers: it is not one more serving process.
function appProcesses(table, roots, exclude, procDir) {
  const pids = treePids(table, roots, exclude);
  const executables = new Set(roots.map((pid) => executableOf(pid, procDir)).filter(Boolean));
  const own = new Set(pids.filter((pid) => executables.has(executableOf(pid, procDir))));
  const parents = new Set([...own].filter((pid) => (table.children.get(pid) ?? []).some((child) => own.has(child))));
  return Math.max(1, own.size - parents.size);
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

function remoteFigures(before, after, responses) {
  if (!before || !after) return { ...NOT_MEASURED };
  const seconds = Number(after.atNs - before.atNs) / 1e9;
  return figuresOf((after.value - before.value) / seconds, seconds, responses);
}

/**
 * A sampler of the tiers' CPU for the machine monitor: begin(snapshot), end(snapshot), then
 * figures(responses, store) resolves to { app, servers }. `pids`: every pid it reads.
 *
 * @param {{ app: AppPlan|null, servers: ServerPlan[], cpus: number, appWorkersFlag?: string|null,
 *   procDir?: string, fetchTimeoutMs?: number }} plan
 */
export function createTierSampler({ app, servers, cpus, appWorkersFlag = null, procDir = '/proc', cgroupRoot }) {
  const procServers = servers.filter((server) => server.pids.length);
  const redisServers = servers.filter((server) => !server.pids.length && server.redisUrl);
  const readRemote = () => ({
    app: app?.source === 'metrics' ? timed(() => readMetricsCpuSeconds(app.metricsUrl)) : null,
    servers: new Map(redisServers.map((server) => [server, timed(() => readRedisCpuSeconds(server.redisUrl))])),
  });
  const ticksIn = (snapshot) => snapshot && {
    app: app?.source === 'proc' && app.roots.every((pid) => snapshot.table.ticks.has(pid))
      ? tableTreeTicks(snapshot.table, app.roots, app.exclude)
      : null,
    servers: new Map(procServers.map((server) => [server, tableTreeTicks(snapshot.table, server.pids)])),
  };
  return {
    pids: [...(app?.roots ?? []), ...procServers.flatMap((server) => server.pids)],
    appWorkersFlag,
    cpus,
    begin(before) {
      const first = { snapshot: before, ticks: ticksIn(before), remote: readRemote() };
      let last = null;
      return {
        end(after) {
          last = { snapshot: after, ticks: ticksIn(after), remote: readRemote() };
        },
        async figures(responses, store) {
          if (!last) return null;
          const quotas = new Map();
          const serving = (name) => servers.filter((server) => server.stores.includes(name));
          // In % of one core over the step: ticks over the step's wall time in ticks per CPU.
          const { snapshot: from } = first;
          const { snapshot: to } = last;
          const wallTicks = from && to ? (to.cpu.total - from.cpu.total) / to.cpu.cpus : 0;
          const seconds = from && to ? Number(to.atNs - from.atNs) / 1e9 : 0;
          const procFigures = (ticksBefore, ticksAfter) => {
            if (ticksBefore === null || ticksAfter === null || wallTicks * to.cpu.cpus < MIN_SAMPLE_TICKS) {
              return { ...NOT_MEASURED };
            }
            return figuresOf(Math.max(0, ticksAfter - ticksBefore) / wallTicks, seconds, responses);
          };
          return {
            app: app && await appFigures({ app, first, last, procFigures, responses, cpus, procDir }),
            servers: quotaLimited(quotas, await Promise.all(serving(store).map(async (server) => {
              const own = { name: server.name, stores: [...server.stores], cores: server.cores };
              if (server.pids.length) {
                const ticksOf = (reading) => reading.ticks?.servers.get(server) ?? null;
                const figures = procFigures(ticksOf(first), ticksOf(last));
                const quota = await serverQuota(server.pids, { procDir, cgroupRoot });
                if (quota) quotas.set(own.name, quota);
                return { ...own, ...figures, source: figures.cpuPercent === null ? null : 'proc' };
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

async function appFigures({ app, first, last, procFigures, responses, cpus, procDir }) {
  if (app.source === 'proc') {
    const figures = procFigures(first.ticks?.app ?? null, last.ticks?.app ?? null);
    if (figures.cpuPercent === null) return { ...figures, processes: null, cores: null, source: null };
    const processes = appProcesses(last.snapshot.table, app.roots, app.exclude, procDir);
    return { ...figures, processes, cores: Math.min(processes, cpus), source: 'proc' };
  }
  const [before, after] = await Promise.all([first.remote.app, last.remote.app]);
  const figures = remoteFigures(before, after, responses);
  // One process's own figure: prom-client's default metrics describe the process that answered.
  if (figures.cpuPercent === null) return { ...figures, processes: null, cores: null, source: null };
  return { ...figures, processes: 1, cores: 1, source: 'metrics' };
}
