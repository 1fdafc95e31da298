// What --part and --start-at add to runBenchmark: the part's settings and the start barrier.
import { clockUrl, readTargetClock, waitForStart } from './barrier.js';

export function partSettings(options) {
  return {
    ...(options.part ? { part: { index: options.part.index, count: options.part.count } } : {}),
    ...(options.startAt ? { startAt: options.startAt.toISOString() } : {}),
  };
}

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
