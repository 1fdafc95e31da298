// The phases of a sweep, in order: load (key-space workloads), warm-up, the measured steps,
// each target's read-back, the control. Each reports through sweep.emit.
import {
  DRIFT_TOLERANCE, driftWarnings, honestyWarnings, loadWarnings, verificationWarnings, warmupWarnings,
} from '../result/honesty.js';
import { failedStep } from '../result/ranking.js';
import { machineWarnings, threadTicks } from './machine-load.js';
import { bottleneckOf } from '../result/bottleneck.js';
import { warmUpToSteady } from './warmup.js';
import { WARMUP_WINDOW_SECONDS } from '../config/run-defaults.js';
import { redactUrl } from '../util/redact.js';
import { PROFILE_INTERVAL_US } from './profile.js';
import { profileFileName, profileRecord } from '../result/profile.js';

const OPEN_MODEL_WARMUP_CONCURRENCY = 10;
const MICROS_PER_TICK = 10_000; // /proc's clock ticks, 100 a second on Linux
// The priming is N requests or this long, whichever comes first: 500 requests take 0.2 s on a
// fast store and could take a minute on a slow one.
const PRIME_MAX_SECONDS = 2;
// An open-model warm-up window holds at least this many requests (a window of 0.25 s at
// 2 rps would hold none).
const OPEN_MODEL_WINDOW_REQUESTS = 20;
const APP_WARMUP_WINDOW_SECONDS = 0.5;
const APP_WARMUP_MIN_WINDOWS = 4;

/** What a load record, a read-back or a step keeps of a target: for showing, so no password. */
export const shownOf = (target) => ({ url: redactUrl(target.url), store: target.store });

/** The priming's clients: the sweep's highest concurrency, or a fixed few in the open model. */
export const primeConcurrency = (settings) =>
  (settings.rps ? OPEN_MODEL_WARMUP_CONCURRENCY : Math.max(...settings.concurrency));

export const steadyWindowSeconds = (load) =>
  (load.rps ? Math.max(WARMUP_WINDOW_SECONDS, OPEN_MODEL_WINDOW_REQUESTS / load.rps) : WARMUP_WINDOW_SECONDS);

/**
 * A measured step as the Result keeps it: the step's `figures` with what it was a step of.
 * `pipeline` is kept because Little's law counts c x pipeline in flight; `monitor` makes the
 * step's `tiers` and `bottleneck`.
 */
export function stepRecord(figures, {
  target, shown, workload, repeat, warmup, machine, probe, runLoad, engine, pipeline, tiers = null, monitor = null,
}) {
  const cpus = monitor?.tierSampler?.cpus ?? monitor?.cpus ?? null;
  const record = {
    ...figures,
    url: shown.url,
    store: target.store,
    key: target.key,
    ...(target.framework ? { framework: target.framework } : {}),
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
      ...machineWarnings(machine, { cpus }),
    ],
  };
  record.tiers = stepTiers(figures, tiers);
  record.bottleneck = bottleneckOf(record, { cpus, appWorkersFlag: monitor?.tierSampler?.appWorkersFlag ?? null });
  return record;
}

/**
 * A step's `tiers`: the driver's from its own figures, the app's and servers' as the monitor
 * read them. Over HTTP with nothing read the app has null figures; direct mode has no app.
 */
export function stepTiers(figures, read) {
  // The driver's CPU seconds over its responses (cpuPercent is over the step's own clock, not elapsedSeconds).
  const { cpuSeconds } = figures;
  const driver = {
    cpuPercent: figures.cpuPercent,
    microsPerResponse: figures.responses > 0 && cpuSeconds > 0 ? (cpuSeconds * 1e6) / figures.responses : null,
    threads: figures.workers?.length || 1,
  };
  const unmeasuredApp = {
    cpuPercent: null,
    microsPerResponse: null,
    processes: null,
    cores: null,
    busiestPercent: null,
    detail: null,
    source: null,
  };
  const app = figures.mode === 'direct' ? null : read?.app ?? unmeasuredApp;
  return { driver, app, servers: read?.servers ?? [] };
}

/** The control as the Result keeps it: the first step again, and how far its rate drifted. */
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

/** Warm-up, counted nowhere: the app as a whole, then every target once (the priming). */
export async function warmupPhase(sweep) {
  const { settings, schedule, total, emit, present } = sweep;
  if (!(settings.warmup > 0)) return;
  const concurrency = primeConcurrency(settings);
  // A fresh app.js needs about 2 s of load before its request path runs at speed
  // (docs/measurement.md), longer than any one target's warm-up waits.
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

/** Measure: one step after its steady-state warm-up, with the monitor (and probe) around it. */
async function measurePhase(sweep, target, load, { repeat, probing: withProbe }) {
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

async function verifyPhase(sweep, target) {
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

/** The steps in the schedule's order; the control's target's read-back waits for the control. */
export async function stepsPhase(sweep) {
  const { schedule, total, repeats, probe, emit, present } = sweep;
  for (const [position, { target, load, repeat, first, last }] of schedule.entries()) {
    const own = sweep.state.get(target);
    if (probe) {
      await probe.use(target.probeTarget);
      if (first) own.idleProbe = await probe.idle();
    }
    const shownLoad = repeats > 1 ? { ...load, repeat, repeats } : load;
    emit({ type: 'step', index: position + 1, total, target: present(target), load: shownLoad });
    const step = await measurePhase(sweep, target, load, { repeat, probing: true });
    if (sweep.profiler && repeat === 1) step.profile = await profilePhase(sweep, target, load, step);
    sweep.steps.push(step);
    own.steps.push(step);
    emit({ type: 'step-done', step });
    if (last && !(sweep.hasControl && target === schedule[0].target)) await verifyPhase(sweep, target);
  }
}

/** The control: the first step again, after every other, so a drift of the machine shows. */
export async function controlPhase(sweep) {
  if (!sweep.hasControl) return null;
  const [{ target, load }] = sweep.schedule;
  const { total } = sweep;
  sweep.emit({ type: 'step', index: total, total, target: sweep.present(target), load: { ...load, control: true } });
  if (sweep.probe) await sweep.probe.use(target.probeTarget);
  const step = await measurePhase(sweep, target, load, { repeat: 1, probing: true });
  const control = controlRecord(sweep.steps[0], step, load);
  await verifyPhase(sweep, target);
  return control;
}

/**
 * --profile: the step again, with a CPU profile of every app process around it, right after the
 * measured one (which is never profiled). Resolves to the step's `profile`; the raw profiles go
 * out in a `profile` event, for the caller to keep as files. Each process's main thread's CPU is
 * read from /proc as well (where the app runs here): what its samples are scaled to.
 */
async function profilePhase(sweep, target, load, step) {
  const { settings, profiler } = sweep;
  const started = await profiler.start();
  const mainThreads = () => started.map(({ pid }) => threadTicks(pid));
  const before = mainThreads();
  const sample = sweep.monitor.start();
  let figures;
  let processes;
  let after;
  try {
    figures = await sweep.measure(target, load, {
      maxRequests: load.maxRequests ?? settings.requests,
      durationSeconds: settings.duration,
    });
  } finally {
    after = mainThreads();
    sample.stop();
    processes = await profiler.stop();
  }
  const tiers = await sample.tiers?.(figures.responses, target.store) ?? null;
  const ticks = before.map((ticks, i) => (ticks === null || after[i] === null ? null : after[i] - ticks));
  const mainThreadMicros = ticks.includes(null) ? null : ticks.reduce((sum, n) => sum + n, 0) * MICROS_PER_TICK;
  const files = processes.map((one) => profileFileName(step, one));
  sweep.emit({ type: 'profile', step: { url: step.url, store: step.store, key: step.key }, processes, files });
  return profileRecord({ processes, figures, step, tiers, files, mainThreadMicros, intervalUs: PROFILE_INTERVAL_US });
}
