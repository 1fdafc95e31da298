// The comparison: for each key and load level, every store's figures side by side and its rps
// against the fastest's. With --repeat a row's figures are the repeats' medians.
import { groupRepeats, summarizeCell } from './repeat.js';
import { median, rangesOverlap } from '../util/stats.js';
import {
  answeredShare, distinguishable, failedStep, rankRows, rankStoreTimes, stepNoise, storeTimeNoise, tolerance,
} from './ranking.js';
import { commonBottleneck, sharedBottleneck } from './bottleneck.js';

// Nothing behind the app can answer faster than the in-process map, so beating it by more than
// this is a finding to explain (on a busy VM, postgres once read 2071 rps against memory's 1351).
export const BASELINE_STORE = 'memory';
export const BASELINE_TOLERANCE = 0.1;

const range = ({ min, max, mean, ciLow, ciHigh }) => ({ min, max, mean, ciLow, ciHigh });

/** A row's name: its store, and its framework where several served the run (`redis on fastify`). */
export const rowNamer = (rows) => (new Set(rows.map((row) => row.framework)).size > 1
  ? (row) => `${row.store} on ${row.framework}`
  : (row) => row.store);

/**
 * Groups steps by key, load and operation: [{ key, model, load, operation, rows }], fastest row
 * first, failed rows last. Operation null is the steps' totals; a workload of several operations
 * gets a group per operation besides, so like is compared with like. A row warns
 * FASTER_THAN_BASELINE when it beat `memory` by more than 10%.
 */
export function compareStores(steps, { drift = null } = {}) {
  const groups = new Map();
  const add = (cell, operation, figures) => {
    const id = `${cell.key}\u0000${cell.model}\u0000${cell.load}\u0000${operation ?? ''}`;
    if (!groups.has(id)) groups.set(id, { key: cell.key, model: cell.model, load: cell.load, operation, rows: [] });
    const summary = summarizeCell({ ...cell, steps: figures });
    groups.get(id).rows.push({
      store: cell.store,
      ...(cell.framework ? { framework: cell.framework } : {}),
      repeats: summary.repeats,
      rps: summary.rps.median,
      latency: { meanMs: summary.latency.meanMs.median, p99Ms: summary.latency.p99Ms.median },
      storeTime: storeTimeOf(figures),
      errors: { total: summary.errors.total, byKind: errorKinds(figures), samples: errorSamples(figures) },
      failed: figures.every(failedStep),
      noise: figures.length === 1 ? stepNoise(figures[0]) : null,
      rank: null,
      ratio: null,
      spread: {
        rps: range(summary.rps),
        latency: { meanMs: range(summary.latency.meanMs), p99Ms: range(summary.latency.p99Ms) },
      },
      overlaps: [],
      warnings: summary.warnings,
    });
    Object.assign(groups.get(id).rows.at(-1), {
      bottleneck: commonBottleneck(figures),
      storeRank: null,
      storeAnswered: storeTimeOf(figures) ? answeredShare(figures) : null,
    });
  };
  for (const cell of groupRepeats(steps)) {
    add(cell, null, cell.steps);
    const named = (step) => (step.operations?.length > 1 ? step.operations.map((figures) => figures.operation) : []);
    const operations = [...new Set(cell.steps.flatMap(named))];
    for (const operation of operations) {
      const figures = cell.steps.flatMap((step) => (step.operations ?? [])
        .filter((entry) => entry.operation === operation)
        .map((entry) => ({ ...entry, intervals: null, warnings: step.warnings, bottleneck: step.bottleneck })));
      add(cell, operation, figures);
    }
  }
  const result = [...groups.values()];
  const nameOf = rowNamer(result.flatMap((group) => group.rows));
  for (const group of result) {
    const ranked = group.rows.filter((row) => !row.failed);
    const fastest = Math.max(0, ...ranked.map((row) => row.rps));
    group.rows.sort((a, b) => a.failed - b.failed || b.rps - a.rps);
    // Each row against the in-process map on its own framework (another framework is another app).
    const baselineOf = (row) => ranked.find((other) => other.store === BASELINE_STORE &&
      other.framework === row.framework);
    for (const row of group.rows) {
      row.ratio = fastest > 0 && !row.failed ? row.rps / fastest : null;
      if (row.repeats > 1) {
        row.overlaps = ranked
          .filter((other) => other !== row && other.repeats > 1 && rangesOverlap(row.spread.rps, other.spread.rps))
          .map(nameOf);
      }
      const baseline = baselineOf(row);
      if (baseline && !row.failed && row !== baseline && fasterThanBaseline(row, baseline, drift)) {
        row.warnings.push('FASTER_THAN_BASELINE');
      }
    }
    rankRows(group.rows, drift);
    rankStoreTimes(group.rows, drift);
    group.bottleneck = sharedBottleneck(group.rows);
  }
  const keyOrder = [...new Set(steps.map((step) => step.key))];
  const operationOrder = [
    null,
    ...new Set(steps.flatMap((step) => (step.operations ?? []).map((figures) => figures.operation))),
  ];
  return result.sort((a, b) => keyOrder.indexOf(a.key) - keyOrder.indexOf(b.key) ||
    operationOrder.indexOf(a.operation) - operationOrder.indexOf(b.operation) ||
    a.load - b.load);
}

/**
 * A row's store time, each figure the median over repeats: it tells stores apart where the app
 * limits rps. With its repeats' p50 range and, from one repeat, its seconds' noise (ranking.js).
 */
export function storeTimeOf(figures) {
  const known = figures.map((entry) => entry.storeTime).filter(Boolean);
  if (!known.length) return null;
  const of = (name) => median(known.map((storeTime) => storeTime[name]));
  const p50s = known.map((storeTime) => storeTime.p50Ms);
  return {
    p50Ms: of('p50Ms'),
    p99Ms: of('p99Ms'),
    meanMs: of('meanMs'),
    p50MinMs: Math.min(...p50s),
    p50MaxMs: Math.max(...p50s),
    noise: figures.length === 1 ? storeTimeNoise(figures[0]) : null,
  };
}

// Beating the in-process map by more than BASELINE_TOLERANCE and beyond the run's noise.
function fasterThanBaseline(row, baseline, drift) {
  if (!distinguishable(row, baseline, drift)) return false;
  const margin = row.repeats > 1 && baseline.repeats > 1
    ? BASELINE_TOLERANCE
    : Math.max(BASELINE_TOLERANCE, tolerance(row, baseline, drift));
  return row.rps > baseline.rps * (1 + margin);
}

function errorKinds(figures) {
  const byKind = {};
  for (const { errors } of figures) {
    for (const [kind, n] of Object.entries(errors.byKind ?? {})) byKind[kind] = (byKind[kind] ?? 0) + n;
  }
  return byKind;
}

function errorSamples(figures) {
  const samples = {};
  for (const { errors } of figures) {
    for (const [kind, text] of Object.entries(errors.samples ?? {})) samples[kind] ??= text;
  }
  return samples;
}
