// Latency recorder: every request's latency goes into an HDR histogram at microsecond
// resolution (for percentiles), while count, sum, min and max are kept exactly in
// nanoseconds (so the mean is not quantised at all).
import * as hdr from 'hdr-histogram-js';

const NS_PER_US = 1000n;
const HISTOGRAM_ENCODING = Object.freeze({ unit: 'us', encoding: 'HdrHistogram compressed base64' });

export function createLatencyRecorder() {
  const histogram = hdr.build({
    lowestDiscernibleValue: 1, // 1 µs
    highestTrackableValue: 3_600_000_000, // 1 hour in µs; autoResize covers anything longer
    numberOfSignificantValueDigits: 3,
    useWebAssembly: false,
  });
  let count = 0;
  let sumNs = 0n;
  let minNs = null;
  let maxNs = null;

  return {
    /** Records one latency given in nanoseconds (bigint). */
    record(latencyNs) {
      count += 1;
      sumNs += latencyNs;
      if (minNs === null || latencyNs < minNs) minNs = latencyNs;
      if (maxNs === null || latencyNs > maxNs) maxNs = latencyNs;
      // Round to the nearest µs; a response cannot take less than 1 µs.
      const us = (latencyNs + NS_PER_US / 2n) / NS_PER_US;
      histogram.recordValue(Math.max(1, Number(us)));
    },
    /** Latency figures in milliseconds (null when nothing was recorded). */
    summary() {
      if (count === 0) {
        return { count, meanMs: null, minMs: null, maxMs: null, p50Ms: null, p90Ms: null, p99Ms: null, p999Ms: null };
      }
      const minMs = Number(minNs) / 1e6;
      const maxMs = Number(maxNs) / 1e6;
      // HDR answers with the top of a value's bucket (0.1% wide), rounded to whole µs: that can
      // pass the exact max (11.919 for 11.914 ms) or sit above the exact min (1 µs for 0.4 µs).
      // No percentile lies outside the samples, so each is held to [min, max].
      const atMs = (percentile) => Math.min(maxMs, Math.max(minMs, histogram.getValueAtPercentile(percentile) / 1000));
      return {
        count,
        meanMs: Number(sumNs / BigInt(count)) / 1e6,
        minMs,
        maxMs,
        p50Ms: atMs(50),
        p90Ms: atMs(90),
        p99Ms: atMs(99),
        p999Ms: atMs(99.9),
      };
    },
    /** Adds everything `other` (another recorder) recorded to this one: histograms add exactly, as do count, sum, min and max. */
    add(other) {
      const theirs = other.state();
      if (!theirs.count) return;
      count += theirs.count;
      sumNs += theirs.sumNs;
      if (minNs === null || theirs.minNs < minNs) minNs = theirs.minNs;
      if (maxNs === null || theirs.maxNs > maxNs) maxNs = theirs.maxNs;
      histogram.add(theirs.histogram);
    },
    /** What add() reads. */
    state: () => ({ count, sumNs, minNs, maxNs, histogram }),
    /** The histogram, saying what it holds: values in µs as HdrHistogram's compressed base64, decodable by any HDR implementation. */
    encode() {
      return { ...HISTOGRAM_ENCODING, data: hdr.encodeIntoCompressedBase64(histogram) };
    },
    destroy() {
      histogram.destroy();
    },
  };
}

/** Decodes a histogram written by encode() (values in µs). */
export function decodeHistogram({ unit, encoding, data }) {
  if (unit !== HISTOGRAM_ENCODING.unit || encoding !== HISTOGRAM_ENCODING.encoding) {
    throw new TypeError(`cannot decode a histogram of ${encoding} in ${unit}`);
  }
  return hdr.decodeFromCompressedBase64(data, 32, false);
}
