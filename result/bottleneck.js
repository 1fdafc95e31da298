// What limited a step: the tier whose CPU was saturated, the machine, or nothing (the closed loop
// waited on the store or the network). Precedence and why: docs/measurement.md.
import { CPU_SATURATED_PERCENT } from './honesty.js';

export const BOTTLENECK_TIERS = ['driver', 'app', 'server', 'machine', 'latency'];

const rounded = (value) => Math.round(value);
const micros = (value) => (value === null ? '' : `, ${rounded(value)} µs per response`);
const coresText = (cores) => `${cores} core${cores === 1 ? '' : 's'}`;

/** A tier's share of the cores it can use, in % (null when not measured). */
export const shareOfCores = (tier) =>
  (tier?.cpuPercent === null || tier?.cpuPercent === undefined || !tier.cores ? null : tier.cpuPercent / tier.cores);

const saturated = (tier) => (shareOfCores(tier) ?? 0) >= CPU_SATURATED_PERCENT;

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

/** Idle whole cores during the step (null where the machine was not measured). */
export function idleCores(machine, cpus) {
  const { treeCpuPercent, othersCpuPercent, stealPercent } = machine ?? {};
  if (![treeCpuPercent, othersCpuPercent, stealPercent].every(Number.isFinite) || !cpus) return null;
  const used = (treeCpuPercent + othersCpuPercent) / 100 + (stealPercent / 100) * cpus;
  return Math.max(0, Math.floor(cpus - used + 0.1));
}

export function everyCoreBusy(machine, cpus) {
  const { treeCpuPercent, othersCpuPercent, stealPercent } = machine ?? {};
  if (![treeCpuPercent, othersCpuPercent, stealPercent].every(Number.isFinite) || !cpus) return false;
  return treeCpuPercent + othersCpuPercent + stealPercent * cpus >= CPU_SATURATED_PERCENT * cpus;
}

// What the app message suggests when cores sat idle: more app processes, by the run's own flag.
function appHint(app, machine, cpus, appWorkersFlag) {
  const idle = idleCores(machine, cpus);
  if (!idle || !appWorkersFlag || app.processes === null) return '';
  const more = Math.min(cpus, app.processes + idle);
  if (more <= app.processes) return '';
  return `; ${coresText(idle)} idle: ${appWorkersFlag} ${more} lets it use ${idle === 1 ? 'it' : 'them'}`;
}

function machineEvidence(step, cpus) {
  const { machine, warnings } = step;
  const reasons = [];
  const codes = new Set(warnings.map((warning) => warning.code));
  if (codes.has('CPU_STEAL')) {
    reasons.push(`the hypervisor took ${rounded(machine.stealPercent)}% of the CPU time (steal)`);
  }
  if (codes.has('BUSY_MACHINE')) reasons.push(`other processes used ${rounded(machine.othersCpuPercent)}% of a core`);
  if (everyCoreBusy(machine, cpus)) {
    reasons.push(`every core was busy (this run ${rounded(machine.treeCpuPercent)}%, others ` +
      `${rounded(machine.othersCpuPercent)}%, steal ${rounded(machine.stealPercent)}% of ${coresText(cpus)})`);
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
  const driverPercent = busiestDriverThread(step);
  if (driverPercent >= CPU_SATURATED_PERCENT) {
    const who = step.workers?.length ? `the busiest of ${step.workers.length} driver threads` : 'the driver\'s thread';
    return verdict('driver', `${who} used ${rounded(driverPercent)}% of a core` +
      `${micros(tiers.driver.microsPerResponse)}; ${othersText(step, 'driver')}`);
  }
  if (saturated(tiers.app)) {
    const { app } = tiers;
    const processes = app.processes === null ? '' : `${app.processes} process${app.processes === 1 ? '' : 'es'}, `;
    return verdict('app', `the app used ${rounded(app.cpuPercent)}% of its ${coresText(app.cores)} ` +
      `(${processes}${rounded(app.microsPerResponse ?? 0)} µs per response); ${othersText(step, 'app')}` +
      appHint(app, step.machine, cpus, appWorkersFlag));
  }
  const busiest = tiers.servers.filter(saturated).sort((a, b) => shareOfCores(b) - shareOfCores(a))[0];
  if (busiest) {
    const used = `${busiest.name} used ${rounded(busiest.cpuPercent)}% of its ${coresText(busiest.cores)}`;
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
