// The sweep: for each target URL a warm-up, then one measured step per concurrency (or per
// rate in the open model). Steps run one after another, never overlapping.
import { measureStep } from './step.js';
import { httpEngine } from './engines/http.js';
import { honestyWarnings } from './honesty.js';
import { redactUrl } from '../util/redact.js';

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
 * abort signal rejects with StepAborted.
 */
export async function runSweep(targets, settings, { engine = httpEngine, onStep = () => {}, onStepDone = () => {}, onTargetDone = () => {}, signal } = {}) {
  const loads = planLoads(settings);
  const total = targets.length * loads.length;
  const common = { keepAlive: settings.keepAlive, timeoutMs: settings.timeoutMs, signal };
  const steps = [];
  let index = 0;
  for (const target of targets) {
    if (settings.warmup > 0) {
      onStep(index + 1, total, target, { warmup: settings.warmup });
      const concurrency = settings.rps ? OPEN_MODEL_WARMUP_CONCURRENCY : Math.max(...settings.concurrency);
      await measureStep(engine, { ...common, url: target.url, concurrency, maxRequests: settings.warmup, durationSeconds: WARMUP_MAX_SECONDS });
    }
    const targetSteps = [];
    for (const load of loads) {
      index += 1;
      onStep(index, total, target, load);
      const figures = await measureStep(engine, {
        ...common,
        url: target.url,
        concurrency: load.concurrency,
        rps: load.rps,
        maxRequests: settings.requests,
        durationSeconds: settings.duration,
      });
      // What a step keeps of its URL is for showing: a password in it never leaves the driver.
      const step = { ...figures, url: redactUrl(target.url), store: target.store, key: target.key, warnings: honestyWarnings(figures) };
      steps.push(step);
      targetSteps.push(step);
      onStepDone(step);
    }
    onTargetDone(target, targetSteps);
  }
  return steps;
}
