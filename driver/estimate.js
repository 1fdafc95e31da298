// How long a sweep will take, said before it starts: a default `node test` runs for minutes.
import { WARMUP_WINDOW_SECONDS } from './warmup.js';

// What a warm-up usually takes here (docs/measurement.md): three windows before a step on
// average (two at least, more while the machine is noisy: 2.9 in a 36-step run), a few more
// before a target's first; the priming about half a second a target.
const STEADY_WINDOWS = 3;
const FIRST_STEP_EXTRA_WINDOWS = 2;
const PRIMING_SECONDS = 0.5;
const APP_WARMUP_SECONDS = 2.5;

/**
 * The seconds a sweep of `targets` URLs at `levels` load levels should take with `settings`
 * (the Result's), warm-ups and the control included, the app's start not; null when the
 * steps are counted (-n), not timed, so their length depends on the target's speed.
 */
export function estimateRunSeconds({ settings, targets, levels }) {
  if (!settings.duration) return null;
  const warming = settings.warmup > 0;
  const steadyWarmup = warming && settings.warmupMaxSeconds > 0 ? STEADY_WINDOWS * WARMUP_WINDOW_SECONDS : 0;
  const steps = targets * levels * (settings.repeat ?? 1);
  const control = settings.control !== false && (settings.repeat ?? 1) === 1 && steps > 1 ? 1 : 0;
  const perStep = settings.duration + steadyWarmup;
  const perTarget = (warming ? PRIMING_SECONDS : 0) +
    (steadyWarmup ? FIRST_STEP_EXTRA_WINDOWS * WARMUP_WINDOW_SECONDS : 0);
  const app = steadyWarmup ? APP_WARMUP_SECONDS : 0;
  return app + (steps + control) * perStep + targets * perTarget;
}
