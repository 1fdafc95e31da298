// Small statistics shared by the driver, test-json and the benchmarks.

/** The median of a list of numbers (the mean of the middle two for an even count); NaN when empty. */
export function median(values) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
