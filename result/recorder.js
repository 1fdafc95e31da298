// Latency recorder: every request's latency goes into an HDR histogram at microsecond
// resolution (for percentiles), while count, sum, min and max are kept exactly in
// nanoseconds (so the mean is not quantised at all).
import * as hdr from 'hdr-histogram-js';

// Below 2^53 with room for one more latency of up to 2^52 ns.
const FOLD_AT_NS = 2 ** 52;
const HISTOGRAM_ENCODING = Object.freeze({ unit: 'us', encoding: 'HdrHistogram compressed base64' });

export function createLatencyRecorder() {
  const histogram = hdr.build({
    lowestDiscernibleValue: 1, // 1 µs
    highestTrackableValue: 3_600_000_000, // 1 hour in µs; autoResize covers anything longer
    numberOfSignificantValueDigits: 3,
    useWebAssembly: false,
  });
  // Count, min and max as plain numbers of nanoseconds (exact below 2^53 ns, 104 days); the sum
  // in a number too, folded into a bigint before it could lose a nanosecond, so recording
  // allocates nothing (a bigint per operation was most of the recorder's cost per request).
  let count = 0;
  let sumNs = 0n;
  let unfoldedNs = 0;
  let minNs = Infinity;
  let maxNs = -Infinity;
  const recordNs = (latencyNs) => {
    count += 1;
    unfoldedNs += latencyNs;
    if (unfoldedNs > FOLD_AT_NS) {
      sumNs += BigInt(unfoldedNs);
      unfoldedNs = 0;
    }
    if (latencyNs < minNs) minNs = latencyNs;
    if (latencyNs > maxNs) maxNs = latencyNs;
    // Round to the nearest µs; a response cannot take less than 1 µs.
    histogram.recordValue(Math.max(1, Math.round(latencyNs / 1000)));
  };
  const totalNs = () => sumNs + BigInt(unfoldedNs);

  return {
    /** Records one latency given in nanoseconds (bigint). */
    record(latencyNs) {
      recordNs(Number(latencyNs));
    },
    /** Records one latency given as a whole number of nanoseconds (a number): the request path's call. */
    recordNs,
    /** Latency figures in milliseconds (null when nothing was recorded). */
    summary() {
      if (count === 0) {
        return { count, meanMs: null, minMs: null, maxMs: null, p50Ms: null, p90Ms: null, p99Ms: null, p999Ms: null };
      }
      const minMs = minNs / 1e6;
      const maxMs = maxNs / 1e6;
      // HDR answers with the top of a value's bucket (0.1% wide), rounded to whole µs: that can
      // pass the exact max (11.919 for 11.914 ms) or sit above the exact min (1 µs for 0.4 µs).
      // No percentile lies outside the samples, so each is held to [min, max].
      const atMs = (percentile) => Math.min(maxMs, Math.max(minMs, histogram.getValueAtPercentile(percentile) / 1000));
      return {
        count,
        meanMs: Number(totalNs() / BigInt(count)) / 1e6,
        minMs,
        maxMs,
        p50Ms: atMs(50),
        p90Ms: atMs(90),
        p99Ms: atMs(99),
        p999Ms: atMs(99.9),
      };
    },
    /**
     * Adds everything `other` (another recorder) recorded to this one: histograms add exactly,
     * as do count, sum, min and max.
     */
    add(other) {
      const theirs = other.state();
      if (!theirs.count) return;
      count += theirs.count;
      sumNs += theirs.sumNs;
      minNs = Math.min(minNs, Number(theirs.minNs));
      maxNs = Math.max(maxNs, Number(theirs.maxNs));
      histogram.add(theirs.histogram);
    },
    /** What add() reads. */
    state: () => ({
      count,
      sumNs: totalNs(),
      minNs: count ? BigInt(minNs) : null,
      maxNs: count ? BigInt(maxNs) : null,
      histogram,
    }),
    /**
     * The histogram, saying what it holds: values in µs as HdrHistogram's compressed base64,
     * decodable by any HDR implementation.
     */
    encode() {
      return { ...HISTOGRAM_ENCODING, data: hdr.encodeIntoCompressedBase64(histogram) };
    },
    destroy() {
      histogram.destroy();
    },
  };
}

// The per-second histograms of a step's timeline (result/timeline.js): 2 significant digits
// (1% buckets, plenty to see a one-second p99 move) and a 60 s range that grows when needed,
// so each takes 11 KB instead of the step histogram's 95 KB: a long step holds one a second.
export function createIntervalHistogram() {
  return hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 60_000_000,
    numberOfSignificantValueDigits: 2,
    autoResize: true,
    useWebAssembly: false,
  });
}

/** A raw HDR histogram of µs values as encode() writes it. */
export const encodeHistogram = (histogram) => ({
  ...HISTOGRAM_ENCODING,
  data: hdr.encodeIntoCompressedBase64(histogram),
});

/** Decodes a histogram written by encode() (values in µs). */
export function decodeHistogram({ unit, encoding, data }) {
  if (unit !== HISTOGRAM_ENCODING.unit || encoding !== HISTOGRAM_ENCODING.encoding) {
    throw new TypeError(`cannot decode a histogram of ${encoding} in ${unit}`);
  }
  return hdr.decodeFromCompressedBase64(data, 32, false);
}
