// Small statistics shared by the driver, test-json and the benchmarks.

export function median(values) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// Student's t, two-sided 95%, for 1 to 30 degrees of freedom; beyond that Cornish-Fisher's expansion
// is within 0.001 of the table.
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
  2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
  2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
];
const Z975 = 1.959964;

export function tQuantile975(df) {
  if (df <= T975.length) return T975[df - 1];
  const z = Z975;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df);
}

// From this many values on, spread() gives a 95% interval (docs/measurement.md, "Repeats").
const MIN_VALUES_FOR_INTERVAL = 5;

// ciLow..ciHigh: the 95% t-interval of the mean (null with fewer than 5 values). Nulls are left out.
export function spread(values) {
  const known = values.filter((value) => value !== null && value !== undefined);
  const n = known.length;
  if (!n) return { median: null, min: null, max: null, mean: null, ciLow: null, ciHigh: null };
  const mean = known.reduce((sum, value) => sum + value, 0) / n;
  let ciLow = null;
  let ciHigh = null;
  if (n >= MIN_VALUES_FOR_INTERVAL) {
    const variance = known.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
    const half = tQuantile975(n - 1) * Math.sqrt(variance / n);
    ciLow = mean - half;
    ciHigh = mean + half;
  }
  return { median: median(known), min: Math.min(...known), max: Math.max(...known), mean, ciLow, ciHigh };
}

export const rangesOverlap = (a, b) => a.min <= b.max && b.min <= a.max;
