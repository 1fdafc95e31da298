// Warming a target up to a steady state before a step is measured, instead of for a fixed
// count. The load runs in short windows at the step's own load; the warm-up ends when a window
// is no faster than the one before it (within a tolerance), or at a cap. Nothing measured here
// is part of a result: only how long it took and whether it settled.
//
// Why "no faster" and not "the same within 5%": a warming target shows as a rising speed (the
// app's JIT, a pool filling, a server's caches), and that is what the warm-up waits out. On
// this shared VM two quarter-second windows of a warm target differ by 10-40% either way
// (docs/measurement.md), so a two-sided 5% test would almost never pass and every step would
// run to the cap; a window slower than the last is that noise, or a target getting slower,
// which waiting does not fix.

// The defaults, argued from measurements in docs/measurement.md.
export const WARMUP_WINDOW_SECONDS = 0.25;
export const WARMUP_TOLERANCE = 0.05;
export const WARMUP_MAX_SECONDS = 10;

/**
 * How fast a window went: responses per second in the closed loop; in the open model, where
 * the rate is fixed by the schedule, the inverse of the mean latency (a warming target
 * answers sooner). null when the window had no response.
 */
export function windowSpeed(figures) {
  if (!figures.responses) return null;
  if (figures.model === 'open') return figures.latency.meanMs > 0 ? 1000 / figures.latency.meanMs : null;
  return figures.rps;
}

/** Whether `last` is no faster than `previous` by more than `tolerance` (a fraction): the rise has ended. */
export const settled = (previous, last, tolerance) =>
  previous !== null && last !== null && last <= previous * (1 + tolerance);

/**
 * Runs `runWindow(seconds)` (one window of the step's load, resolving to its step figures)
 * until two consecutive windows settle (after `minWindows` at least) or `maxSeconds` of windows
 * have run. Resolves to
 * { seconds, windows, steady, speeds }: the windows' total length, how many ran, whether the
 * last two settled, and each window's speed (windowSpeed). A window with no response at all
 * (every request failed) ends the warm-up unsettled: failures do not warm anything up.
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
