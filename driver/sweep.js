// The sweep: every target at every load level, one step at a time, interleaved and shuffled with
// the run's seed so a drift of the machine falls on all targets alike; a control step at the end
// (the first one again) shows that drift.
import { loadEngine } from './engines/table.js';
import { DEFAULT_HTTP_ENGINE, steadyMaxSeconds } from '../config/run-defaults.js';
import { createStepRunner } from './workers.js';
import { redactUrl } from '../util/redact.js';
import { orderOf, planSchedule } from './schedule.js';
import { machineMonitorFor } from './machine-load.js';
import { planTiers } from './tier-plan.js';
import { createTierSampler } from './tier-cpu.js';
import { createWorkload } from './workloads/workload.js';
import { loadRecords } from './workloads/load.js';
import { verifyWrites } from './workloads/verify.js';
import { partLoads } from './parts.js';
import { canVerify } from '../config/workloads.js';
import { controlPhase, loadPhase, shownOf, stepsPhase, warmupPhase } from './sweep-phases.js';

/** The loads to run against each target: [{concurrency}] or [{rps}]; with --part, the part's shares. */
export function planLoads({ concurrency, rps, requests, part }) {
  if (part) return partLoads({ concurrency, rps, requests }, part);
  return rps ? rps.map((rate) => ({ rps: rate })) : concurrency.map((c) => ({ concurrency: c }));
}

/** A fresh workload per target (same seed, same sequence), or null. */
function workloadFor(target, workload, token) {
  if (!workload) return null;
  return createWorkload(workload, { basePath: new URL(target.url).pathname, token });
}

/**
 * Runs every load against every target with `engine` through the phases of
 * driver/sweep-phases.js and resolves to { steps, order, control }. An abort rejects with
 * StepAborted. Events go to emit(event) (driver/run.js lists them); an event's `target` is
 * present(target), never the target itself (it may hold a password). Without `engine`, the one
 * settings.engine names (the default HTTP engine without one); direct mode passes its own
 * `engine`, `loadRecords` and `verifyWrites`; --profile a `profiler` (driver/profile.js).
 */
export async function runSweep(targets, settings, {
  engine: given = null,
  loadRecords: loadWith = loadRecords,
  verifyWrites: verifyWith = verifyWrites,
  workload = null,
  token = null,
  emit = () => {},
  present = shownOf,
  signal,
  machine,
  probe = null,
  beforeSteps = null,
  profiler = null,
} = {}) {
  const onNotice = (message) => emit({ type: 'notice', message });
  const engine = given ?? await loadEngine(settings.engine ?? DEFAULT_HTTP_ENGINE);
  const stepRunner = createStepRunner({ workers: settings.workers, engine, onNotice });
  try {
    const sweep = prepareSweep(targets, settings, {
      loadWith, verifyWith, workload, token, emit, present, signal, machine, probe, stepRunner, profiler,
    });
    await loadPhase(sweep);
    await warmupPhase(sweep);
    if (beforeSteps) await beforeSteps();
    await stepsPhase(sweep);
    const control = await controlPhase(sweep);
    return { steps: sweep.steps, order: orderOf(sweep.schedule, (target) => redactUrl(target.url)), control };
  } finally {
    await stepRunner.close();
  }
}

// The state the phases share: the schedule, each target's own, and `measure(target, load, extra)`.
function prepareSweep(targets, settings, {
  loadWith, verifyWith, workload, token, emit, present, signal, machine, probe, stepRunner, profiler,
}) {
  const loads = planLoads(settings);
  const repeats = settings.repeat;
  const schedule = planSchedule(targets, loads, {
    repeat: repeats, order: settings.order, seed: settings.orderSeed ?? null,
  });
  const common = { keepAlive: settings.keepAlive, timeoutMs: settings.timeoutMs, signal };
  const monitor = machine ?? defaultMonitor(targets.map((target) => target.url));
  // Writes to one key from two workers can land in any order unseen, so the read-back cannot
  // be made sound across them.
  const { workers } = settings;
  const verify = workload?.verify && canVerify(workers, workload.mix);
  if (workload?.verify && !verify) {
    emit({
      type: 'notice',
      message: `the written values are not read back after the run: ${workers} workers write side by side, ` +
        'and no one of them knows the order their writes to a key landed in',
    });
  }
  const workerWorkload = (target) => workload && {
    key: target.url, spec: workload, basePath: new URL(target.url).pathname, token,
  };
  // Direct mode: the store's resolved connection for a worker thread; null for memory.
  const workerTarget = ({ probeTarget, engineLoad }) => {
    if (probeTarget?.kind !== 'direct') return null;
    const { store, connections, settings: storeSettings, valueShape } = probeTarget;
    const key = engineLoad?.key === undefined ? {} : { key: engineLoad.key };
    return { store, connections, settings: storeSettings, valueShape, ...key };
  };
  const state = new Map(targets.map((target) => [
    target,
    { steps: [], runner: workloadFor(target, workload, token), load: null },
  ]));
  const measure = (target, load, extra) => stepRunner.measure({
    ...target.engineLoad,
    ...common,
    url: target.url,
    concurrency: load.concurrency,
    rps: load.rps,
    workload: state.get(target).runner,
    ...extra,
  }, { workload: workerWorkload(target), target: workerTarget(target) });
  return {
    targets,
    settings,
    schedule,
    total: schedule.length,
    repeats,
    steadyMax: steadyMaxSeconds(settings),
    hasControl: settings.control !== false && repeats === 1 && schedule.length > 1,
    verify,
    workload,
    token,
    signal,
    monitor,
    probe,
    profiler, // --profile: driver/profile.js's appProfiler
    state,
    steps: [],
    measure,
    loadRecords: loadWith,
    verifyWrites: verifyWith,
    emit,
    present,
  };
}

// With no monitor, a loopback target's listener is the app, and no store server is known.
function defaultMonitor(urls) {
  const tiers = createTierSampler(planTiers({ appUrls: urls, services: new Map() }));
  return machineMonitorFor(urls, { tiers });
}
