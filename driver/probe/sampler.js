// The probe's sampling loop: one request at a time, each timed, until stopped or a limit.
import { createIntervalHistogram, createLatencyRecorder } from '../../result/recorder.js';

// Noise by batch means: consecutive answers are not independent, so the spread of single answers
// would understate how far the mean moves.
export const NOISE_BATCH = 20;

/** About two standard errors of the mean, 2 x sd(batch means) / sqrt(batches); null under 2 batches. */
function noiseOfBatches(batchMeans) {
  const k = batchMeans.length;
  if (k < 2) return null;
  const mean = batchMeans.reduce((sum, value) => sum + value, 0) / k;
  const variance = batchMeans.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (k - 1);
  return (2 * Math.sqrt(variance)) / Math.sqrt(k);
}

function probeFigures(recorder, errors, batchMeans = []) {
  const { count, meanMs, p50Ms, p99Ms } = recorder.summary();
  return { count, errors, meanMs, p50Ms, p99Ms, noiseMs: noiseOfBatches(batchMeans) };
}

/**
 * Sends `send()` one at a time until `maxCount`, `maxSeconds` or stop(). A rejection counts as
 * an error, not a latency. `pause` is awaited between requests: a probe sharing the load's thread
 * must let the event loop turn. `timeline`: one sample per second.
 */
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
        // A percentile reads as its bucket's top, which can pass the exact max: never above it.
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
    stop() {
      stopped = true;
      return done;
    },
  };
}
