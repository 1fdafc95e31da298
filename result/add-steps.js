// Adding steps that ran side by side into one (--threads, merged machines): counts summed
// exactly, HDR histograms added (percentiles never averaged), rps all responses over the
// load-weighted mean of the parts' wallSeconds (docs/measurement.md).
import { createLatencyRecorder, decodeHistogram } from './recorder.js';
import { activeClients } from './honesty.js';
import { addTimelines } from './timeline.js';
import { storeTimeAsLatency, storeTimeFigures } from './store-time.js';

/**
 * A recorder's exact figures (nanoseconds as decimal strings: bigints do not cross JSON).
 * @typedef {{ count: number, sumNs: string, minNs: string|null, maxNs: string|null }} LatencySums
 */

export function latencySums(recorder) {
  const { count, sumNs, minNs, maxNs } = recorder.state();
  const text = (ns) => (ns === null ? null : String(ns));
  return { count, sumNs: String(sumNs), minNs: text(minNs), maxNs: text(maxNs) };
}

// Without exact sums (a results file), meanMs holds the sum to within a nanosecond per request.
function sumsOf(latency, exact) {
  if (exact) {
    const big = (ns) => (ns === null ? null : BigInt(ns));
    return { count: exact.count, sumNs: BigInt(exact.sumNs), minNs: big(exact.minNs), maxNs: big(exact.maxNs) };
  }
  if (!latency.count) return { count: 0, sumNs: 0n, minNs: null, maxNs: null };
  const ns = (ms) => BigInt(Math.round(ms * 1e6));
  return {
    count: latency.count,
    sumNs: ns(latency.meanMs) * BigInt(latency.count),
    minNs: ns(latency.minMs),
    maxNs: ns(latency.maxMs),
  };
}

function addLatencies(parts) {
  const total = createLatencyRecorder();
  for (const { latency, histogram, sums } of parts) {
    const decoded = decodeHistogram(histogram);
    const exact = sumsOf(latency, sums);
    total.add({ state: () => ({ ...exact, histogram: decoded }) });
    decoded.destroy();
  }
  const figures = { latency: total.summary(), histogram: total.encode(), sums: latencySums(total) };
  total.destroy();
  return figures;
}

/**
 * The store times of parts that ran side by side, added as latencies are; null when none has
 * one, undefined when every part predates store times.
 */
export function addStoreTimes(storeTimes) {
  if (storeTimes.every((storeTime) => storeTime === undefined)) return undefined;
  const present = storeTimes.filter(Boolean);
  if (!present.length) return null;
  const { latency, histogram, sums } = addLatencies(present.map(storeTimeAsLatency));
  return storeTimeFigures(present[0].source, latency, histogram, sums);
}

const withStoreTime = (storeTime) => (storeTime === undefined ? {} : { storeTime });

function addErrors(parts) {
  const byKind = {};
  const samples = {};
  for (const { errors } of parts) {
    for (const [kind, n] of Object.entries(errors.byKind)) byKind[kind] = (byKind[kind] ?? 0) + n;
    for (const [kind, text] of Object.entries(errors.samples ?? {})) samples[kind] ??= text;
  }
  return { total: parts.reduce((sum, { errors }) => sum + errors.total, 0), byKind, samples };
}

const sum = (parts, read) => parts.reduce((total, part) => total + (read(part) ?? 0), 0);
const sumOrNull = (parts, read) => {
  const missing = parts.some((part) => read(part) === null || read(part) === undefined);
  return missing ? null : sum(parts, read);
};

function addReported(parts) {
  const reports = parts.map((part) => part.engineReported);
  if (reports.some((report) => !report)) return null;
  const total = sum(reports, (report) => report.totalRequests);
  const meanLatencyMs = reports.every((report) => report.meanLatencyMs !== null) && total > 0
    ? sum(reports, (report) => report.meanLatencyMs * report.totalRequests) / total
    : null;
  return { meanLatencyMs, rps: sumOrNull(reports, (report) => report.rps), totalRequests: total };
}

// Weighted by each part's share of the load; equal weights when the parts carry none.
function meanWallSeconds(parts) {
  const weights = parts.map((part) => (part.model === 'open' ? part.targetRps : activeClients(part)) ?? 0);
  const total = weights.reduce((a, b) => a + b, 0);
  if (!(total > 0)) return sum(parts, (part) => part.wallSeconds) / parts.length;
  return parts.reduce((acc, part, index) => acc + weights[index] * part.wallSeconds, 0) / total;
}

const withTimeline = (timeline) => (timeline ? { timeline } : {});

/**
 * One step from `parts` that ran side by side on shares of the same load. wallSeconds is the
 * parts' mean weighted by clients (closed loop) or rate (open model): summing the parts' rps
 * overstates when they end at different times (two parts of 10 clients doing 500 responses over
 * 0.5 s and 1 s are 1000 / 0.75 = 1333 rps, not 1000 + 500).
 */
export function addSteps(parts) {
  if (!parts.length) throw new TypeError('addSteps needs at least one step');
  const [first] = parts;
  const requests = sum(parts, (part) => part.requests);
  const responses = sum(parts, (part) => part.responses);
  const wallSeconds = meanWallSeconds(parts);
  const rps = wallSeconds > 0 ? responses / wallSeconds : 0;
  const rpsOf = (count) => (wallSeconds > 0 ? count / wallSeconds : 0);
  const { latency, histogram, sums } = addLatencies(parts);
  const operations = first.operations.map(({ operation }) => {
    const own = parts.map((part) => part.operations.find((entry) => entry.operation === operation)).filter(Boolean);
    const added = addLatencies(own);
    const opResponses = sum(own, (entry) => entry.responses);
    return {
      operation,
      requests: sum(own, (entry) => entry.requests),
      responses: opResponses,
      rps: rpsOf(opResponses),
      latency: added.latency,
      errors: addErrors(own),
      histogram: added.histogram,
      sums: added.sums,
      ...withStoreTime(addStoreTimes(own.map((entry) => entry.storeTime))),
      ...withTimeline(own.some((entry) => entry.timeline) ? addTimelines(own.map((entry) => entry.timeline)) : null),
    };
  });
  const times = (read) => parts.map(read).sort();
  return {
    url: first.url,
    mode: first.mode,
    model: first.model,
    // Their clocks differ by machine: the longest part's span stands for them all.
    elapsedSeconds: Math.max(...parts.map((part) => part.elapsedSeconds ?? 0)),
    startedAt: times((part) => part.startedAt)[0],
    finishedAt: times((part) => part.finishedAt).at(-1),
    maxRequests: sumOrNull(parts, (part) => part.maxRequests),
    durationSeconds: first.durationSeconds,
    concurrency: first.model === 'open' ? null : sum(parts, (part) => part.concurrency),
    targetRps: first.model === 'open' ? sum(parts, (part) => part.targetRps) : null,
    // The parts' peaks may not have come at the same moment: at most this many at once.
    peakInFlight: sum(parts, (part) => part.peakInFlight),
    requests,
    responses,
    wallSeconds,
    rps,
    latency,
    ...withStoreTime(addStoreTimes(parts.map((part) => part.storeTime))),
    errors: addErrors(parts),
    cpuPercent: sum(parts, (part) => part.cpuPercent),
    ...(parts.every((part) => Number.isFinite(part.cpuSeconds))
      ? { cpuSeconds: sum(parts, (part) => part.cpuSeconds) }
      : {}),
    engineReported: addReported(parts),
    histogram,
    intervals: addIntervals(parts),
    // Absent when a part has no seconds (a results file written before them), as in that file.
    ...withTimeline(addTimelines(parts.map((part) => part.timeline))),
    operations,
    sums,
  };
}

// Interval counts added index by index, over the intervals every part has.
function addIntervals(parts) {
  const all = parts.map((part) => part.intervals).filter(Boolean);
  if (all.length !== parts.length) return null;
  const length = Math.min(...all.map((intervals) => intervals.responses.length));
  const responses = Array.from({ length }, (_, index) => sum(all, (intervals) => intervals.responses[index]));
  return { seconds: all[0].seconds, responses };
}

/** Drops the `sums` addSteps and the workers keep for further additions (a Result has no such field). */
export function withoutSums({ sums, operations, ...step }) {
  return {
    ...withoutStoreSums(step),
    operations: operations.map(({ sums: _sums, ...operation }) => withoutStoreSums(operation)),
  };
}

function withoutStoreSums(record) {
  if (!record.storeTime?.sums) return record;
  const { sums: _sums, ...storeTime } = record.storeTime;
  return { ...record, storeTime };
}
