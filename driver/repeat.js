// --repeat N: the order steps run in, and the repeats of one step summarised.
//
// With repeats, steps are interleaved: at each load level every target once, then every
// target again (A B C, A B C, ...), then the next level. A slow moment of a shared machine
// then falls on all the stores alike, instead of on whichever store was being measured.
import { spread } from '../util/stats.js';

export const DEFAULT_REPEAT = 1;

/**
 * The steps of a sweep, in the order they run: [{ target, load, repeat, first, last }], where
 * repeat counts from 1, `first` marks a target's first step (its warm-up goes before it) and
 * `last` its last (its table can be printed). One repeat keeps the original order: every load
 * of a target, then the next target.
 */
export function planSchedule(targets, loads, repeat = DEFAULT_REPEAT) {
  const schedule = [];
  if (repeat <= 1) {
    for (const target of targets) for (const load of loads) schedule.push({ target, load, repeat: 1 });
  } else {
    for (const load of loads) {
      for (let round = 1; round <= repeat; round += 1) for (const target of targets) schedule.push({ target, load, repeat: round });
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

/** A step's load level: its concurrency, or its targetRps in the open model. */
export const loadOf = (step) => (step.model === 'open' ? step.targetRps : step.concurrency);

/**
 * The steps grouped into cells, one per URL and load level, each with its repeats in the order
 * run: [{ url, store, key, model, load, steps }], cells in the order first run.
 */
export function groupRepeats(steps) {
  const cells = new Map();
  for (const step of steps) {
    const id = `${step.url}\u0000${step.model}\u0000${loadOf(step)}`;
    if (!cells.has(id)) cells.set(id, { url: step.url, store: step.store, key: step.key, model: step.model, load: loadOf(step), steps: [] });
    cells.get(id).steps.push(step);
  }
  return [...cells.values()];
}

/**
 * What a cell's repeats say together: each figure's spread (util/stats.js: median, min, max,
 * mean and, from 5 repeats, the 95% interval of the mean), errors and requests summed, and the
 * codes of every repeat's warnings, each once.
 */
export function summarizeCell(cell) {
  const of = (pick) => spread(cell.steps.map(pick));
  return {
    repeats: cell.steps.length,
    rps: of((step) => step.rps),
    latency: {
      meanMs: of((step) => step.latency.meanMs),
      p50Ms: of((step) => step.latency.p50Ms),
      p90Ms: of((step) => step.latency.p90Ms),
      p99Ms: of((step) => step.latency.p99Ms),
      p999Ms: of((step) => step.latency.p999Ms),
      maxMs: of((step) => step.latency.maxMs),
    },
    requests: cell.steps.reduce((sum, step) => sum + step.requests, 0),
    errors: { total: cell.steps.reduce((sum, step) => sum + step.errors.total, 0) },
    warnings: [...new Set(cell.steps.flatMap((step) => step.warnings.map((warning) => warning.code)))],
  };
}
