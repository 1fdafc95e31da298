// node test compare A.json B.json: two saved runs side by side. Steps match by store, key,
// mode and load level (not by URL: an embedded app gets a new port every run); for each match
// the rps, mean, p50 and p99 of both (medians of their repeats), the change in %, and whether
// the change is within noise (the repeats' min-max ranges overlap). Steps only one run has are
// listed, never dropped. --fail-on-regression PCT: an rps down or a p99 up by more than PCT %
// is a regression (exit 3). Each regression names the machine warnings (CPU_STEAL,
// BUSY_MACHINE) its steps carried; --ignore-busy does not fail on one whose step in B warned.
import { groupRepeats, summarizeCell } from '../result/repeat.js';
import { MACHINE_CODES } from './machine-summary.js';
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
const cellName = (cell) =>
  `${cell.store} ${cell.key} ${cell.model === 'open' ? `${cell.load} rps` : `concurrency ${cell.load}`}`;

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

// The figure each machine warning is about, as a step's `machine` holds it.
const MACHINE_FIGURES = { CPU_STEAL: 'stealPercent', BUSY_MACHINE: 'othersCpuPercent' };

/**
 * A cell's machine warnings: [{ code, steps (how many of its repeats carried it), of, peak
 * (the highest figure behind it, in %) }], in MACHINE_CODES' order; empty when none warned.
 */
function machineWarningsOf(cell) {
  return [...MACHINE_CODES].map((code) => {
    const warned = cell.steps.filter((step) => step.warnings.some((warning) => warning.code === code));
    const figures = warned.map((step) => step.machine[MACHINE_FIGURES[code]]).filter(Number.isFinite);
    return { code, steps: warned.length, of: cell.steps.length, peak: figures.length ? Math.max(...figures) : null };
  }).filter((entry) => entry.steps > 0);
}

// Two Results that hold the same steps, timestamps and histograms included, are one run.
const sameRun = (a, b) => a.steps.length > 0 && JSON.stringify(a.steps) === JSON.stringify(b.steps);

/** The settings that differ between the runs, as "duration: 2 vs 5". */
function settingsDiffer(a, b) {
  const lines = [];
  const names = ['concurrency', 'rps', 'requests', 'duration', 'warmup', 'keepAlive', 'timeoutMs', 'repeat', 'engine',
    'pipeline'];
  for (const name of names) {
    // A file from before --engine was sent by loadtest (or, in direct mode, by neither: both the
    // same); one from before --pipeline sent one call at a time.
    const before = { engine: 'loadtest', pipeline: 1 };
    const valueOf = (run) => run.settings[name] ?? before[name];
    const [x, y] = [JSON.stringify(valueOf(a)), JSON.stringify(valueOf(b))];
    if (x !== y) lines.push(`${name}: ${x} vs ${y}`);
  }
  return lines;
}

/**
 * Compares two Results: { rows, onlyA, onlyB, settings, regressions, ignored, identical }.
 * rows: one per matching step, in A's order: { store, key, model, load, repeats: [a, b],
 * machine: { a, b } (machineWarningsOf each side), figures: [{ name, a, b, changePercent,
 * withinNoise, regression, ignored }] }. withinNoise: true when both runs have 2+ repeats and
 * their min-max ranges overlap, false when they do not, null with a single run on either side
 * (no noise to judge by). regression: with failOnRegression, an rps fallen or a p99 risen by
 * more than that %; with ignoreBusy, one whose step in B carried a machine warning is `ignored`
 * instead (listed in `ignored`, not in `regressions`). A busy machine during A made A slower,
 * which can hide a regression but never make one, so only B's warnings excuse it.
 * identical: A and B hold the same steps (one file given twice, or a copy).
 */
export function compareRuns(a, b, { failOnRegression = null, ignoreBusy = false } = {}) {
  const cellsA = cellsOf(a);
  const cellsB = cellsOf(b);
  const rows = [];
  const regressions = [];
  const ignored = [];
  for (const [id, cellA] of cellsA) {
    const cellB = cellsB.get(id);
    if (!cellB) continue;
    const machine = { a: machineWarningsOf(cellA), b: machineWarningsOf(cellB) };
    const excused = ignoreBusy && machine.b.length > 0;
    const figures = COMPARED_FIGURES.map((figure) => {
      const [x, y] = [figure.pick(cellA.summary), figure.pick(cellB.summary)];
      const changePercent = x.median === null || y.median === null || x.median === 0
        ? null
        : ((y.median - x.median) / x.median) * 100;
      const judged = cellA.summary.repeats > 1 && cellB.summary.repeats > 1 && x.median !== null && y.median !== null;
      const withinNoise = judged ? rangesOverlap(x, y) : null;
      let regression = false;
      if (failOnRegression !== null && changePercent !== null) {
        if (figure.name === 'rps' && changePercent < -failOnRegression) regression = true;
        if (figure.name === 'latency.p99Ms' && changePercent > failOnRegression) regression = true;
      }
      const counted = { regression: regression && !excused, ignored: regression && excused };
      return { name: figure.name, a: x.median, b: y.median, changePercent, withinNoise, ...counted };
    });
    const repeats = [cellA.summary.repeats, cellB.summary.repeats];
    const row = { store: cellA.store, key: cellA.key, model: cellA.model, load: cellA.load, repeats, machine, figures };
    rows.push(row);
    for (const figure of figures) {
      if (figure.regression) regressions.push({ row, figure });
      if (figure.ignored) ignored.push({ row, figure });
    }
  }
  const onlyA = [...cellsA.keys()].filter((id) => !cellsB.has(id)).map((id) => cellName(cellsA.get(id)));
  const onlyB = [...cellsB.keys()].filter((id) => !cellsA.has(id)).map((id) => cellName(cellsB.get(id)));
  const settings = settingsDiffer(a, b);
  return { rows, onlyA, onlyB, settings, regressions, ignored, failOnRegression, ignoreBusy, identical: sameRun(a, b) };
}

/** "BUSY_MACHINE in 3 of 3 repeats (other processes up to 85% of a core), CPU_STEAL in 1 of 3 (steal up to 12%)". */
export function machineWarningsText(warnings) {
  const peak = (entry) => {
    if (entry.peak === null) return '';
    const percent = Math.round(entry.peak);
    return entry.code === 'CPU_STEAL' ? ` (steal up to ${percent}%)` : ` (other processes up to ${percent}% of a core)`;
  };
  const unit = (entry, index) => (index === 0 ? ` ${entry.of === 1 ? 'step' : 'repeats'}` : '');
  const one = (entry, index) => `${entry.code} in ${entry.steps} of ${entry.of}${unit(entry, index)}${peak(entry)}`;
  return warnings.map(one).join(', ');
}

// The codes alone, for the table's narrow column: "BUSY_MACHINE 3/3, CPU_STEAL 1/3".
const machineCodes = (warnings) => warnings.map((entry) => `${entry.code} ${entry.steps}/${entry.of}`).join(', ');

const signed = (value) => (value === null ? '-' : `${value > 0 ? '+' : ''}${value.toFixed(1)}%`);
const noiseText = (figure) => (figure.withinNoise === null ? '' : figure.withinNoise ? 'within noise' : 'beyond noise');

/** The comparison as text: which runs, settings that differ, a table per key, unmatched steps, regressions. */
export function renderRunComparison(comparison, { a, b, nameA = 'A', nameB = 'B' }) {
  const lines = [
    `A: ${nameA} · ${a.system.date} · ${a.system.target}`,
    `B: ${nameB} · ${b.system.date} · ${b.system.target}`,
  ];
  if (comparison.identical) {
    lines.push(`identical runs: A and B hold the same ${a.steps.length} steps (same start times, same histograms), ` +
      'so every change is 0 and says nothing about noise or regressions; compare two runs made apart');
  }
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
          [noiseText(figure), regressionText(figure, row, comparison)].filter(Boolean).join(', '),
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
  const warned = (side) => comparison.rows.filter((row) => row.machine[side].length).length;
  const [warnedA, warnedB] = [warned('a'), warned('b')];
  if (warnedA || warnedB) {
    const compared = comparison.rows.length;
    lines.push(`machine warnings (CPU_STEAL, BUSY_MACHINE): ${warnedA} of ${compared} compared steps in A, ` +
      `${warnedB} in B: a change there may be the machine's, not the store's`);
  }
  if (comparison.failOnRegression !== null) lines.push(...regressionSummary(comparison));
  return `${lines.join('\n')}\n`;
}

// The table's note on a figure that regressed: whether it counts, and B's machine warnings beside it.
function regressionText(figure, row, comparison) {
  if (!figure.regression && !figure.ignored) return '';
  const busy = row.machine.b.length ? ` B's machine busy: ${machineCodes(row.machine.b)}` : '';
  if (figure.ignored) return `regression (over ${comparison.failOnRegression}%) not counted (--ignore-busy):${busy}`;
  return `REGRESSION (over ${comparison.failOnRegression}%)${busy ? `,${busy}` : ''}`;
}

// The lines under the tables that say what the gate decided, and why busy steps did or did not count.
function regressionSummary({ regressions, ignored, failOnRegression, ignoreBusy }) {
  const limit = `${failOnRegression}%`;
  const busy = regressions.filter(({ row }) => row.machine.b.length).length;
  const none = `no regression beyond ${limit}${ignored.length ? ' counted' : ''} (rps down or p99 up)`;
  const lines = [regressions.length ? `${regressions.length} regression(s) beyond ${limit}` : none];
  if (busy) {
    lines.push(`${busy} of them on steps whose machine check warned in B (CPU_STEAL, BUSY_MACHINE): ` +
      'they may be the machine, not the change; re-run on a quiet machine, or add --ignore-busy not to fail on them');
  }
  if (ignoreBusy) {
    const notCounted = `${ignored.length} regression(s) beyond ${limit} not counted (--ignore-busy): ` +
      'their steps in B carried a machine warning, named above';
    const noneIgnored = '--ignore-busy: no regression was on a step whose machine check warned in B';
    lines.push(ignored.length ? notCounted : noneIgnored);
  }
  return lines;
}

/** ThresholdError (code REGRESSION, exit 3) naming each regression and its step's machine warnings in B, or null. */
export function regressionError(comparison) {
  if (!comparison.regressions.length) return null;
  return new ThresholdError(comparison.regressions.map(({ row, figure }) => {
    const busy = row.machine.b.length ? `; B's machine was busy: ${machineWarningsText(row.machine.b)}` : '';
    const load = row.model === 'open' ? `${row.load} rps` : `concurrency ${row.load}`;
    const limit = `more than ${comparison.failOnRegression}%`;
    const change = `${SHORT_NAMES[figure.name]} ${signed(figure.changePercent)} (${limit})`;
    return `regression: ${row.store} ${row.key} ${load}: ${change}${busy}`;
  }).join('\n'), 'REGRESSION');
}
