// The repeats of one step summarised (driver/schedule.js plans the order steps run in).
import { spread } from '../util/stats.js';

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
    if (!cells.has(id)) {
      const { url, store, key, model } = step;
      cells.set(id, { url, store, key, model, load: loadOf(step), steps: [] });
    }
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
