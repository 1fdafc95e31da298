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
import { DRIFT_TOLERANCE, driftWarnings, honestyWarnings, loadWarnings, verificationWarnings, warmupWarnings } from '../result/honesty.js';
import { redactUrl } from '../util/redact.js';
import { orderOf, planSchedule } from './schedule.js';
import { machineMonitorFor, machineWarnings } from './machine-load.js';
import { createWorkload } from './workloads/workload.js';
import { loadRecords } from './workloads/load.js';
import { verifyWrites } from './workloads/verify.js';
import { WARMUP_MAX_SECONDS as STEADY_MAX_SECONDS, WARMUP_WINDOW_SECONDS, warmUpToSteady } from './warmup.js';
import { partLoads } from './parts.js';

const OPEN_MODEL_WARMUP_CONCURRENCY = 10;
// The priming is N requests or this long, whichever comes first: 500 requests take 0.2 s on a
// fast store and could take a minute on a slow one.
export const WARMUP_MAX_SECONDS = 2;
// An open-model warm-up window holds at least this many requests (a window of 0.25 s at
// 2 rps would hold none).
const OPEN_MODEL_WINDOW_REQUESTS = 20;
// The app's own warm-up before the priming (above): windows and the least it runs.
const APP_WARMUP_WINDOW_SECONDS = 0.5;
const APP_WARMUP_MIN_WINDOWS = 4;

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
 * (settings.order, settings.orderSeed, settings.repeat). Calls onStep(index, total, target,
 * load) before each step (and, with `load.warmup`, before the priming), onStepDone(step)
 * after each step and onTargetDone(target, steps, { load, verification }) once the run's steps
 * are all done, per target; resolves to { steps, order, control }: order as the Result keeps
 * it, control the first step measured again at the end (null with repeats or with one step).
 * An abort signal rejects with StepAborted. `machine` samples the machine's load around each
 * step (driver/machine-load.js).
 *
 * settings.warmup N primes every target with N requests once, before the first step (0: no
 * warm-up of any kind); settings.warmupMaxSeconds caps each step's steady-state warm-up (0:
 * none).
 *
 * `workload` (null for the seeded reads) is { name, mix, distribution, records, valueSize,
 * seed, load, verify }; `token` the write token. A key-space target also calls
 * onLoad(target, progress) as its records load ({ done, total, bytes }), onLoadDone(load)
 * and onVerifyDone(verification).
 *
 * settings.workers N (default 1) runs each step and warm-up in N worker threads
 * (driver/workers.js); onNotice(text) hears what the run should say about that.
 *
 * Direct mode (--direct) passes its own `engine`, `loadRecords` and `verifyWrites` (called
 * with the HTTP ones' arguments plus `store`, the target's store name), and its targets carry
 * `engineLoad`, what its engine needs in each step's load (the Store and key).
 */
export async function runSweep(targets, settings, {
  engine = httpEngine,
  loadRecords: loadPhase = loadRecords,
  verifyWrites: verifyPhase = verifyWrites,
  workload = null,
  token = null,
  onStep = () => {},
  onStepDone = () => {},
  onTargetDone = () => {},
  onLoad = () => {},
  onLoadDone = () => {},
  onVerifyDone = () => {},
  onNotice = () => {},
  signal,
  machine,
  probe = null,
  beforeSteps = null,
} = {}) {
  const stepRunner = createStepRunner({ workers: settings.workers ?? 1, engine, onNotice });
  try {
    return await sweep(targets, settings, { loadPhase, verifyPhase, workload, token, onStep, onStepDone, onTargetDone, onLoad, onLoadDone, onVerifyDone, onNotice, signal, machine, probe, stepRunner, beforeSteps });
  } finally {
    await stepRunner.close();
  }
}

async function sweep(targets, settings, { loadPhase, verifyPhase, workload, token, onStep, onStepDone, onTargetDone, onLoad, onLoadDone, onVerifyDone, onNotice, signal, machine, probe, stepRunner, beforeSteps }) {
  const loads = planLoads(settings);
  const repeats = settings.repeat ?? 1;
  const schedule = planSchedule(targets, loads, { repeat: repeats, order: settings.order, seed: settings.orderSeed ?? null });
  const total = schedule.length;
  const common = { keepAlive: settings.keepAlive, timeoutMs: settings.timeoutMs, signal };
  const monitor = machine ?? machineMonitorFor(targets.map((target) => target.url));
  const steps = [];
  // Several workers each send their own requests and keep their own record of what they
  // wrote: writes to one key from two workers can land in any order unseen, so the read-back
  // cannot be made sound across them (docs/workloads.md).
  const workers = settings.workers ?? 1;
  const verify = workload?.verify && canVerify(workers, workload.mix);
  if (workload?.verify && !verify) onNotice(`the written values are not read back after the run: ${workers} workers write side by side, and no one of them knows the order their writes to a key landed in`);
  // What a worker thread needs to make its own workload of each target.
  const workerWorkload = (target) => workload && { key: target.url, spec: workload, basePath: new URL(target.url).pathname, token };
  // Direct mode: what a worker thread needs to open its own connection to the target's store
  // (the resolved connection the prober's thread uses too); null for memory, which has no server.
  const workerTarget = ({ probeTarget, engineLoad }) => (probeTarget?.kind === 'direct'
    ? { store: probeTarget.store, connections: probeTarget.connections, settings: probeTarget.settings, valueShape: probeTarget.valueShape, ...(engineLoad?.key === undefined ? {} : { key: engineLoad.key }) }
    : null);
  const shownOf = (target) => ({ url: redactUrl(target.url), store: target.store });
  // Per target: its steps, its workload runner (one per target: same seed, same sequence) and
  // its load phase's figures, kept across the interleaved schedule.
  const state = new Map(targets.map((target) => [target, { steps: [], runner: workloadFor(target, workload, token), load: null }]));
  const measure = (target, load, extra) => stepRunner.measure({
    ...target.engineLoad,
    ...common,
    url: target.url,
    concurrency: load.concurrency,
    rps: load.rps,
    workload: state.get(target).runner,
    ...extra,
  }, { workload: workerWorkload(target), target: workerTarget(target) });

  // The load phase of every key-space target, before any request is timed.
  for (const target of targets) {
    const own = state.get(target);
    if (!own.runner || !workload.load) continue;
    onLoad(target, { done: 0, total: own.runner.records, bytes: 0 });
    const figures = await loadPhase({ url: target.url, store: target.store, workload: own.runner, token, timeoutMs: settings.timeoutMs, signal, onProgress: (progress) => onLoad(target, progress) });
    const { refused, ...kept } = figures;
    own.load = { ...shownOf(target), ...kept, warnings: loadWarnings(figures) };
    onLoadDone(own.load);
  }
  // The priming: every target once, in the order of the first round, before the first step.
  const steadyMax = settings.warmup > 0 ? settings.warmupMaxSeconds ?? STEADY_MAX_SECONDS : 0;
  if (settings.warmup > 0) {
    const primeConcurrency = settings.rps ? OPEN_MODEL_WARMUP_CONCURRENCY : Math.max(...settings.concurrency);
    // First the app process as a whole: a fresh app.js needs about 2 s of load before its request
    // path runs at speed (docs/measurement.md), longer than any one target's warm-up waits. Its
    // first target at the highest load, in half-second windows, until steady and 2 s at least.
    if (steadyMax > 0 && schedule.length) {
      const [{ target }] = schedule;
      onStep(1, total, target, { warmup: 'app' });
      await warmUpToSteady((seconds) => measure(target, { concurrency: primeConcurrency }, { durationSeconds: seconds }), {
        windowSeconds: APP_WARMUP_WINDOW_SECONDS, minWindows: APP_WARMUP_MIN_WINDOWS, maxSeconds: Math.max(steadyMax, APP_WARMUP_MIN_WINDOWS * APP_WARMUP_WINDOW_SECONDS),
      });
    }
    for (const { target, first } of schedule) {
      if (!first) continue;
      onStep(1, total, target, { warmup: settings.warmup });
      await measure(target, { concurrency: primeConcurrency }, { maxRequests: settings.warmup, durationSeconds: WARMUP_MAX_SECONDS });
    }
  }
  // --start-at: every part waits here, prepared, for the same instant.
  if (beforeSteps) await beforeSteps();
  // One step of `load` against `target`, after its steady-state warm-up: the step's figures and
  // warnings, as the Result keeps a step.
  const runStep = async (target, load, { repeat, probing: withProbe }) => {
    const own = state.get(target);
    let warmup = null;
    if (steadyMax > 0) {
      const windowSeconds = load.rps ? Math.max(WARMUP_WINDOW_SECONDS, OPEN_MODEL_WINDOW_REQUESTS / load.rps) : WARMUP_WINDOW_SECONDS;
      const settledAt = await warmUpToSteady((seconds) => measure(target, load, { durationSeconds: seconds }), { windowSeconds, maxSeconds: Math.max(steadyMax, 2 * windowSeconds) });
      warmup = { seconds: settledAt.seconds, windows: settledAt.windows, steady: settledAt.steady, speeds: settledAt.speeds };
    }
    const sample = monitor.start();
    const probing = withProbe ? probe?.underLoad() : null;
    let figures;
    try {
      figures = await measure(target, load, { maxRequests: load.maxRequests ?? settings.requests, durationSeconds: settings.duration });
    } catch (error) {
      await probing?.end().catch(() => {});
      throw error;
    }
    const underLoad = probing ? await probing.end() : null;
    const machineLoad = sample.stop();
    const shown = shownOf(target);
    // What a step keeps of its URL is for showing: a password in it never leaves the driver.
    return {
      ...figures,
      url: shown.url,
      store: target.store,
      key: target.key,
      workload: workload?.name ?? null,
      repeat,
      warmup: warmup && { seconds: warmup.seconds, windows: warmup.windows, steady: warmup.steady },
      machine: machineLoad,
      probe: withProbe && probe ? { thread: probe.thread, idle: own.idleProbe, underLoad, error: probe.error } : null,
      machines: null, // a merged step's machines (node test merge)
      ...(load.runLoad === undefined ? {} : { runLoad: load.runLoad }), // --part: the run's level
      warnings: [...honestyWarnings(figures, { engine: settings.engine }), ...warmupWarnings(warmup), ...machineWarnings(machineLoad)],
    };
  };

  const hasControl = settings.control !== false && repeats === 1 && schedule.length > 1;
  // A target's read-back (a key-space workload that wrote) and its done event.
  const finishTarget = async (target) => {
    const own = state.get(target);
    let verification = null;
    if (own.runner && verify && (own.load || own.runner.wrote() > 0)) {
      const verified = await verifyPhase({ url: target.url, store: target.store, workload: own.runner, token, timeoutMs: settings.timeoutMs, signal });
      verification = { ...shownOf(target), ...verified, warnings: verificationWarnings(verified) };
      onVerifyDone(verification);
    }
    onTargetDone(target, own.steps, { load: own.load, verification });
  };

  for (const [position, { target, load, repeat, first, last }] of schedule.entries()) {
    const own = state.get(target);
    // --probe: the target's idle latency once, before its first step; then under each step's load.
    if (probe) {
      await probe.use(target.probeTarget);
      if (first) own.idleProbe = await probe.idle();
    }
    onStep(position + 1, total, target, repeats > 1 ? { ...load, repeat, repeats } : load);
    const step = await runStep(target, load, { repeat, probing: true });
    steps.push(step);
    own.steps.push(step);
    onStepDone(step);
    // Its table as soon as its last step is done; the control's target waits for the control.
    if (last && !(hasControl && target === schedule[0].target)) await finishTarget(target);
  }

  // The control: the first step again, now that every other has run.
  let control = null;
  if (hasControl) {
    const [{ target, load }] = schedule;
    onStep(total, total, target, { ...load, control: true });
    const step = await runStep(target, load, { repeat: 1, probing: false });
    const before = steps[0];
    const drift = before.rps > 0 ? (step.rps - before.rps) / before.rps : 0;
    control = {
      url: step.url,
      store: step.store,
      key: step.key,
      load: load.rps ?? load.concurrency,
      rpsBefore: before.rps,
      rpsAfter: step.rps,
      drift,
      tolerance: DRIFT_TOLERANCE,
      step,
    };
    control.warnings = driftWarnings(control);
    await finishTarget(target);
  }
  return { steps, order: orderOf(schedule, (target) => redactUrl(target.url)), control };
}

/**
 * Whether written values can be read back after a run of `workers` threads with this mix
 * ([{ operation }]): not when several threads write (why: runSweep above).
 */
export const canVerify = (workers, mix) => workers <= 1 || mix.every(({ operation }) => operation === 'read');
