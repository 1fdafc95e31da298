// The phases of a sweep (driver/sweep.js runs them in this order): the load phase of a
// key-space workload, the warm-up (the app's, then every target's priming), the measured steps
// (each after its steady-state warm-up, with the probe and the machine monitor around it), each
// target's read-back of what it wrote, and the control. Each phase takes the sweep's state
// (`sweep`, made by driver/sweep.js) and says what happens through sweep.emit, the one event
// stream runBenchmark forwards as progress (driver/run.js lists the events).
import {
  DRIFT_TOLERANCE, driftWarnings, honestyWarnings, loadWarnings, verificationWarnings, warmupWarnings,
} from '../result/honesty.js';
import { failedStep } from '../result/ranking.js';
import { machineWarnings } from './machine-load.js';
import { bottleneckOf } from '../result/bottleneck.js';
import { WARMUP_WINDOW_SECONDS, warmUpToSteady } from './warmup.js';
import { redactUrl } from '../util/redact.js';

const OPEN_MODEL_WARMUP_CONCURRENCY = 10;
// The priming is N requests or this long, whichever comes first: 500 requests take 0.2 s on a
// fast store and could take a minute on a slow one.
const PRIME_MAX_SECONDS = 2;
// An open-model warm-up window holds at least this many requests (a window of 0.25 s at
// 2 rps would hold none).
const OPEN_MODEL_WINDOW_REQUESTS = 20;
// The app's own warm-up before the priming (above): windows and the least it runs.
const APP_WARMUP_WINDOW_SECONDS = 0.5;
const APP_WARMUP_MIN_WINDOWS = 4;

/** What a load record, a read-back or a step keeps of a target: for showing, so no password. */
export const shownOf = (target) => ({ url: redactUrl(target.url), store: target.store });

/**
 * The cap of each step's steady-state warm-up, in seconds: settings.warmupMaxSeconds (its default
 * is the options table's), or 0 (none) when settings.warmup is 0.
 */
export const steadyMaxSeconds = (settings) => (settings.warmup > 0 ? settings.warmupMaxSeconds : 0);

/** The priming's clients: the sweep's highest concurrency, or a fixed few in the open model. */
export const primeConcurrency = (settings) =>
  (settings.rps ? OPEN_MODEL_WARMUP_CONCURRENCY : Math.max(...settings.concurrency));

/** A steady-state warm-up window at `load`: long enough to hold a few requests at an open model's rate. */
export const steadyWindowSeconds = (load) =>
  (load.rps ? Math.max(WARMUP_WINDOW_SECONDS, OPEN_MODEL_WINDOW_REQUESTS / load.rps) : WARMUP_WINDOW_SECONDS);

/**
 * A measured step as the Result keeps it: the step's `figures` (measureStep's, or the worker
 * threads' added), with what it was a step of. `shown`: the target as shownOf gives it;
 * `warmup`: warmUpToSteady's answer (or null); `machine`: the monitor's figures; `probe`: the
 * probe's figures (or null); `engine`, `pipeline`: the settings' (Little's law counts c x pipeline in flight);
 * `tiers`: the app's and servers' CPU (the monitor's tiers(), or null when it read none) and
 * `monitor` the machine monitor (its cpus, its tier sampler's hint), from which the step's
 * `tiers` and `bottleneck` are made (driverTiers, result/bottleneck.js).
 */
export function stepRecord(figures, {
  target, shown, workload, repeat, warmup, machine, probe, runLoad, engine, pipeline, tiers = null, monitor = null,
}) {
  const record = {
    ...figures,
    url: shown.url,
    store: target.store,
    key: target.key,
    workload: workload?.name ?? null,
    repeat,
    warmup: warmup && { seconds: warmup.seconds, windows: warmup.windows, steady: warmup.steady },
    machine,
    probe,
    machines: null, // a merged step's machines (node test merge)
    ...(runLoad === undefined ? {} : { runLoad }), // --part: the run's level
    warnings: [
      ...honestyWarnings(figures, { engine, pipeline }),
      ...warmupWarnings(warmup),
      ...machineWarnings(machine),
    ],
  };
  record.tiers = stepTiers(figures, tiers);
  record.bottleneck = bottleneckOf(record, {
    cpus: monitor?.tierSampler?.cpus ?? monitor?.cpus ?? null,
    appWorkersFlag: monitor?.tierSampler?.appWorkersFlag ?? null,
  });
  return record;
}

/**
 * A step's `tiers`: the driver's from its own figures (its CPU % over the step, CPU µs per
 * response from that % over the step's elapsed time, its threads), the app's and the servers'
 * as the monitor read them. Over HTTP with nothing read, the app is there with null figures
 * (not measured); in direct mode it is null (no app).
 */
export function stepTiers(figures, read) {
  const cpuSeconds = (figures.cpuPercent / 100) * (figures.elapsedSeconds ?? 0);
  const driver = {
    cpuPercent: figures.cpuPercent,
    microsPerResponse: figures.responses > 0 && cpuSeconds > 0 ? (cpuSeconds * 1e6) / figures.responses : null,
    threads: figures.workers?.length || 1,
  };
  const unmeasuredApp = { cpuPercent: null, microsPerResponse: null, processes: null, cores: null, source: null };
  const app = figures.mode === 'direct' ? null : read?.app ?? unmeasuredApp;
  return { driver, app, servers: read?.servers ?? [] };
}

/**
 * The control as the Result keeps it: `step`, the first step (`before`, at `load`) measured
 * again at the end, and how far its rate drifted (DRIFT warnings past the tolerance).
 */
export function controlRecord(before, step, load) {
  // A step in which no request succeeded has a rate of refusals, not of the store's work: no
  // drift is read from it (a run of 413s once "drifted" +143% and tied every smaller difference).
  const comparable = !failedStep(before) && !failedStep(step);
  const control = {
    url: step.url,
    store: step.store,
    key: step.key,
    load: load.rps ?? load.concurrency,
    rpsBefore: before.rps,
    rpsAfter: step.rps,
    drift: !comparable ? null : before.rps > 0 ? (step.rps - before.rps) / before.rps : 0,
    tolerance: DRIFT_TOLERANCE,
    step,
  };
  return { ...control, warnings: driftWarnings(control) };
}

/** Load: every key-space target's records, before any request is timed ('load', 'load-done'). */
export async function loadPhase(sweep) {
  const { targets, workload, token, settings, signal, emit, present } = sweep;
  for (const target of targets) {
    const own = sweep.state.get(target);
    if (!own.runner || !workload.load) continue;
    const onProgress = (progress) => emit({ type: 'load', target: present(target), ...progress });
    onProgress({ done: 0, total: own.runner.records, bytes: 0 });
    const figures = await sweep.loadRecords({
      url: target.url,
      store: target.store,
      workload: own.runner,
      token,
      timeoutMs: settings.timeoutMs,
      signal,
      onProgress,
    });
    const { refused, ...kept } = figures;
    own.load = { ...shownOf(target), ...kept, warnings: loadWarnings(figures) };
    emit({ type: 'load-done', load: own.load });
  }
}

/**
 * Warm-up: before the first step, the app process as a whole, then every target once (the
 * priming), in the order of the first round ('step' events with `load.warmup`). Nothing of it
 * is counted. settings.warmup 0: none.
 */
export async function warmupPhase(sweep) {
  const { settings, schedule, total, emit, present } = sweep;
  if (!(settings.warmup > 0)) return;
  const concurrency = primeConcurrency(settings);
  // First the app process as a whole: a fresh app.js needs about 2 s of load before its request
  // path runs at speed (docs/measurement.md), longer than any one target's warm-up waits. Its
  // first target at the highest load, in half-second windows, until steady and 2 s at least.
  if (sweep.steadyMax > 0 && schedule.length) {
    const [{ target }] = schedule;
    emit({ type: 'step', index: 1, total, target: present(target), load: { warmup: 'app' } });
    const window = (seconds) => sweep.measure(target, { concurrency }, { durationSeconds: seconds });
    const settled = await warmUpToSteady(window, {
      windowSeconds: APP_WARMUP_WINDOW_SECONDS,
      minWindows: APP_WARMUP_MIN_WINDOWS,
      maxSeconds: Math.max(sweep.steadyMax, APP_WARMUP_MIN_WINDOWS * APP_WARMUP_WINDOW_SECONDS),
    });
    const { seconds, windows, steady, speeds } = settled;
    const warmup = { url: present(target).url, concurrency, seconds, windows, steady, speeds };
    emit({ type: 'app-warmup-done', warmup });
  }
  for (const { target, first } of schedule) {
    if (!first) continue;
    emit({ type: 'step', index: 1, total, target: present(target), load: { warmup: settings.warmup } });
    await sweep.measure(target, { concurrency }, { maxRequests: settings.warmup, durationSeconds: PRIME_MAX_SECONDS });
  }
}

/**
 * Measure: one step of `load` against `target`, after its steady-state warm-up, with the
 * machine monitor around it and, with `probing`, the probe under its load. Resolves to the
 * step as the Result keeps it (stepRecord).
 */
export async function measurePhase(sweep, target, load, { repeat, probing: withProbe }) {
  const { probe, settings } = sweep;
  let warmup = null;
  if (sweep.steadyMax > 0) {
    const windowSeconds = steadyWindowSeconds(load);
    const settledAt = await warmUpToSteady((seconds) => sweep.measure(target, load, { durationSeconds: seconds }), {
      windowSeconds, maxSeconds: Math.max(sweep.steadyMax, 2 * windowSeconds),
    });
    const { seconds, windows, steady, speeds } = settledAt;
    warmup = { seconds, windows, steady, speeds };
  }
  const sample = sweep.monitor.start();
  const probing = withProbe ? probe?.underLoad() : null;
  let figures;
  try {
    figures = await sweep.measure(target, load, {
      maxRequests: load.maxRequests ?? settings.requests,
      durationSeconds: settings.duration,
    });
  } catch (error) {
    await probing?.end().catch(() => {});
    throw error;
  }
  const underLoad = probing ? await probing.end() : null;
  const machine = sample.stop();
  const tiers = await sample.tiers?.(figures.responses, target.store) ?? null;
  return stepRecord(figures, {
    target,
    shown: shownOf(target),
    workload: sweep.workload,
    repeat,
    warmup,
    machine,
    probe: withProbe && probe
      ? { thread: probe.thread, idle: sweep.state.get(target).idleProbe, underLoad, error: probe.error }
      : null,
    runLoad: load.runLoad,
    engine: settings.engine,
    pipeline: settings.pipeline,
    tiers,
    monitor: sweep.monitor,
  });
}

/**
 * Verify: a target's read-back, when its key-space workload wrote ('verify-done'), then its
 * 'target-done' event with its steps.
 */
export async function verifyPhase(sweep, target) {
  const own = sweep.state.get(target);
  let verification = null;
  if (own.runner && sweep.verify && (own.load || own.runner.wrote() > 0)) {
    const { settings, token, signal } = sweep;
    const verified = await sweep.verifyWrites({
      url: target.url, store: target.store, workload: own.runner, token, timeoutMs: settings.timeoutMs, signal,
    });
    verification = { ...shownOf(target), ...verified, warnings: verificationWarnings(verified) };
    sweep.emit({ type: 'verify-done', verification });
  }
  sweep.emit({ type: 'target-done', target: sweep.present(target), steps: own.steps, load: own.load, verification });
}

/**
 * The steps, in the schedule's order ('step', 'step-done'): before a target's first step, its
 * idle probe; after its last, its verify phase, except the control's target, which waits for
 * the control.
 */
export async function stepsPhase(sweep) {
  const { schedule, total, repeats, probe, emit, present } = sweep;
  for (const [position, { target, load, repeat, first, last }] of schedule.entries()) {
    const own = sweep.state.get(target);
    // --probe: the target's idle latency once, before its first step; then under each step's load.
    if (probe) {
      await probe.use(target.probeTarget);
      if (first) own.idleProbe = await probe.idle();
    }
    const shownLoad = repeats > 1 ? { ...load, repeat, repeats } : load;
    emit({ type: 'step', index: position + 1, total, target: present(target), load: shownLoad });
    const step = await measurePhase(sweep, target, load, { repeat, probing: true });
    sweep.steps.push(step);
    own.steps.push(step);
    emit({ type: 'step-done', step });
    if (last && !(sweep.hasControl && target === schedule[0].target)) await verifyPhase(sweep, target);
  }
}

/**
 * The control: the first step again, now that every other has run, so a drift of the machine
 * during the run shows ('step' with `load.control`, then the first target's verify phase).
 * Resolves to controlRecord's figures, or null when the sweep has no control.
 */
export async function controlPhase(sweep) {
  if (!sweep.hasControl) return null;
  const [{ target, load }] = sweep.schedule;
  const { total } = sweep;
  sweep.emit({ type: 'step', index: total, total, target: sweep.present(target), load: { ...load, control: true } });
  // Measured as the step it repeats was: with --probe, probed under its load too.
  if (sweep.probe) await sweep.probe.use(target.probeTarget);
  const step = await measurePhase(sweep, target, load, { repeat: 1, probing: true });
  const control = controlRecord(sweep.steps[0], step, load);
  await verifyPhase(sweep, target);
  return control;
}
