// Which stores a comparison can tell apart, and their ranks. Stores whose difference is within
// the run's noise share a rank; a step with no successful response has no rank at all.
//
// The noise of one step's rps is its relative standard error, from the responses it counted in
// each quarter second (driver/step-figures.js intervals); the run's is the control's drift (the first
// step measured again at the end, driver/sweep.js). Two stores are told apart when their rps
// differ by more than the larger of: a floor, the drift, and twice their combined standard
// error (about a 95% interval). With --repeat, the repeats' ranges decide, as before: two stores
// whose rps ranges over the repeats overlap are not told apart. docs/measurement.md argues it.
import { rangesOverlap } from '../util/stats.js';

// Below this, two rps are never told apart: a difference smaller than 5% did not survive a
// rerun on this VM even when both steps looked steady (docs/measurement.md).
export const NOISE_FLOOR = 0.05;
// Fewer whole intervals than this give no spread worth the name.
const MIN_INTERVALS = 3;

/**
 * The relative standard error of a step's rps from its interval counts (the sample standard
 * deviation of the counts over their mean, over the square root of their number), or null
 * when the step has too few whole intervals or none with a response.
 */
export function stepNoise(step) {
  const counts = step.intervals?.responses ?? [];
  const n = counts.length;
  if (n < MIN_INTERVALS) return null;
  const mean = counts.reduce((sum, count) => sum + count, 0) / n;
  if (!(mean > 0)) return null;
  const variance = counts.reduce((sum, count) => sum + (count - mean) ** 2, 0) / (n - 1);
  return Math.sqrt(variance) / mean / Math.sqrt(n);
}

/**
 * Whether a step had no successful (2xx) response, so it has no figures to rank: its responses
 * (error statuses included) less its error statuses. Timeouts and connection errors are not
 * responses at all.
 */
export function failedStep(step) {
  const errorStatuses = Object.entries(step.errors.byKind ?? {})
    .filter(([kind]) => kind.startsWith('http '))
    .reduce((sum, [, n]) => sum + n, 0);
  return step.responses - errorStatuses <= 0;
}

/**
 * The fraction by which two rows' rps must differ to be told apart with one measurement each:
 * the floor, the run's drift and twice their combined standard error, whichever is largest.
 */
export function tolerance(a, b, drift = null) {
  const errors = Math.sqrt((a.noise ?? 0) ** 2 + (b.noise ?? 0) ** 2);
  return Math.max(NOISE_FLOOR, Math.abs(drift ?? 0), 2 * errors);
}

/** Whether rows a and b can be told apart: by their repeats' ranges, else by the tolerance above. */
export function distinguishable(a, b, drift = null) {
  if (a.repeats > 1 && b.repeats > 1) return !rangesOverlap(a.spread.rps, b.spread.rps);
  const low = Math.min(a.rps, b.rps);
  if (!(low > 0)) return a.rps !== b.rps;
  return Math.abs(a.rps - b.rps) / low > tolerance(a, b, drift);
}

/**
 * Sets `rank` on each row of a comparison group: 1 plus the number of rows measured faster
 * beyond the noise, so rows that cannot be told apart from each other share a rank (ties are
 * equal: 1, 1, 3). A failed row gets rank null and takes no part. Returns the rows.
 */
export function rankRows(rows, drift = null) {
  const ranked = rows.filter((row) => !row.failed);
  for (const row of rows) {
    const faster = (other) => other !== row && other.rps > row.rps && distinguishable(other, row, drift);
    row.rank = row.failed ? null : 1 + ranked.filter(faster).length;
  }
  return rows;
}
