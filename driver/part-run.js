// What a run with --part and --start-at adds to runBenchmark: the settings that say which part
// of which run it is, and the barrier between its preparation and its first step.
import { clockUrl, readTargetClock, waitForStart } from './barrier.js';

/** settings.part and settings.startAt, when given (absent otherwise). */
export function partSettings(options) {
  return {
    ...(options.part ? { part: { index: options.part.index, count: options.part.count } } : {}),
    ...(options.startAt ? { startAt: options.startAt.toISOString() } : {}),
  };
}

/**
 * The barrier of a run: `wait` (null without --start-at) reads the target's clock, then waits
 * for the start; afterwards `start` holds what the Result keeps: { at, readyAt, began, lateMs,
 * clock } (clock: { offsetMs, uncertaintyMs, source } against the target's Date header, or null).
 */
export function startBarrier(options, targets, signal) {
  const barrier = { start: null, wait: null };
  if (!options.startAt) return barrier;
  barrier.wait = async () => {
    const url = clockUrl(options, targets);
    const clock = url ? await readTargetClock(url, { timeoutMs: options.timeoutMs }) : null;
    const waited = await waitForStart(options.startAt, { signal });
    barrier.start = { at: options.startAt.toISOString(), ...waited, clock };
  };
  return barrier;
}
