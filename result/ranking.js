// Which stores a comparison can tell apart, and their ranks. Stores whose difference is within
// the run's noise share a rank; a step with no successful response has no rank at all.
//
// The noise of one step's rps is its relative standard error, from the responses it counted in
// each quarter second (driver/step-figures.js intervals); the run's is the control's drift (the first
// step measured again at the end, driver/sweep.js). Two stores are told apart when their rps
// differ by more than the larger of: a floor, the drift, and twice their combined standard
// error (about a 95% interval). With --repeat, the repeats' ranges decide, as before: two stores
// whose rps ranges over the repeats overlap are not told apart.
//
// Ranks come from groups (rankGroups): sorted best first, a new group starts at the first row
// told apart from the best row of the group before, so the groups never overlap and a printed
// rank never goes down and then up. docs/measurement.md argues both rules.
import { rangesOverlap } from '../util/stats.js';

// Below this, two rps are never told apart: a difference smaller than 5% did not survive a
// rerun on this VM even when both steps looked steady (docs/measurement.md).
export const NOISE_FLOOR = 0.05;
// Fewer whole intervals than this give no spread worth the name.
const MIN_INTERVALS = 3;
// Store time (the app's Server-Timing) is told apart by its p50 differing by more than this
// fraction of the faster one's and by more than STORE_TIME_FLOOR_MS (docs/measurement.md).
export const STORE_TIME_NOISE = 0.1;
export const STORE_TIME_FLOOR_MS = 0.02;

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
 * Ranks `items` by a figure, in groups that never overlap: sorted best first (`better`:
 * 'higher' or 'lower'), each group begins with its best item and holds every following item
 * that `apart(best, item)` does not tell apart from it; the next item told apart begins the
 * next group. Every item of a group shares the rank 1 + the items in the groups before (1, 1,
 * 3), so in the figure's order a rank never goes down and then up. Items whose figure is null
 * or not finite take no part and get null. Returns a Map item -> rank (or null); any figure
 * and direction: rps (higher), store time (lower).
 *
 * @template T
 * @param {T[]} items
 * @param {{ value: (item: T) => number|null, better?: 'higher'|'lower', apart: (best: T, item: T) => boolean }} rule
 * @returns {Map<T, number|null>}
 */
export function rankGroups(items, { value, better = 'higher', apart }) {
  const ranks = new Map(items.map((item) => [item, null]));
  const sign = better === 'lower' ? 1 : -1;
  const ranked = items
    .filter((item) => Number.isFinite(value(item)))
    .sort((a, b) => sign * (value(a) - value(b)));
  let best = null;
  let rank = 0;
  for (const [index, item] of ranked.entries()) {
    if (best === null || apart(best, item)) {
      best = item;
      rank = index + 1;
    }
    ranks.set(item, rank);
  }
  return ranks;
}

/**
 * Sets `rank` on each row of a comparison group by rps (rankGroups: a new rank where a row is
 * told apart from the fastest row of the rank above, by distinguishable), so rows that cannot
 * be told apart share a rank (1, 1, 3) and ranks read in order. A failed row gets rank null and
 * takes no part. Returns the rows.
 */
export function rankRows(rows, drift = null) {
  const ranks = rankGroups(rows, {
    value: (row) => (row.failed ? null : row.rps),
    apart: (best, row) => distinguishable(best, row, drift),
  });
  for (const row of rows) row.rank = ranks.get(row);
  return rows;
}

/** Whether two store times (p50, ms) are told apart: by more than 10% of the faster and 0.02 ms. */
export function storeTimesApart(best, other) {
  const difference = Math.abs(other - best);
  return difference > STORE_TIME_FLOOR_MS && difference > STORE_TIME_NOISE * Math.min(best, other);
}

/**
 * Sets `storeRank` on each row by its store time inside the app (row.storeTime.p50Ms, the
 * app's Server-Timing; lower is better), with the groups of rankGroups and storeTimesApart:
 * null for a failed row and a row without store time. Returns the rows.
 */
export function rankStoreTimes(rows) {
  const ranks = rankGroups(rows, {
    value: (row) => (row.failed ? null : row.storeTime?.p50Ms ?? null),
    better: 'lower',
    apart: (best, row) => storeTimesApart(best.storeTime.p50Ms, row.storeTime.p50Ms),
  });
  for (const row of rows) row.storeRank = ranks.get(row);
  return rows;
}
