// Latency recorder: an HDR histogram at µs resolution for percentiles, count, sum, min and max
// exact in ns (so the mean is not quantised).
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
  // Plain numbers of ns (exact below 2^53, 104 days), the sum folded into a bigint before it could
  // lose a nanosecond: a bigint per operation was most of the recorder's cost per request.
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
    record(latencyNs) {
      recordNs(Number(latencyNs));
    },
    /** Records one latency given as a whole number of nanoseconds (a number): the request path's call. */
    recordNs,
    summary() {
      if (count === 0) {
        return { count, meanMs: null, minMs: null, maxMs: null, p50Ms: null, p90Ms: null, p99Ms: null, p999Ms: null };
      }
      const minMs = minNs / 1e6;
      const maxMs = maxNs / 1e6;
      // HDR answers with a bucket's top (0.1% wide), which can pass the exact max (11.919 for
      // 11.914 ms): each percentile is held to [min, max].
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
    /** Adds another recorder's figures to this one: exactly. */
    add(other) {
      const theirs = other.state();
      if (!theirs.count) return;
      count += theirs.count;
      sumNs += theirs.sumNs;
      minNs = Math.min(minNs, Number(theirs.minNs));
      maxNs = Math.max(maxNs, Number(theirs.maxNs));
      histogram.add(theirs.histogram);
    },
    state: () => ({
      count,
      sumNs: totalNs(),
      minNs: count ? BigInt(minNs) : null,
      maxNs: count ? BigInt(maxNs) : null,
      histogram,
    }),
    /** The histogram: µs values as HdrHistogram's compressed base64. */
    encode() {
      return { ...HISTOGRAM_ENCODING, data: hdr.encodeIntoCompressedBase64(histogram) };
    },
    destroy() {
      histogram.destroy();
    },
  };
}

// Timeline histograms: 2 significant digits (1% buckets) and a growing 60 s range take 11 KB
// instead of 95 KB, and a long step holds one a second.
export function createIntervalHistogram() {
  return hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 60_000_000,
    numberOfSignificantValueDigits: 2,
    autoResize: true,
    useWebAssembly: false,
  });
}

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
