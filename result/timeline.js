// Per-second samples of a step, each from its own histogram; parts that ran side by side add by
// histogram, never by averaging percentiles. A histogram is made once per second, not per request.
import { createIntervalHistogram, decodeHistogram, encodeHistogram } from './recorder.js';

const TIMELINE_SECONDS = 1;
const SECOND_NS = TIMELINE_SECONDS * 1e9;

class Second {
  constructor() {
    this.responses = 0;
    this.errors = null; // { kind: n }, made at the second's first error
    this.histogram = createIntervalHistogram();
    this.store = null; // the store times' histogram, made at the second's first
  }
}

/** The seconds of one step (or one operation of it), filled as its requests end. */
export function createTimeline() {
  const seconds = [];
  let currentIndex = -1;
  let current = null;
  const at = (offsetNs) => {
    const index = Math.floor(offsetNs / SECOND_NS);
    if (index !== currentIndex) {
      currentIndex = index;
      current = seconds[index] ??= new Second();
    }
    return current;
  };
  return {
    /** A response ended offsetNs after the step's first start, after latencyNs; storeNs: its store time, if any. */
    response(offsetNs, latencyNs, storeNs = -1) {
      const second = at(offsetNs);
      second.responses += 1;
      second.histogram.recordValue(Math.max(1, Math.round(latencyNs / 1000)));
      if (storeNs >= 0) {
        second.store ??= createIntervalHistogram();
        second.store.recordValue(Math.max(1, Math.round(storeNs / 1000)));
      }
    },
    /** A request counted as error `kind` ended offsetNs after the first start. */
    error(offsetNs, kind) {
      const second = at(offsetNs);
      second.errors ??= {};
      second.errors[kind] = (second.errors[kind] ?? 0) + 1;
    },
    /** The samples over spanNs (first start to last end), histograms encoded; frees the histograms. */
    samples(spanNs) {
      const count = spanNs > 0 || seconds.length ? Math.max(seconds.length, Math.floor(spanNs / SECOND_NS) + 1) : 0;
      const list = [];
      for (let index = 0; index < count; index += 1) {
        const second = seconds[index] ?? new Second();
        const length = Math.min(1, Math.max(0, spanNs / SECOND_NS - index));
        const { responses, errors, histogram, store } = second;
        list.push(sampleOf(index, round(length), responses, { ...errors }, histogram, store));
        second.histogram.destroy();
        second.store?.destroy();
      }
      seconds.length = 0;
      return list;
    },
  };
}

const round = (value) => Math.round(value * 1e6) / 1e6;

// Latencies in ms (null with no response); the store time from its own histogram.
function sampleOf(second, seconds, responses, errors, histogram, store = null) {
  const at = (percentile) => (responses ? histogram.getValueAtPercentile(percentile) / 1000 : null);
  return {
    second,
    seconds,
    responses,
    errors,
    latency: { p50Ms: at(50), p90Ms: at(90), p99Ms: at(99), maxMs: responses ? histogram.maxValue / 1000 : null },
    histogram: encodeHistogram(histogram),
    storeTime: store?.totalCount ? storeTimeSample(store, encodeHistogram(store)) : null,
  };
}

function storeTimeSample(histogram, encoded) {
  return {
    p50Ms: histogram.getValueAtPercentile(50) / 1000,
    p99Ms: histogram.getValueAtPercentile(99) / 1000,
    histogram: encoded,
  };
}

/** A direct-mode second's store time: its latency, the same histogram. */
export const directStoreTimeSample = (sample) => (sample.responses
  ? { p50Ms: sample.latency.p50Ms, p99Ms: sample.latency.p99Ms, histogram: sample.histogram }
  : null);

/** Timelines of parts that ran side by side, added second by second; null when a part has none. */
export function addTimelines(timelines) {
  if (!timelines.length || timelines.some((timeline) => !Array.isArray(timeline))) return null;
  if (timelines.length === 1) return timelines[0];
  const length = Math.max(...timelines.map((timeline) => timeline.length));
  const list = [];
  for (let index = 0; index < length; index += 1) {
    const parts = timelines.map((timeline) => timeline[index]).filter(Boolean);
    const total = createIntervalHistogram();
    const store = parts.some((part) => part.storeTime) ? createIntervalHistogram() : null;
    const errors = {};
    for (const part of parts) {
      const decoded = decodeHistogram(part.histogram);
      total.add(decoded);
      decoded.destroy();
      if (part.storeTime) {
        const stored = decodeHistogram(part.storeTime.histogram);
        store.add(stored);
        stored.destroy();
      }
      for (const [kind, n] of Object.entries(part.errors)) errors[kind] = (errors[kind] ?? 0) + n;
    }
    const responses = parts.reduce((sum, part) => sum + part.responses, 0);
    const sample = sampleOf(index, Math.max(...parts.map((part) => part.seconds)), responses, errors, total, store);
    if (parts.every((part) => part.storeTime === undefined)) delete sample.storeTime;
    list.push(sample);
    total.destroy();
    store?.destroy();
  }
  return list;
}

// A last second shorter than this gives no rate worth drawing (a few responses over a few ms).
const MIN_RATE_SECONDS = 0.25;
/** A timeline's rps per second; null for a too-short last one. */
export const timelineRps = (timeline) =>
  timeline.map((sample) => (sample.seconds >= MIN_RATE_SECONDS ? sample.responses / sample.seconds : null));
