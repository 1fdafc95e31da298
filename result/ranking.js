// Which stores a comparison can tell apart, and their ranks: stores within the run's noise share
// a rank. Two rps are told apart past the largest of a floor, the control's drift and twice their
// combined standard error (about 95%); with --repeat, by their repeats' ranges not overlapping.
// docs/measurement.md argues the rules.
import { rangesOverlap } from '../util/stats.js';

// Below this, two rps are never told apart: a difference smaller than 5% did not survive a
// rerun on this VM even when both steps looked steady (docs/measurement.md).
export const NOISE_FLOOR = 0.05;
const MIN_INTERVALS = 3;
// Store time (the app's Server-Timing) is told apart by its p50 differing by more than this
// fraction of the faster one's and by more than STORE_TIME_FLOOR_MS (docs/measurement.md).
export const STORE_TIME_NOISE = 0.1;
export const STORE_TIME_FLOOR_MS = 0.02;

/** The relative standard error of a step's rps from its interval counts, or null with too few. */
export function stepNoise(step) {
  const counts = step.intervals?.responses ?? [];
  const n = counts.length;
  if (n < MIN_INTERVALS) return null;
  const mean = counts.reduce((sum, count) => sum + count, 0) / n;
  if (!(mean > 0)) return null;
  const variance = counts.reduce((sum, count) => sum + (count - mean) ** 2, 0) / (n - 1);
  return Math.sqrt(variance) / mean / Math.sqrt(n);
}

/** Whether a step had no 2xx response, so nothing to rank (timeouts are not responses at all). */
export function failedStep(step) {
  const errorStatuses = Object.entries(step.errors.byKind ?? {})
    .filter(([kind]) => kind.startsWith('http '))
    .reduce((sum, [, n]) => sum + n, 0);
  return step.responses - errorStatuses <= 0;
}

export function tolerance(a, b, drift = null) {
  const errors = Math.sqrt((a.noise ?? 0) ** 2 + (b.noise ?? 0) ** 2);
  return Math.max(NOISE_FLOOR, Math.abs(drift ?? 0), 2 * errors);
}

export function distinguishable(a, b, drift = null) {
  if (a.repeats > 1 && b.repeats > 1) return !rangesOverlap(a.spread.rps, b.spread.rps);
  const low = Math.min(a.rps, b.rps);
  if (!(low > 0)) return a.rps !== b.rps;
  return Math.abs(a.rps - b.rps) / low > tolerance(a, b, drift);
}

/**
 * Ranks `items` by a figure in groups that never overlap: sorted best first, a group holds every
 * item `apart(best, item)` does not tell from its best; ranks are 1 + the items before (1, 1, 3),
 * so a rank never goes down and then up. A null figure gets null.
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

/** Sets `rank` on each row of a comparison group by rps (rankGroups); a failed row gets null. */
export function rankRows(rows, drift = null) {
  const ranks = rankGroups(rows, {
    value: (row) => (row.failed ? null : row.rps),
    apart: (best, row) => distinguishable(best, row, drift),
  });
  for (const row of rows) row.rank = ranks.get(row);
  return rows;
}

export function storeTimesApart(best, other) {
  const difference = Math.abs(other - best);
  return difference > STORE_TIME_FLOOR_MS && difference > STORE_TIME_NOISE * Math.min(best, other);
}

/** Sets `storeRank` on each row by its store time p50 (lower is better), as rank does for rps. */
export function rankStoreTimes(rows) {
  const ranks = rankGroups(rows, {
    value: (row) => (row.failed ? null : row.storeTime?.p50Ms ?? null),
    better: 'lower',
    apart: (best, row) => storeTimesApart(best.storeTime.p50Ms, row.storeTime.p50Ms),
  });
  for (const row of rows) row.storeRank = ranks.get(row);
  return rows;
}
