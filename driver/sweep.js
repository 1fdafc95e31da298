// The sweep: for each target URL a warm-up, then one measured step per concurrency (or per
// rate in the open model). Steps run one after another, never overlapping.
import { measureStep } from './step.js';
import { httpEngine } from './engines/http.js';
import { honestyWarnings } from './honesty.js';
import { redactUrl } from '../util/redact.js';
// Repeats and the machine's load (issue 12)
import { planSchedule } from './repeat.js';
import { machineMonitorFor, machineWarnings } from './machine-load.js';

const OPEN_MODEL_WARMUP_CONCURRENCY = 10;
// A warm-up is N requests or this long, whichever comes first: 500 requests take 0.2 s on a
// fast store and could take a minute on a slow one.
export const WARMUP_MAX_SECONDS = 2;

/** The loads to run against each target: [{concurrency}] or, with --rps, [{rps}]. */
export function planLoads({ concurrency, rps }) {
  return rps ? rps.map((rate) => ({ rps: rate })) : concurrency.map((c) => ({ concurrency: c }));
}

/**
 * Runs every load against every target with `engine`. Calls onStep(index, total, target, load)
 * before each step (and each warm-up), onStepDone(step) after each step and
 * onTargetDone(target, steps) once a target's steps are all done; resolves to the steps. An
 * abort signal rejects with StepAborted. With settings.repeat N, each step runs N times,
 * interleaved across the targets (driver/repeat.js); `machine` samples the machine's load
 * around each step (driver/machine-load.js).
 */
export async function runSweep(targets, settings, { engine = httpEngine, onStep = () => {}, onStepDone = () => {}, onTargetDone = () => {}, signal, machine } = {}) {
  const loads = planLoads(settings);
  const repeats = settings.repeat ?? 1;
  const schedule = planSchedule(targets, loads, repeats);
  const total = schedule.length;
  const common = { keepAlive: settings.keepAlive, timeoutMs: settings.timeoutMs, signal };
  const monitor = machine ?? machineMonitorFor(targets.map((target) => target.url));
  const steps = [];
  const stepsOf = new Map(targets.map((target) => [target, []]));
  for (const [position, { target, load, repeat, first, last }] of schedule.entries()) {
    const index = position + 1;
    if (first && settings.warmup > 0) {
      onStep(index, total, target, { warmup: settings.warmup });
      const concurrency = settings.rps ? OPEN_MODEL_WARMUP_CONCURRENCY : Math.max(...settings.concurrency);
      await measureStep(engine, { ...common, url: target.url, concurrency, maxRequests: settings.warmup, durationSeconds: WARMUP_MAX_SECONDS });
    }
    onStep(index, total, target, repeats > 1 ? { ...load, repeat, repeats } : load);
    const sample = monitor.start();
    const figures = await measureStep(engine, {
      ...common,
      url: target.url,
      concurrency: load.concurrency,
      rps: load.rps,
      maxRequests: settings.requests,
      durationSeconds: settings.duration,
    });
    const machineLoad = sample.stop();
    // What a step keeps of its URL is for showing: a password in it never leaves the driver.
    const step = {
      ...figures,
      url: redactUrl(target.url),
      store: target.store,
      key: target.key,
      repeat,
      machine: machineLoad,
      warnings: [...honestyWarnings(figures), ...machineWarnings(machineLoad)],
    };
    steps.push(step);
    stepsOf.get(target).push(step);
    onStepDone(step);
    if (last) onTargetDone(target, stepsOf.get(target));
  }
  return steps;
}
