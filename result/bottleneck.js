// What limited a step: the tier whose CPU was saturated, the machine, or nothing (the closed loop
// waited on the store or the network). Precedence and why: docs/measurement.md.
import { CPU_SATURATED_PERCENT } from './honesty.js';

// A thread of this run that waited this share of the step for a CPU (machine.cpuWaitPercent) lost
// as much of its time: 10%, as CPU steal. An undisturbed run's busiest waiter read 1-4% here.
const CPU_WAIT_PERCENT = 10;

const rounded = (value) => Math.round(value);
const micros = (value) => (value === null ? '' : `, ${rounded(value)} µs per response`);
const coresText = (cores) => `${cores} core${cores === 1 ? '' : 's'}`;

// The share of the time a CPU of this machine wanted that the hypervisor took (machine-load.js
// stealOfBusy): taken off the cores of every tier measured here. A tier read elsewhere (its
// /metrics, a Redis's INFO) is on another machine.
const stealOf = (step) => step.machine?.stealOfBusyPercent ?? 0;
const elsewhere = (tier) => tier.source === 'metrics' || tier.source === 'redis-info';
const room = (tier, steal) => (elsewhere(tier) ? 1 : 1 - steal / 100);

/**
 * How near its limit a tier was, in % (null when not measured): its CPU over the cores it can
 * use, and where it says so its busiest part that can use one core at most (an app's or
 * PostgreSQL's process, Redis's command thread) over one core, steal taken off both. Where each
 * such part has a core of its own the busiest part decides (the sum of 4 workers, one pegged, reads
 * 60%); where they share fewer cores the sum may decide too.
 */
function tierLoad(tier, steal = 0) {
  if (tier?.cpuPercent === null || tier?.cpuPercent === undefined || !tier.cores) return null;
  const left = room(tier, steal);
  const whole = tier.cpuPercent / (tier.cores * left);
  if (!Number.isFinite(tier.busiestPercent)) return whole;
  const busiest = tier.busiestPercent / left;
  return (tier.processes ?? 1) > tier.cores ? Math.max(whole, busiest) : busiest;
}

/** A tier's share of the cores it can use, in % (null when not measured): tierLoad without steal. */
export const shareOfCores = (tier) => tierLoad(tier);

const saturated = (tier, steal) => (tierLoad(tier, steal) ?? 0) >= CPU_SATURATED_PERCENT;

/** The driver's busiest thread in % of a core: its one thread, or the busiest of --workers'. */
export function busiestDriverThread(step) {
  return step.workers?.length ? Math.max(...step.workers.map((worker) => worker.cpuPercent)) : step.cpuPercent;
}

function tierText(name, tier) {
  if (!tier || tier.cpuPercent === null) return `${name} not measured`;
  const percent = `${name} ${rounded(tier.cpuPercent)}%`;
  return tier.cores ? `${percent} of ${coresText(tier.cores)}` : percent;
}

function othersText(step, except) {
  const { tiers } = step;
  const parts = [];
  if (except !== 'driver') parts.push(`driver ${rounded(busiestDriverThread(step))}%`);
  if (except !== 'app' && tiers.app) parts.push(tierText('app', tiers.app));
  for (const server of tiers.servers) if (server.name !== except) parts.push(tierText(server.name, server));
  return parts.join(', ');
}

// This run's, other processes', the kernel's interrupt work's and steal's CPU, in % of one core.
function usedPercent(machine, cpus) {
  const { treeCpuPercent, othersCpuPercent, stealPercent } = machine ?? {};
  if (![treeCpuPercent, othersCpuPercent, stealPercent].every(Number.isFinite) || !cpus) return null;
  return treeCpuPercent + othersCpuPercent + (machine.irqCpuPercent ?? 0) + stealPercent * cpus;
}

/** Idle whole cores during the step (null where the machine was not measured). */
export function idleCores(machine, cpus) {
  const used = usedPercent(machine, cpus);
  return used === null ? null : Math.max(0, Math.floor(cpus - used / 100 + 0.1));
}

/** Whether a thread of this run waited CPU_WAIT_PERCENT of the step or more for a CPU. */
export const threadsWaited = (machine) => (machine?.cpuWaitPercent ?? 0) >= CPU_WAIT_PERCENT;

export function everyCoreBusy(machine, cpus) {
  const used = usedPercent(machine, cpus);
  return used !== null && used >= CPU_SATURATED_PERCENT * cpus;
}

// What the app message suggests when cores sat idle: more app processes, by the run's own flag.
// Only for an app on this machine, whose idle cores these are.
function appHint(app, machine, cpus, appWorkersFlag) {
  const idle = idleCores(machine, cpus);
  if (!idle || !appWorkersFlag || app.processes === null || app.source !== 'proc') return '';
  const serving = servingProcesses(app);
  const more = Math.min(cpus, serving + idle);
  if (more <= serving) return '';
  return `; ${coresText(idle)} idle: ${appWorkersFlag} ${more} lets it use ${idle === 1 ? 'it' : 'them'}`;
}

// The app's processes that serve requests: all of them less a cluster primary.
const servingProcesses = (app) => (app.detail
  ? Math.max(1, app.detail.filter((entry) => entry.role === 'worker' || entry.role === 'app').length)
  : app.processes);

function processesText(app) {
  if (app.processes === null) return '';
  const primary = app.detail?.some((entry) => entry.role === 'primary');
  if (!primary) return `${app.processes} process${app.processes === 1 ? '' : 'es'}, `;
  const workers = servingProcesses(app);
  return `${workers} worker${workers === 1 ? '' : 's'} and their primary, `;
}

const stealText = (tier, steal) => (!elsewhere(tier) && rounded(steal) >= 1 ? ` less ${rounded(steal)}% steal` : '');

// The app's busiest process, when it and not the sum decided: which one, and its connections.
function busiestAppProcess(app, steal) {
  if (!(app.processes > 1) || !app.detail || !Number.isFinite(app.busiestPercent)) return '';
  if (app.cpuPercent / (app.cores * room(app, steal)) >= app.busiestPercent / room(app, steal)) return '';
  const entry = app.detail.find((one) => one.cpuPercent === app.busiestPercent);
  if (!entry) return '';
  const held = app.detail.map((one) => one.connections).filter(Number.isFinite);
  const connections = Number.isFinite(entry.connections) && held.length === app.detail.length
    ? `, holding ${entry.connections} of ${held.reduce((sum, n) => sum + n, 0)} connections`
    : '';
  return `the app's busiest process (${entry.role} ${entry.pid}) used ${rounded(entry.cpuPercent)}% of a core` +
    `${stealText(app, steal)}${connections}; `;
}

// A server's busiest one-core part, when it decided.
function busiestServerPart(server, steal) {
  if (!Number.isFinite(server.busiestPercent)) return '';
  if ((server.processes ?? 1) > server.cores &&
    server.cpuPercent / server.cores >= server.busiestPercent) return '';
  const what = server.detail?.some((entry) => entry.mainThreadPercent !== null) ? 'command thread' : 'busiest process';
  return ` (its ${what} ${rounded(server.busiestPercent)}% of a core${stealText(server, steal)})`;
}

function machineEvidence(step, cpus) {
  const { machine, warnings } = step;
  const reasons = [];
  const codes = new Set(warnings.map((warning) => warning.code));
  if (codes.has('CPU_STEAL')) {
    const felt = machine.stealOfBusyPercent ?? machine.stealPercent;
    reasons.push(`the hypervisor took ${rounded(felt)}% of the CPU time its processes wanted (steal)`);
  }
  if (codes.has('BUSY_MACHINE')) reasons.push(`other processes used ${rounded(machine.othersCpuPercent)}% of a core`);
  if (everyCoreBusy(machine, cpus)) {
    const irq = machine.irqCpuPercent ? `, interrupts ${rounded(machine.irqCpuPercent)}%` : '';
    reasons.push(`every core was busy (this run ${rounded(machine.treeCpuPercent)}%, others ` +
      `${rounded(machine.othersCpuPercent)}%${irq}, steal ${rounded(machine.stealPercent)}% of ${coresText(cpus)})`);
  }
  if (threadsWaited(machine)) {
    reasons.push(`a thread of this run waited for a CPU ${rounded(machine.cpuWaitPercent)}% of the step ` +
      '(runnable, not running)');
  }
  return reasons;
}

/**
 * The bottleneck of a step: { tier, server, evidence }, the first that holds of driver, app,
 * server (at 90% of their cores), machine, latency (all measured, none saturated). With a
 * possible limit unmeasured, tier is null and evidence says what was missing.
 */
export function bottleneckOf(step, { cpus, appWorkersFlag = null } = {}) {
  const { tiers } = step;
  const verdict = (tier, evidence, server = null) => ({ tier, server, evidence });
  const steal = stealOf(step);
  const driverPercent = busiestDriverThread(step);
  if (driverPercent >= CPU_SATURATED_PERCENT * room(tiers.driver, steal)) {
    const who = step.workers?.length ? `the busiest of ${step.workers.length} driver threads` : 'the driver\'s thread';
    return verdict('driver', `${who} used ${rounded(driverPercent)}% of a core${stealText(tiers.driver, steal)}` +
      `${micros(tiers.driver.microsPerResponse)}; ${othersText(step, 'driver')}`);
  }
  if (saturated(tiers.app, steal)) {
    const { app } = tiers;
    return verdict('app', `${busiestAppProcess(app, steal)}the app used ${rounded(app.cpuPercent)}% of its ` +
      `${coresText(app.cores)}${stealText(app, steal)} ` +
      `(${processesText(app)}${rounded(app.microsPerResponse ?? 0)} µs per response); ${othersText(step, 'app')}` +
      appHint(app, step.machine, cpus, appWorkersFlag));
  }
  const busiest = tiers.servers.filter((server) => saturated(server, steal))
    .sort((a, b) => tierLoad(b, steal) - tierLoad(a, steal))[0];
  if (busiest) {
    const used = `${busiest.name} used ${rounded(busiest.cpuPercent)}% of its ${coresText(busiest.cores)}` +
      `${stealText(busiest, steal)}${busiestServerPart(busiest, steal)}`;
    return verdict('server', `${used}${micros(busiest.microsPerResponse)}; ${othersText(step, busiest.name)}`,
      busiest.name);
  }
  const short = machineEvidence(step, cpus);
  if (short.length) return verdict('machine', `no tier saturated (${othersText(step, null)}); ${short.join('; ')}`);
  const unmeasured = [
    ...(step.mode !== 'direct' && (!tiers.app || tiers.app.cpuPercent === null) ? ['the app'] : []),
    ...tiers.servers.filter((server) => server.cpuPercent === null).map((server) => server.name),
  ];
  if (unmeasured.length) {
    return verdict(null, `cannot tell: no measured tier saturated (${othersText(step, null)}), but ` +
      `${unmeasured.join(', ')} could not be measured`);
  }
  const waited = step.model === 'open'
    ? 'the offered rate was served without saturating any tier'
    : 'the closed loop waited on the store or the network';
  const mean = step.latency?.meanMs;
  return verdict('latency', `no tier saturated (${othersText(step, null)}) and the machine had CPU to spare: ` +
    `${waited}${Number.isFinite(mean) ? ` (mean latency ${mean.toFixed(2)} ms)` : ''}`);
}

export function bottleneckText(bottleneck) {
  if (!bottleneck?.tier) return '-';
  return bottleneck.tier === 'server' ? `server ${bottleneck.server}` : bottleneck.tier;
}

/** A comparison row's bottleneck: over repeats the most common, with the first such repeat's evidence. */
export function commonBottleneck(steps) {
  const known = steps.map((step) => step.bottleneck).filter((bottleneck) => bottleneck?.tier);
  if (!known.length) return steps.find((step) => step.bottleneck)?.bottleneck ?? null;
  const counts = new Map();
  for (const bottleneck of known) {
    const id = bottleneckText(bottleneck);
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  const top = Math.max(...counts.values());
  const winner = [...counts].find(([, count]) => count === top)[0];
  const first = known.find((bottleneck) => bottleneckText(bottleneck) === winner);
  if (steps.length === 1) return { ...first };
  return { ...first, evidence: `${top} of ${steps.length} repeats; the first: ${first.evidence}` };
}

/** The tier every ranked row of a group shares, or null. */
export function sharedBottleneck(rows) {
  const ranked = rows.filter((row) => !row.failed);
  if (ranked.length < 2) return null;
  const tiers = new Set(ranked.map((row) => row.bottleneck?.tier ?? null));
  const [tier] = tiers;
  return tiers.size === 1 && tier ? tier : null;
}
