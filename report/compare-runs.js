// node test compare A.json B.json: two saved runs side by side. Steps match by store, key,
// mode and load level (not by URL: an embedded app gets a new port every run); for each match
// the rps, mean, p50 and p99 of both (medians of their repeats), the change in %, and whether
// the change is within noise (the repeats' min-max ranges overlap). Steps only one run has are
// listed, never dropped. --fail-on-regression PCT: an rps down or a p99 up by more than PCT %
// is a regression (exit 3).
import { groupRepeats, summarizeCell } from '../driver/repeat.js';
import { rangesOverlap } from '../util/stats.js';
import { ThresholdError } from '../util/errors.js';
import { formatMs, formatRps, renderTable } from './table.js';
import { renderSystemLine } from './system.js';

// The figures compared, named as in a step; `better` says which way is an improvement.
export const COMPARED_FIGURES = [
  { name: 'rps', pick: (summary) => summary.rps, format: formatRps, better: 'higher' },
  { name: 'latency.meanMs', pick: (summary) => summary.latency.meanMs, format: formatMs, better: 'lower' },
  { name: 'latency.p50Ms', pick: (summary) => summary.latency.p50Ms, format: formatMs, better: 'lower' },
  { name: 'latency.p99Ms', pick: (summary) => summary.latency.p99Ms, format: formatMs, better: 'lower' },
];
const SHORT_NAMES = { rps: 'rps', 'latency.meanMs': 'mean ms', 'latency.p50Ms': 'p50 ms', 'latency.p99Ms': 'p99 ms' };

const identity = (cell) => `${cell.store}\u0000${cell.key}\u0000${cell.model}\u0000${cell.load}`;
const cellName = (cell) => `${cell.store} ${cell.key} ${cell.model === 'open' ? `${cell.load} rps` : `concurrency ${cell.load}`}`;

/** The cells of a Result, merged by identity (store, key, model, load), each with its summary. */
function cellsOf(result) {
  const cells = new Map();
  for (const cell of groupRepeats(result.steps)) {
    const id = identity(cell);
    if (cells.has(id)) cells.get(id).steps.push(...cell.steps);
    else cells.set(id, { ...cell, steps: [...cell.steps] });
  }
  for (const cell of cells.values()) cell.summary = summarizeCell(cell);
  return cells;
}

/** The settings that differ between the runs, as "duration: 2 vs 5". */
function settingsDiffer(a, b) {
  const lines = [];
  for (const name of ['concurrency', 'rps', 'requests', 'duration', 'warmup', 'keepAlive', 'timeoutMs', 'repeat', 'engine']) {
    // A file from before --engine was sent by loadtest (or, in direct mode, by neither: both the same).
    const valueOf = (run) => (name === 'engine' ? run.settings.engine ?? 'loadtest' : run.settings[name]);
    const [x, y] = [JSON.stringify(valueOf(a)), JSON.stringify(valueOf(b))];
    if (x !== y) lines.push(`${name}: ${x} vs ${y}`);
  }
  return lines;
}

/**
 * Compares two Results: { rows, onlyA, onlyB, settings, regressions }. rows: one per matching
 * step, in A's order: { store, key, model, load, repeats: [a, b], figures: [{ name, a, b,
 * changePercent, withinNoise, regression }] }. withinNoise: true when both runs have 2+ repeats
 * and their min-max ranges overlap, false when they do not, null with a single run on either
 * side (no noise to judge by). regression: with failOnRegression, an rps fallen or a p99 risen
 * by more than that %.
 */
export function compareRuns(a, b, { failOnRegression = null } = {}) {
  const cellsA = cellsOf(a);
  const cellsB = cellsOf(b);
  const rows = [];
  const regressions = [];
  for (const [id, cellA] of cellsA) {
    const cellB = cellsB.get(id);
    if (!cellB) continue;
    const figures = COMPARED_FIGURES.map((figure) => {
      const [x, y] = [figure.pick(cellA.summary), figure.pick(cellB.summary)];
      const changePercent = x.median === null || y.median === null || x.median === 0 ? null : ((y.median - x.median) / x.median) * 100;
      const judged = cellA.summary.repeats > 1 && cellB.summary.repeats > 1 && x.median !== null && y.median !== null;
      const withinNoise = judged ? rangesOverlap(x, y) : null;
      let regression = false;
      if (failOnRegression !== null && changePercent !== null) {
        if (figure.name === 'rps' && changePercent < -failOnRegression) regression = true;
        if (figure.name === 'latency.p99Ms' && changePercent > failOnRegression) regression = true;
      }
      return { name: figure.name, a: x.median, b: y.median, changePercent, withinNoise, regression };
    });
    const row = { store: cellA.store, key: cellA.key, model: cellA.model, load: cellA.load, repeats: [cellA.summary.repeats, cellB.summary.repeats], figures };
    rows.push(row);
    for (const figure of figures) if (figure.regression) regressions.push({ row, figure });
  }
  const onlyA = [...cellsA.keys()].filter((id) => !cellsB.has(id)).map((id) => cellName(cellsA.get(id)));
  const onlyB = [...cellsB.keys()].filter((id) => !cellsA.has(id)).map((id) => cellName(cellsB.get(id)));
  return { rows, onlyA, onlyB, settings: settingsDiffer(a, b), regressions, failOnRegression };
}

const signed = (value) => (value === null ? '-' : `${value > 0 ? '+' : ''}${value.toFixed(1)}%`);
const noiseText = (figure) => (figure.withinNoise === null ? '' : figure.withinNoise ? 'within noise' : 'beyond noise');

/** The comparison as text: which runs, settings that differ, a table per key, unmatched steps, regressions. */
export function renderRunComparison(comparison, { a, b, nameA = 'A', nameB = 'B' }) {
  const lines = [
    `A: ${nameA} · ${a.system.date} · ${a.system.target}`,
    `B: ${nameB} · ${b.system.date} · ${b.system.target}`,
  ];
  const systemOf = (run) => renderSystemLine(run.system, { date: false, engine: run.settings.engine }).replace(/^System:\s*/, '');
  if (systemOf(a) === systemOf(b)) lines.push(`System:  ${systemOf(a)} (both)`);
  else lines.push(`System A: ${systemOf(a)}`, `System B: ${systemOf(b)}`);
  if (comparison.settings.length) lines.push(`settings differ: ${comparison.settings.join('; ')}`);
  const keys = [...new Set(comparison.rows.map((row) => row.key))];
  for (const key of keys) {
    const rows = comparison.rows.filter((row) => row.key === key);
    const loadHeader = rows[0].model === 'open' ? 'targetRps' : 'concurrency';
    const body = [];
    for (const row of rows) {
      row.figures.forEach((figure, index) => {
        const spec = COMPARED_FIGURES.find((candidate) => candidate.name === figure.name);
        const shown = (value) => (value === null ? '-' : spec.format(value));
        body.push([
          index === 0 ? String(row.load) : '',
          index === 0 ? row.store : '',
          SHORT_NAMES[figure.name],
          shown(figure.a),
          shown(figure.b),
          signed(figure.changePercent),
          [noiseText(figure), figure.regression ? `REGRESSION (over ${comparison.failOnRegression}%)` : ''].filter(Boolean).join(', '),
        ]);
      });
    }
    const headers = [loadHeader, 'store', 'figure', 'A', 'B', 'change', 'noise'];
    const align = headers.map((header) => (['store', 'figure', 'noise'].includes(header) ? 'left' : 'right'));
    lines.push('', `## ${key}: A -> B`, renderTable(headers, body, { align }));
  }
  if (!comparison.rows.length) lines.push('', 'no step of A matches one of B (same store, key, model and load level)');
  const repeated = comparison.rows.some((row) => row.repeats[0] > 1 && row.repeats[1] > 1);
  lines.push('', repeated
    ? 'figures: medians of the repeats; within noise: the repeats\' min-max ranges of A and B overlap'
    : 'one run per step on at least one side: no noise to judge changes by (run both with --repeat 3 or more)');
  if (comparison.onlyA.length) lines.push(`only in A (not compared): ${comparison.onlyA.join(', ')}`);
  if (comparison.onlyB.length) lines.push(`only in B (not compared): ${comparison.onlyB.join(', ')}`);
  if (comparison.failOnRegression !== null) {
    lines.push(comparison.regressions.length
      ? `${comparison.regressions.length} regression(s) beyond ${comparison.failOnRegression}%`
      : `no regression beyond ${comparison.failOnRegression}% (rps down or p99 up)`);
  }
  return `${lines.join('\n')}\n`;
}

/** ThresholdError (code REGRESSION, exit 3) naming each regression, or null. */
export function regressionError(comparison) {
  if (!comparison.regressions.length) return null;
  return new ThresholdError(comparison.regressions.map(({ row, figure }) =>
    `regression: ${row.store} ${row.key} ${row.model === 'open' ? `${row.load} rps` : `concurrency ${row.load}`}: ${SHORT_NAMES[figure.name]} ${signed(figure.changePercent)} (more than ${comparison.failOnRegression}%)`,
  ).join('\n'), 'REGRESSION');
}
