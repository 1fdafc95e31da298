// Warming a target up to a steady state: windows at the step's own load until one is no faster
// than the last. Not a two-sided 5% test: two warm quarter-second windows here differ by 10-40%
// either way (docs/measurement.md), so every step would run to the cap.
// Its defaults are argued from measurements in docs/measurement.md.
import { WARMUP_MAX_SECONDS, WARMUP_TOLERANCE, WARMUP_WINDOW_SECONDS } from '../config/run-defaults.js';

/** A window's speed: rps in the closed loop, 1 / mean latency in the open model; null with no response. */
export function windowSpeed(figures) {
  if (!figures.responses) return null;
  if (figures.model === 'open') return figures.latency.meanMs > 0 ? 1000 / figures.latency.meanMs : null;
  return figures.rps;
}

/** Whether `last` is no faster than `previous` by more than `tolerance` (a fraction): the rise has ended. */
export const settled = (previous, last, tolerance) =>
  previous !== null && last !== null && last <= previous * (1 + tolerance);

/**
 * Runs windows until two consecutive ones settle or `maxSeconds` have run: { seconds, windows,
 * steady, speeds }. A window with no response ends it unsettled: failures warm nothing up.
 */
export async function warmUpToSteady(runWindow, {
  windowSeconds = WARMUP_WINDOW_SECONDS,
  tolerance = WARMUP_TOLERANCE,
  maxSeconds = WARMUP_MAX_SECONDS,
  minWindows = 2,
} = {}) {
  const speeds = [];
  let seconds = 0;
  const windows = Math.max(2, Math.round(maxSeconds / windowSeconds));
  for (let index = 0; index < windows; index += 1) {
    const figures = await runWindow(windowSeconds);
    seconds += figures.elapsedSeconds ?? windowSeconds;
    const speed = windowSpeed(figures);
    speeds.push(speed);
    if (speed === null) return { seconds, windows: speeds.length, steady: false, speeds };
    if (speeds.length >= minWindows && settled(speeds.at(-2), speed, tolerance)) {
      return { seconds, windows: speeds.length, steady: true, speeds };
    }
  }
  return { seconds, windows: speeds.length, steady: false, speeds };
}
