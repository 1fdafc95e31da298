// The probe's sampling loop: one request at a time, each timed from its start to its end,
// until stopped or a limit is reached. The same loop runs in the probe's worker thread
// (worker.js) and, for the memory store in direct mode, in the driver's own thread.
import { createIntervalHistogram, createLatencyRecorder } from '../../result/recorder.js';

// The probe's noise is measured by batch means: its answers in batches of this many, in order;
// the spread of the batches' means says how far the mean itself moves, slow drifts included,
// which the spread of single answers would understate (consecutive answers are not independent).
export const NOISE_BATCH = 20;

/**
 * How far a probe's mean could be off from the batches of answers behind it: about two
 * standard errors (a 95% interval's half), 2 x sd(batch means) / sqrt(batches); null with fewer
 * than 2 full batches.
 */
export function noiseOfBatches(batchMeans) {
  const k = batchMeans.length;
  if (k < 2) return null;
  const mean = batchMeans.reduce((sum, value) => sum + value, 0) / k;
  const variance = batchMeans.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (k - 1);
  return (2 * Math.sqrt(variance)) / Math.sqrt(k);
}

/**
 * A probe's figures: { count, errors, meanMs, p50Ms, p99Ms, noiseMs } (latencies null when none
 * answered; noiseMs from noiseOfBatches, null when too few answered).
 */
export function probeFigures(recorder, errors, batchMeans = []) {
  const { count, meanMs, p50Ms, p99Ms } = recorder.summary();
  return { count, errors, meanMs, p50Ms, p99Ms, noiseMs: noiseOfBatches(batchMeans) };
}

/**
 * Sends `send()` (a function returning a promise) one at a time and resolves to the figures
 * once `maxCount` requests were sent, `maxSeconds` passed, or stop() was called (the request
 * in flight then still counts). A request that rejects counts as an error, not a latency.
 * `pause` (optional) is awaited between requests: a probe sharing the load's thread must let
 * the event loop turn, or a store answering without I/O would keep it from ever doing so.
 */
// With `timeline`, the figures also hold one sample per second of the sampling (the probe under
// a step's load: a one-second stall shows in the probe as in the step's own timeline).
function createSeconds() {
  const seconds = [];
  const originNs = process.hrtime.bigint();
  const at = (nowNs) => {
    const index = Math.floor(Number(nowNs - originNs) / 1e9);
    return (seconds[index] ??= { count: 0, errors: 0, histogram: createIntervalHistogram() });
  };
  return {
    response(nowNs, latencyNs) {
      const second = at(nowNs);
      second.count += 1;
      second.histogram.recordValue(Math.max(1, Math.round(Number(latencyNs) / 1000)));
    },
    error(nowNs) {
      at(nowNs).errors += 1;
    },
    samples() {
      return Array.from(seconds, (second = { count: 0, errors: 0, histogram: null }, index) => {
        const { count, errors, histogram } = second;
        const maxMs = count ? histogram.maxValue / 1000 : null;
        // A percentile reads as its bucket's top, which can pass the exact max the histogram
        // keeps: never above it (as the step's own seconds, result/recorder.js).
        const atMs = (percentile) =>
          (count ? Math.min(maxMs, histogram.getValueAtPercentile(percentile) / 1000) : null);
        const sample = {
          second: index,
          count,
          errors,
          p50Ms: atMs(50),
          p90Ms: atMs(90),
          p99Ms: atMs(99),
          maxMs,
        };
        histogram?.destroy();
        return sample;
      });
    },
  };
}

export function startSampling(send, {
  maxCount = Infinity, maxSeconds = Infinity, pause = null, timeline = false,
} = {}) {
  let stopped = false;
  const done = (async () => {
    const recorder = createLatencyRecorder();
    const seconds = timeline ? createSeconds() : null;
    let errors = 0;
    const batchMeans = [];
    let batch = { count: 0, ns: 0n };
    const endNs = Number.isFinite(maxSeconds) ? process.hrtime.bigint() + BigInt(Math.round(maxSeconds * 1e9)) : null;
    let sent = 0;
    while (!stopped && sent < maxCount && (endNs === null || process.hrtime.bigint() < endNs)) {
      sent += 1;
      const startNs = process.hrtime.bigint();
      try {
        await send();
        const endNs = process.hrtime.bigint();
        recorder.record(endNs - startNs);
        seconds?.response(endNs, endNs - startNs);
        batch = { count: batch.count + 1, ns: batch.ns + (endNs - startNs) };
        if (batch.count === NOISE_BATCH) {
          batchMeans.push(Number(batch.ns) / NOISE_BATCH / 1e6);
          batch = { count: 0, ns: 0n };
        }
      } catch {
        errors += 1;
        seconds?.error(process.hrtime.bigint());
      }
      if (pause) await pause();
    }
    const figures = probeFigures(recorder, errors, batchMeans);
    recorder.destroy();
    if (seconds) figures.timeline = seconds.samples();
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
