// The repeats of one step summarised.
import { spread } from '../util/stats.js';

export const loadOf = (step) => (step.model === 'open' ? step.targetRps : step.concurrency);

/** The steps grouped into cells (URL, load level), repeats in the order run. */
export function groupRepeats(steps) {
  const cells = new Map();
  for (const step of steps) {
    const id = `${step.url}\u0000${step.model}\u0000${loadOf(step)}`;
    if (!cells.has(id)) {
      const { url, store, key, model, framework } = step;
      cells.set(id, { url, store, key, ...(framework ? { framework } : {}), model, load: loadOf(step), steps: [] });
    }
    cells.get(id).steps.push(step);
  }
  return [...cells.values()];
}

/** What a cell's repeats say together: each figure's spread, errors and requests summed, warnings once. */
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
