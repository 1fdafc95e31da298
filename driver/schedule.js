// The order steps run in (result/repeat.js summarises the repeats of one step).
//
// Steps are interleaved by default: at each load level one step of every target, in an order
// shuffled for that level (and repeat) with the run's seed, then the next level. A slow moment
// of a shared machine then falls on all the stores alike instead of on whichever store was being
// measured, and no store is always first (the first one used to lose 30-57%: docs/measurement.md).
// `sequential` keeps the old order: every load of a target, then the next target.
import { createRandom } from './workloads/random.js';

export const DEFAULT_REPEAT = 1;
export const ORDERS = ['interleaved', 'sequential'];
// The stream of the seed the shuffles draw from (the workloads use 0 and up for their own).
const ORDER_STREAM = 101;

/** `items` in a seeded random order (Fisher-Yates), a new array. */
function shuffled(items, random) {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = random.below(i + 1);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/**
 * The steps of a sweep, in the order they run: [{ target, load, repeat, first, last }], where
 * repeat counts from 1, `first` marks a target's first step and `last` its last.
 * `order` 'interleaved' (default): per load level and repeat, every target once, shuffled
 * with `seed` (without one, in the order given). 'sequential': every load of a target, then
 * the next target (with repeats, still every target per round: repeats are always interleaved).
 */
export function planSchedule(targets, loads, { repeat = DEFAULT_REPEAT, order = 'interleaved', seed = null } = {}) {
  const schedule = [];
  if (order === 'sequential' && repeat <= 1) {
    for (const target of targets) for (const load of loads) schedule.push({ target, load, repeat: 1 });
  } else {
    const random = seed === null ? null : createRandom(seed, ORDER_STREAM);
    for (const load of loads) {
      for (let round = 1; round <= repeat; round += 1) {
        const inOrder = order === 'interleaved' && random ? shuffled(targets, random) : targets;
        for (const target of inOrder) schedule.push({ target, load, repeat: round });
      }
    }
  }
  const seen = new Set();
  for (const item of schedule) {
    item.first = !seen.has(item.target);
    seen.add(item.target);
  }
  const ended = new Set();
  for (const item of [...schedule].reverse()) {
    item.last = !ended.has(item.target);
    ended.add(item.target);
  }
  return schedule;
}

/**
 * The order a schedule runs in, as a Result records it: one entry per load level and repeat,
 * in the order run, with the URLs in their order ([{ load, repeat, urls }]). `urlOf(target)`
 * gives the URL to show.
 */
export function orderOf(schedule, urlOf) {
  const rounds = [];
  for (const { target, load, repeat } of schedule) {
    const level = load.rps ?? load.concurrency;
    let round = rounds.at(-1);
    if (!round || round.load !== level || round.repeat !== repeat) {
      round = { load: level, repeat, urls: [] };
      rounds.push(round);
    }
    round.urls.push(urlOf(target));
  }
  return rounds;
}
