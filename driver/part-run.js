// What --start-at adds to runBenchmark: the start barrier (options/result-settings.js records
// the part and the start in the Result's settings).
import { clockUrl, readTargetClock, waitForStart } from './barrier.js';

/** The barrier of a run (`wait` null without --start-at); afterwards `start` holds what the Result keeps. */
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
