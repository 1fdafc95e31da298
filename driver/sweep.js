// The sweep: every target at every load level, one measured step each, never two at once. By
// default the steps are interleaved (result/repeat.js): at each level one step of every target,
// shuffled with the run's seed. Before the first measured step every target is primed once
// (--warmup requests: the app's JIT, its pools, the servers it just started), and each step is
// preceded by a warm-up at its own load until the target is steady (driver/warmup.js). After
// the last step the first one is measured again, the control, so a drift of the machine during
// the run shows. With a key-space workload (docs/workloads.md) each target is a store: its
// records are loaded before anything else, every request of its warm-ups and steps is what the
// workload says, and at the end a sample of what it wrote is read back (the verification).
import { httpEngine } from './engines/http.js';
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
import { controlPhase, loadPhase, shownOf, steadyMaxSeconds, stepsPhase, warmupPhase } from './sweep-phases.js';

/**
 * The loads to run against each target: [{concurrency}] or, with --rps, [{rps}]; with
 * settings.part (--part I/N), the part's shares (driver/parts.js).
 */
export function planLoads({ concurrency, rps, requests, part }) {
  if (part) return partLoads({ concurrency, rps, requests }, part);
  return rps ? rps.map((rate) => ({ rps: rate })) : concurrency.map((c) => ({ concurrency: c }));
}

/** The workload a key-space run sends to `target` (a fresh one per target: same seed, same sequence), or null. */
export function workloadFor(target, workload, token) {
  if (!workload) return null;
  return createWorkload(workload, { basePath: new URL(target.url).pathname, token });
}

/**
 * Runs every load against every target with `engine`, in the order result/repeat.js plans
 * (settings.order, settings.orderSeed, settings.repeat), through the phases of
 * driver/sweep-phases.js: load, warm-up, the measured steps, each target's read-back, the
 * control. Resolves to { steps, order, control }: order as the Result keeps it, control the
 * first step measured again at the end (null with repeats or with one step). An abort signal
 * rejects with StepAborted. `machine` samples the machine's load around each step
 * (driver/machine-load.js).
 *
 * What happens comes out as one stream of events, emit(event), as runBenchmark's progress
 * events (driver/run.js lists them): 'load' and 'load-done', 'step' (with `load.warmup`, a
 * warm-up; with `load.control`, the control), 'step-done', 'verify-done', 'target-done' (once
 * the run's steps of a target are all done) and 'notice'. An event's `target` is
 * present(target) (default: its URL without password, and its store), never the target itself.
 *
 * settings.warmup N primes every target with N requests once, before the first step (0: no
 * warm-up of any kind); settings.warmupMaxSeconds caps each step's steady-state warm-up (0:
 * none).
 *
 * `workload` (null for the seeded reads) is { name, mix, distribution, records, valueSize,
 * seed, load, verify }; `token` the write token.
 *
 * settings.workers N runs each step and warm-up in N worker threads
 * (driver/workers.js); a 'notice' says what the run does differently than asked.
 *
 * Direct mode (--direct) passes its own `engine`, `loadRecords` and `verifyWrites` (called
 * with the HTTP ones' arguments plus `store`, the target's store name), and its targets carry
 * `engineLoad`, what its engine needs in each step's load (the Store and key).
 * `beforeSteps()` (--start-at) is awaited between the warm-up and the first step.
 */
export async function runSweep(targets, settings, {
  engine = httpEngine,
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
} = {}) {
  const onNotice = (message) => emit({ type: 'notice', message });
  const stepRunner = createStepRunner({ workers: settings.workers, engine, onNotice });
  try {
    const sweep = prepareSweep(targets, settings, {
      loadWith, verifyWith, workload, token, emit, present, signal, machine, probe, stepRunner,
    });
    await loadPhase(sweep);
    await warmupPhase(sweep);
    // --start-at: every part waits here, prepared, for the same instant.
    if (beforeSteps) await beforeSteps();
    await stepsPhase(sweep);
    const control = await controlPhase(sweep);
    return { steps: sweep.steps, order: orderOf(sweep.schedule, (target) => redactUrl(target.url)), control };
  } finally {
    await stepRunner.close();
  }
}

// The state the phases share: the schedule, each target's own, and `measure(target, load,
// extra)`, one step or warm-up window through the step runner (the workers).
function prepareSweep(targets, settings, {
  loadWith, verifyWith, workload, token, emit, present, signal, machine, probe, stepRunner,
}) {
  const loads = planLoads(settings);
  const repeats = settings.repeat;
  const schedule = planSchedule(targets, loads, {
    repeat: repeats, order: settings.order, seed: settings.orderSeed ?? null,
  });
  const common = { keepAlive: settings.keepAlive, timeoutMs: settings.timeoutMs, signal };
  const monitor = machine ?? defaultMonitor(targets.map((target) => target.url));
  // Several workers each send their own requests and keep their own record of what they
  // wrote: writes to one key from two workers can land in any order unseen, so the read-back
  // cannot be made sound across them (docs/workloads.md).
  const { workers } = settings;
  const verify = workload?.verify && canVerify(workers, workload.mix);
  if (workload?.verify && !verify) {
    emit({
      type: 'notice',
      message: `the written values are not read back after the run: ${workers} workers write side by side, ` +
        'and no one of them knows the order their writes to a key landed in',
    });
  }
  // What a worker thread needs to make its own workload of each target.
  const workerWorkload = (target) => workload && {
    key: target.url, spec: workload, basePath: new URL(target.url).pathname, token,
  };
  // Direct mode: what a worker thread needs to open its own connection to the target's store
  // (the resolved connection the prober's thread uses too); null for memory, which has no server.
  const workerTarget = ({ probeTarget, engineLoad }) => {
    if (probeTarget?.kind !== 'direct') return null;
    const { store, connections, settings: storeSettings, valueShape } = probeTarget;
    const key = engineLoad?.key === undefined ? {} : { key: engineLoad.key };
    return { store, connections, settings: storeSettings, valueShape, ...key };
  };
  // Per target: its steps, its workload runner (one per target: same seed, same sequence), its
  // load phase's figures and its idle probe, kept across the interleaved schedule.
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
    state,
    steps: [],
    measure,
    loadRecords: loadWith,
    verifyWrites: verifyWith,
    emit,
    present,
  };
}

// A sweep given no monitor knows only its URLs: a loopback target's listener is the app, and
// no store server is known.
function defaultMonitor(urls) {
  const tiers = createTierSampler(planTiers({ appUrls: urls, services: new Map() }));
  return machineMonitorFor(urls, { tiers });
}

/**
 * Whether written values can be read back after a run of `workers` threads with this mix
 * ([{ operation }]): not when several threads write (why: prepareSweep above).
 */
export const canVerify = (workers, mix) => workers <= 1 || mix.every(({ operation }) => operation === 'read');
