// The comparison: for each key and load level, every store's figures side by side and how
// its rps compares with the fastest store's at that same level. A row's figures are named as
// a step's (rps, latency.meanMs, latency.p99Ms, errors.total); with --repeat they are the
// medians of the repeats, and `spread` says how far the repeats ranged.
import { groupRepeats, summarizeCell } from './repeat.js';
import { rangesOverlap } from '../util/stats.js';

// The in-process map: nothing behind the app can answer faster, so a store measured faster
// than it by more than this is noise (issue 12: postgres 2071 rps, memory 1351, on a busy VM).
export const BASELINE_STORE = 'memory';
export const BASELINE_TOLERANCE = 0.1;

const range = ({ min, max, mean, ciLow, ciHigh }) => ({ min, max, mean, ciLow, ciHigh });

/**
 * Groups steps by key, load and operation: [{ key, model, load, operation, rows }], one row per
 * URL (a store), fastest first: { store, repeats, rps, latency: { meanMs, p99Ms }, errors: {
 * total }, ratio, spread, overlaps, warnings }. operation is null for the steps' totals; a
 * workload of several operations (steps with `operations`) gets a group per operation besides,
 * so like is compared with like. warnings holds the codes of its steps' warnings, plus
 * FASTER_THAN_BASELINE when it beat `memory` by more than 10%; overlaps names the stores whose
 * rps range over the repeats shares a point with this one's (not distinguishable here).
 */
export function compareStores(steps) {
  const groups = new Map();
  const add = (cell, operation, figures) => {
    const id = `${cell.key}\u0000${cell.model}\u0000${cell.load}\u0000${operation ?? ''}`;
    if (!groups.has(id)) groups.set(id, { key: cell.key, model: cell.model, load: cell.load, operation, rows: [] });
    const summary = summarizeCell({ ...cell, steps: figures });
    groups.get(id).rows.push({
      store: cell.store,
      repeats: summary.repeats,
      rps: summary.rps.median,
      latency: { meanMs: summary.latency.meanMs.median, p99Ms: summary.latency.p99Ms.median },
      errors: { total: summary.errors.total },
      ratio: null,
      spread: { rps: range(summary.rps), latency: { meanMs: range(summary.latency.meanMs), p99Ms: range(summary.latency.p99Ms) } },
      overlaps: [],
      warnings: summary.warnings,
    });
  };
  for (const cell of groupRepeats(steps)) {
    add(cell, null, cell.steps);
    const operations = [...new Set(cell.steps.flatMap((step) => (step.operations?.length > 1 ? step.operations.map((figures) => figures.operation) : [])))];
    for (const operation of operations) {
      // An operation's figures in each repeat, carrying its step's warnings.
      const figures = cell.steps.flatMap((step) => (step.operations ?? []).filter((entry) => entry.operation === operation).map((entry) => ({ ...entry, warnings: step.warnings })));
      add(cell, operation, figures);
    }
  }
  const result = [...groups.values()];
  for (const group of result) {
    const fastest = Math.max(...group.rows.map((row) => row.rps));
    group.rows.sort((a, b) => b.rps - a.rps);
    const baseline = group.rows.find((row) => row.store === BASELINE_STORE);
    for (const row of group.rows) {
      row.ratio = fastest > 0 ? row.rps / fastest : null;
      if (row.repeats > 1) {
        row.overlaps = group.rows
          .filter((other) => other !== row && other.repeats > 1 && rangesOverlap(row.spread.rps, other.spread.rps))
          .map((other) => other.store);
      }
      if (baseline && row !== baseline && row.rps > baseline.rps * (1 + BASELINE_TOLERANCE)) row.warnings.push('FASTER_THAN_BASELINE');
    }
  }
  // Keys in the order first seen, then the totals before each operation, then by load level.
  const keyOrder = [...new Set(steps.map((step) => step.key))];
  const operationOrder = [null, ...new Set(steps.flatMap((step) => (step.operations ?? []).map((figures) => figures.operation)))];
  return result.sort((a, b) => keyOrder.indexOf(a.key) - keyOrder.indexOf(b.key) ||
    operationOrder.indexOf(a.operation) - operationOrder.indexOf(b.operation) ||
    a.load - b.load);
}
