// The sweep: for each target URL a warm-up, then one measured step per concurrency (or per
// rate in the open model). Steps run one after another, never overlapping. With a key-space
// workload (docs/workloads.md) each target is a store: its records are loaded first (the load
// phase), every request of its warm-up and steps is what the workload says, and after its
// last step a sample of what it wrote is read back (the verification).
import { httpEngine } from './engines/http.js';
import { createStepRunner } from './workers.js';
import { honestyWarnings, loadWarnings, verificationWarnings } from './honesty.js';
import { redactUrl } from '../util/redact.js';
// Repeats and the machine's load (issue 12)
import { planSchedule } from './repeat.js';
import { machineMonitorFor, machineWarnings } from './machine-load.js';
import { createWorkload } from './workloads/workload.js';
import { loadRecords } from './workloads/load.js';
import { verifyWrites } from './workloads/verify.js';

const OPEN_MODEL_WARMUP_CONCURRENCY = 10;
// A warm-up is N requests or this long, whichever comes first: 500 requests take 0.2 s on a
// fast store and could take a minute on a slow one.
export const WARMUP_MAX_SECONDS = 2;

/** The loads to run against each target: [{concurrency}] or, with --rps, [{rps}]. */
export function planLoads({ concurrency, rps }) {
  return rps ? rps.map((rate) => ({ rps: rate })) : concurrency.map((c) => ({ concurrency: c }));
}

/** The workload a key-space run sends to `target` (a fresh one per target: same seed, same sequence), or null. */
export function workloadFor(target, workload, token) {
  if (!workload) return null;
  return createWorkload(workload, { basePath: new URL(target.url).pathname, token });
}

/**
 * Runs every load against every target with `engine`. Calls onStep(index, total, target, load)
 * before each step (and each warm-up), onStepDone(step) after each step and
 * onTargetDone(target, steps, { load, verification }) once a target's steps are all done;
 * resolves to the steps. An abort signal rejects with StepAborted. With settings.repeat N,
 * each step runs N times, interleaved across the targets (driver/repeat.js); `machine`
 * samples the machine's load around each step (driver/machine-load.js).
 *
 * `workload` (null for the seeded reads) is { name, mix, distribution, records, valueSize,
 * seed, load, verify }; `token` the write token. A key-space target also calls
 * onLoad(target, progress) as its records load ({ done, total, bytes }), onLoadDone(load)
 * and onVerifyDone(verification), before its first and after its last step.
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
} = {}) {
  const stepRunner = createStepRunner({ workers: settings.workers ?? 1, engine, onNotice });
  try {
    return await sweep(targets, settings, { loadPhase, verifyPhase, workload, token, onStep, onStepDone, onTargetDone, onLoad, onLoadDone, onVerifyDone, onNotice, signal, machine, probe, stepRunner });
  } finally {
    await stepRunner.close();
  }
}

async function sweep(targets, settings, { loadPhase, verifyPhase, workload, token, onStep, onStepDone, onTargetDone, onLoad, onLoadDone, onVerifyDone, onNotice, signal, machine, probe, stepRunner }) {
  const loads = planLoads(settings);
  const repeats = settings.repeat ?? 1;
  const schedule = planSchedule(targets, loads, repeats);
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
  // Per target: its steps, its workload runner (one per target: same seed, same sequence) and
  // its load phase's figures, kept across the interleaved schedule.
  const state = new Map(targets.map((target) => [target, { steps: [], runner: workloadFor(target, workload, token), load: null }]));
  for (const [position, { target, load, repeat, first, last }] of schedule.entries()) {
    const index = position + 1;
    const shown = { url: redactUrl(target.url), store: target.store };
    const own = state.get(target);
    const { runner } = own;
    if (first && runner && workload.load) {
      onLoad(target, { done: 0, total: runner.records, bytes: 0 });
      const figures = await loadPhase({ url: target.url, store: target.store, workload: runner, token, timeoutMs: settings.timeoutMs, signal, onProgress: (progress) => onLoad(target, progress) });
      const { refused, ...kept } = figures;
      own.load = { ...shown, ...kept, warnings: loadWarnings(figures) };
      onLoadDone(own.load);
    }
    if (first && settings.warmup > 0) {
      onStep(index, total, target, { warmup: settings.warmup });
      const concurrency = settings.rps ? OPEN_MODEL_WARMUP_CONCURRENCY : Math.max(...settings.concurrency);
      await stepRunner.measure({ ...target.engineLoad, ...common, url: target.url, concurrency, maxRequests: settings.warmup, durationSeconds: WARMUP_MAX_SECONDS, workload: runner }, { workload: workerWorkload(target), target: workerTarget(target) });
    }
    // --probe: the target's idle latency once, before its first step; then under each step's load.
    if (probe) {
      await probe.use(target.probeTarget);
      if (first) own.idleProbe = await probe.idle();
    }
    onStep(index, total, target, repeats > 1 ? { ...load, repeat, repeats } : load);
    const sample = monitor.start();
    const probing = probe?.underLoad();
    let figures;
    try {
      figures = await stepRunner.measure({
        ...target.engineLoad,
        ...common,
        url: target.url,
        concurrency: load.concurrency,
        rps: load.rps,
        maxRequests: settings.requests,
        durationSeconds: settings.duration,
        workload: runner,
      }, { workload: workerWorkload(target), target: workerTarget(target) });
    } catch (error) {
      await probing?.end().catch(() => {});
      throw error;
    }
    const underLoad = probing ? await probing.end() : null;
    const machineLoad = sample.stop();
    // What a step keeps of its URL is for showing: a password in it never leaves the driver.
    const step = {
      ...figures,
      url: shown.url,
      store: target.store,
      key: target.key,
      workload: workload?.name ?? null,
      repeat,
      machine: machineLoad,
      probe: probe ? { thread: probe.thread, idle: own.idleProbe, underLoad, error: probe.error } : null,
      machines: null, // a merged step's machines (node test merge)
      warnings: [...honestyWarnings(figures, { engine: settings.engine }), ...machineWarnings(machineLoad)],
    };
    steps.push(step);
    own.steps.push(step);
    onStepDone(step);
    if (!last) continue;
    let verification = null;
    if (runner && verify && (own.load || runner.wrote() > 0)) {
      const verified = await verifyPhase({ url: target.url, store: target.store, workload: runner, token, timeoutMs: settings.timeoutMs, signal });
      verification = { ...shown, ...verified, warnings: verificationWarnings(verified) };
      onVerifyDone(verification);
    }
    onTargetDone(target, own.steps, { load: own.load, verification });
  }
  return steps;
}

/**
 * Whether written values can be read back after a run of `workers` threads with this mix
 * ([{ operation }]): not when several threads write (why: runSweep above).
 */
export const canVerify = (workers, mix) => workers <= 1 || mix.every(({ operation }) => operation === 'read');
