// Which stores a comparison can tell apart, and their ranks: stores within the run's noise share
// a rank. Two rps are told apart past the largest of a floor, the control's drift and twice their
// combined standard error (about 95%); with --repeat, by their repeats' ranges not overlapping.
// Store times by the same rule, and a store that did not answer what it was asked ranks after
// those that did. docs/measurement.md argues the rules.
import { rangesOverlap } from '../util/stats.js';
import { CONFLICT_KIND } from './error-kinds.js';

// Below this, two rps are never told apart: a difference smaller than 5% did not survive a
// rerun on this VM even when both steps looked steady (docs/measurement.md).
export const NOISE_FLOOR = 0.05;
const MIN_INTERVALS = 3;
// Store time (the app's Server-Timing) is told apart by its p50 differing by more than this
// fraction of the faster one's and by more than STORE_TIME_FLOOR_MS (docs/measurement.md).
export const STORE_TIME_NOISE = 0.1;
export const STORE_TIME_FLOOR_MS = 0.02;
// A store time stands for the requests that got an answer (2xx): a store that answered fewer than
// this share of its requests is ranked after every store that answered them (docs/measurement.md).
export const STORE_ANSWERED_MIN = 0.99;

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

/**
 * The relative standard error of a step's store time p50, from its seconds' p50s (the timeline),
 * or null with fewer than 3 whole-enough seconds that have one.
 */
export function storeTimeNoise(step) {
  const p50s = (step.timeline ?? [])
    .filter((second) => second.seconds >= 0.5 && second.storeTime)
    .map((second) => second.storeTime.p50Ms);
  const n = p50s.length;
  if (n < MIN_INTERVALS) return null;
  const mean = p50s.reduce((sum, value) => sum + value, 0) / n;
  if (!(mean > 0)) return null;
  const variance = p50s.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
  return Math.sqrt(variance) / mean / Math.sqrt(n);
}

/**
 * The share of steps' requests that got an answer from the store (2xx; a 409 write conflict is the
 * store answering too), of those that ended: responses plus timeouts and connection errors.
 */
export function answeredShare(steps) {
  let answered = 0;
  let ended = 0;
  for (const { responses, errors } of steps) {
    const kinds = Object.entries(errors.byKind ?? {});
    const refused = kinds.filter(([kind]) => kind.startsWith('http ') && kind !== CONFLICT_KIND);
    const unanswered = kinds.filter(([kind]) => !kind.startsWith('http '));
    answered += responses - refused.reduce((sum, [, n]) => sum + n, 0);
    ended += responses + unanswered.reduce((sum, [, n]) => sum + n, 0);
  }
  return ended > 0 ? answered / ended : null;
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

/** Two store time p50s told apart: past the floor, and past `margin` (at least STORE_TIME_NOISE) of the smaller. */
export function storeTimesApart(best, other, margin = STORE_TIME_NOISE) {
  const difference = Math.abs(other - best);
  return difference > STORE_TIME_FLOOR_MS && difference > Math.max(STORE_TIME_NOISE, margin) * Math.min(best, other);
}

/**
 * Two rows' store times told apart as rps are: with --repeat by their repeats' p50 ranges not
 * overlapping, else past the larger of 10%, the control's drift and twice their per-second
 * spread's combined standard error; past the floor either way.
 */
function storeTimesDistinguishable(a, b, drift = null) {
  const [x, y] = [a.storeTime, b.storeTime];
  if (a.repeats > 1 && b.repeats > 1 && Number.isFinite(x.p50MinMs) && Number.isFinite(y.p50MinMs)) {
    return Math.abs(y.p50Ms - x.p50Ms) > STORE_TIME_FLOOR_MS &&
      !rangesOverlap({ min: x.p50MinMs, max: x.p50MaxMs }, { min: y.p50MinMs, max: y.p50MaxMs });
  }
  const errors = Math.sqrt((x.noise ?? 0) ** 2 + (y.noise ?? 0) ** 2);
  return storeTimesApart(x.p50Ms, y.p50Ms, Math.max(Math.abs(drift ?? 0), 2 * errors));
}

const answeredAll = (row) => (row.storeAnswered ?? 1) >= STORE_ANSWERED_MIN;

/**
 * Sets `storeRank` on each row by its store time p50 (lower is better), as rank does for rps.
 * A row whose store answered under STORE_ANSWERED_MIN of its requests has a store time of its
 * survivors only: it ranks after every row that answered (one shared rank), and its
 * `storeAnswered` says why.
 */
export function rankStoreTimes(rows, drift = null) {
  const timed = (row) => !row.failed && Number.isFinite(row.storeTime?.p50Ms);
  const ranks = rankGroups(rows, {
    value: (row) => (timed(row) && answeredAll(row) ? row.storeTime.p50Ms : null),
    better: 'lower',
    apart: (best, row) => storeTimesDistinguishable(best, row, drift),
  });
  const after = rows.filter((row) => ranks.get(row) !== null).length + 1;
  for (const row of rows) row.storeRank = timed(row) && !answeredAll(row) ? after : ranks.get(row);
  return rows;
}
