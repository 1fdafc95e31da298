// A step's store time, apart from the app and the network: over HTTP the target's Server-Timing
// header; in direct mode the request *is* the store call, so it is the latency. null when no 2xx
// response carried the header.
import { directStoreTimeSample } from './timeline.js';

export const STORE_TIME_SOURCES = Object.freeze({ serverTiming: 'server-timing', direct: 'direct' });

export function storeTimeFigures(source, summary, histogram, sums) {
  const { count, meanMs, minMs, maxMs, p50Ms, p90Ms, p99Ms } = summary;
  return { source, count, meanMs, minMs, maxMs, p50Ms, p90Ms, p99Ms, histogram, ...(sums ? { sums } : {}) };
}

export const storeTimeAsLatency = (storeTime) =>
  ({ latency: storeTime, histogram: storeTime.histogram, sums: storeTime.sums });

/** A direct step's figures with their store time: the latency's, histogram and sums. */
export function withDirectStoreTime(figures) {
  const storeTime = figures.latency.count
    ? storeTimeFigures(STORE_TIME_SOURCES.direct, figures.latency, figures.histogram, figures.sums)
    : null;
  const timeline = figures.timeline?.map((sample) => ({ ...sample, storeTime: directStoreTimeSample(sample) }));
  return { ...figures, storeTime, ...(timeline ? { timeline } : {}) };
}
