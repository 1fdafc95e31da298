// node test compare A.json B.json as text: the comparison result/run-comparison.js judges (which
// runs, the settings that differ, a table per key, the unmatched steps, the regressions), and
// the REGRESSION error that exits 3.
import { ThresholdError } from '../util/errors.js';
import { formatMs, formatRps, renderTable } from './table.js';
import { renderSystemLine } from './system.js';

// How each compared figure reads in the table.
const FORMATS = { rps: formatRps, 'latency.meanMs': formatMs, 'latency.p50Ms': formatMs, 'latency.p99Ms': formatMs };
const SHORT_NAMES = { rps: 'rps', 'latency.meanMs': 'mean ms', 'latency.p50Ms': 'p50 ms', 'latency.p99Ms': 'p99 ms' };

/** "BUSY_MACHINE in 3 of 3 repeats (other processes up to 85% of a core), CPU_STEAL in 1 of 3 (steal up to 12%)". */
function machineWarningsText(warnings) {
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
        const shown = (value) => (value === null ? '-' : FORMATS[figure.name](value));
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
