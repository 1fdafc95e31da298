// The sweep: for each target URL a warm-up, then one measured step per concurrency (or per
// rate in the open model). Steps run one after another, never overlapping. With a key-space
// workload (docs/workloads.md) each target is a store: its records are loaded first (the load
// phase), every request of its warm-up and steps is what the workload says, and after its
// last step a sample of what it wrote is read back (the verification).
import { measureStep } from './step.js';
import { httpEngine } from './engines/http.js';
import { honestyWarnings, loadWarnings, verificationWarnings } from './honesty.js';
import { redactUrl } from '../util/redact.js';
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
 * resolves to the steps. An abort signal rejects with StepAborted.
 *
 * `workload` (null for the seeded reads) is { name, mix, distribution, records, valueSize,
 * seed, load, verify }; `token` the write token. A key-space target also calls
 * onLoad(target, progress) as its records load ({ done, total, bytes }), onLoadDone(load)
 * and onVerifyDone(verification).
 */
export async function runSweep(targets, settings, {
  engine = httpEngine,
  workload = null,
  token = null,
  onStep = () => {},
  onStepDone = () => {},
  onTargetDone = () => {},
  onLoad = () => {},
  onLoadDone = () => {},
  onVerifyDone = () => {},
  signal,
} = {}) {
  const loads = planLoads(settings);
  const total = targets.length * loads.length;
  const common = { keepAlive: settings.keepAlive, timeoutMs: settings.timeoutMs, signal };
  const steps = [];
  let index = 0;
  for (const target of targets) {
    const shown = { url: redactUrl(target.url), store: target.store };
    const runner = workloadFor(target, workload, token);
    let load = null;
    if (runner && workload.load) {
      onLoad(target, { done: 0, total: runner.records, bytes: 0 });
      const figures = await loadRecords({ url: target.url, workload: runner, token, timeoutMs: settings.timeoutMs, signal, onProgress: (progress) => onLoad(target, progress) });
      const { refused, ...kept } = figures;
      load = { ...shown, ...kept, warnings: loadWarnings(figures) };
      onLoadDone(load);
    }
    if (settings.warmup > 0) {
      onStep(index + 1, total, target, { warmup: settings.warmup });
      const concurrency = settings.rps ? OPEN_MODEL_WARMUP_CONCURRENCY : Math.max(...settings.concurrency);
      await measureStep(engine, { ...common, url: target.url, concurrency, maxRequests: settings.warmup, durationSeconds: WARMUP_MAX_SECONDS, workload: runner });
    }
    const targetSteps = [];
    for (const stepLoad of loads) {
      index += 1;
      onStep(index, total, target, stepLoad);
      const figures = await measureStep(engine, {
        ...common,
        url: target.url,
        concurrency: stepLoad.concurrency,
        rps: stepLoad.rps,
        maxRequests: settings.requests,
        durationSeconds: settings.duration,
        workload: runner,
      });
      // What a step keeps of its URL is for showing: a password in it never leaves the driver.
      const step = { ...figures, url: shown.url, store: target.store, key: target.key, workload: workload?.name ?? null, warnings: honestyWarnings(figures) };
      steps.push(step);
      targetSteps.push(step);
      onStepDone(step);
    }
    let verification = null;
    if (runner && workload.verify && (load || runner.wrote() > 0)) {
      const figures = await verifyWrites({ url: target.url, store: target.store, workload: runner, token, timeoutMs: settings.timeoutMs, signal });
      verification = { ...shown, ...figures, warnings: verificationWarnings(figures) };
      onVerifyDone(verification);
    }
    onTargetDone(target, targetSteps, { load, verification });
  }
  return steps;
}
