// --assert: thresholds checked per store against every step of it, on the figure the tables show
// (with --repeat, the median). A threshold naming a store no step measured fails ("not measured").
import { groupRepeats, summarizeCell } from './repeat.js';
import { LATENCY_METRICS } from '../config/thresholds.js';

const COMPARE = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
  '=': (a, b) => a === b,
};

/** The figure a threshold looks at in a cell's summary (null when the cell has none, e.g. no response). */
function figureOf(threshold, summary) {
  if (threshold.kind === 'latency') return summary.latency[LATENCY_METRICS[threshold.metric]].median;
  if (threshold.kind === 'rps') return summary.rps.median;
  if (threshold.unit === '%') return summary.requests ? (summary.errors.total / summary.requests) * 100 : null;
  return summary.errors.total;
}

const badness = (threshold, value) => (value === null ? Infinity : threshold.kind === 'rps' ? -value : value);

/** One row per threshold and store: { threshold, store, checked, failed, worst, pass }. */
export function checkThresholds(result, thresholds) {
  const cells = groupRepeats(result.steps).map((cell) => ({ ...cell, summary: summarizeCell(cell) }));
  const rows = [];
  for (const threshold of thresholds) {
    const applicable = cells.filter((cell) => threshold.store === null || cell.store === threshold.store);
    const stores = [...new Set(applicable.map((cell) => cell.store))];
    if (!stores.length) {
      rows.push({ threshold, store: threshold.store ?? '(any)', checked: 0, failed: 0, worst: null, pass: false });
      continue;
    }
    for (const store of stores) {
      const mine = applicable.filter((cell) => cell.store === store);
      let failed = 0;
      let worst = null;
      for (const cell of mine) {
        const value = figureOf(threshold, cell.summary);
        if (value === null || !COMPARE[threshold.op](value, threshold.limit)) failed += 1;
        if (!worst || badness(threshold, value) > badness(threshold, worst.value)) {
          worst = { key: cell.key, model: cell.model, load: cell.load, value };
        }
      }
      rows.push({ threshold, store, checked: mine.length, failed, worst, pass: failed === 0 });
    }
  }
  return rows;
}
