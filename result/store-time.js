// A step's store time: how long the store itself took, apart from the app and the network. Over
// HTTP the target says it per response in its Server-Timing header (`store;dur=0.042`, which the
// app sends: routes/server-timing.js), and the engines record it beside the latency; in direct
// mode the request *is* the store call, so the store time is the latency, by definition.
//
// A step's storeTime (and each operation's) is
//   { source, count, meanMs, minMs, maxMs, p50Ms, p90Ms, p99Ms, histogram }
// with `sums` (the exact nanosecond sums, result/add-steps.js) while it travels between a worker
// thread and the main thread; null when no 2xx response of the step carried the header.
import { directStoreTimeSample } from './timeline.js';

/** Where a store time came from: the target's Server-Timing header, or the latency of a direct call. */
export const STORE_TIME_SOURCES = Object.freeze({ serverTiming: 'server-timing', direct: 'direct' });

/**
 * A storeTime from a latency-shaped summary (a recorder's: count, meanMs, minMs, maxMs, p50Ms,
 * p90Ms, p99Ms), its encoded histogram and, to travel, its exact sums.
 */
export function storeTimeFigures(source, summary, histogram, sums) {
  const { count, meanMs, minMs, maxMs, p50Ms, p90Ms, p99Ms } = summary;
  return { source, count, meanMs, minMs, maxMs, p50Ms, p90Ms, p99Ms, histogram, ...(sums ? { sums } : {}) };
}

/** A storeTime as the { latency, histogram, sums } that result/add-steps.js addLatencies adds. */
export const storeTimeAsLatency = (storeTime) =>
  ({ latency: storeTime, histogram: storeTime.histogram, sums: storeTime.sums });

/**
 * A direct step's figures (measureStep's, or an operation's) with their store time: the latency's,
 * the same histogram and sums; each second's too.
 */
export function withDirectStoreTime(figures) {
  const storeTime = figures.latency.count
    ? storeTimeFigures(STORE_TIME_SOURCES.direct, figures.latency, figures.histogram, figures.sums)
    : null;
  const timeline = figures.timeline?.map((sample) => ({ ...sample, storeTime: directStoreTimeSample(sample) }));
  return { ...figures, storeTime, ...(timeline ? { timeline } : {}) };
}
