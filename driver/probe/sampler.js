// The probe's sampling loop: one request at a time, each timed from its start to its end,
// until stopped or a limit is reached. The same loop runs in the probe's worker thread
// (worker.js) and, for the memory store in direct mode, in the driver's own thread.
import { createLatencyRecorder } from '../recorder.js';

/** A probe's figures: { count, errors, meanMs, p50Ms, p99Ms } (latencies null when none answered). */
export function probeFigures(recorder, errors) {
  const { count, meanMs, p50Ms, p99Ms } = recorder.summary();
  return { count, errors, meanMs, p50Ms, p99Ms };
}

/**
 * Sends `send()` (a function returning a promise) one at a time and resolves to the figures
 * once `maxCount` requests were sent, `maxSeconds` passed, or stop() was called (the request
 * in flight then still counts). A request that rejects counts as an error, not a latency.
 * `pause` (optional) is awaited between requests: a probe sharing the load's thread must let
 * the event loop turn, or a store answering without I/O would keep it from ever doing so.
 */
export function startSampling(send, { maxCount = Infinity, maxSeconds = Infinity, pause = null } = {}) {
  let stopped = false;
  const done = (async () => {
    const recorder = createLatencyRecorder();
    let errors = 0;
    const endNs = Number.isFinite(maxSeconds) ? process.hrtime.bigint() + BigInt(Math.round(maxSeconds * 1e9)) : null;
    let sent = 0;
    while (!stopped && sent < maxCount && (endNs === null || process.hrtime.bigint() < endNs)) {
      sent += 1;
      const startNs = process.hrtime.bigint();
      try {
        await send();
        recorder.record(process.hrtime.bigint() - startNs);
      } catch {
        errors += 1;
      }
      if (pause) await pause();
    }
    const figures = probeFigures(recorder, errors);
    recorder.destroy();
    return figures;
  })();
  return {
    done,
    /** Ends the sampling after the request in flight; resolves to the figures. */
    stop() {
      stopped = true;
      return done;
    },
  };
}
