// The order steps run in. Interleaved by default (each level, every target, shuffled with the
// run's seed): a slow moment of a shared machine falls on all stores alike, and no store is
// always first (a first store loses 30-57%: docs/measurement.md).
import { createRandom } from '../util/random.js';

const DEFAULT_REPEAT = 1;
// The stream of the seed the shuffles draw from (the workloads use 0 and up for their own).
const ORDER_STREAM = 101;

function shuffled(items, random) {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = random.below(i + 1);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/**
 * The steps of a sweep in run order: [{ target, load, repeat, first, last }]. Repeats are
 * always interleaved, even with `order` 'sequential'.
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

/** The order a schedule runs in, as a Result records it: [{ load, repeat, urls }]. */
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
