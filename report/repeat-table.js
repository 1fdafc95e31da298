// A URL's table with --repeat N: one row per load level, each figure the median of its
// repeats, with the range they spanned and, from 5 repeats, the 95% interval of their mean.
// Every repeat's step stays in the results file; this is how they read together.
import { groupRepeats, summarizeCell } from '../result/repeat.js';
import { formatRange } from './comparison-table.js';
import { firstAnswersLine, formatMs, formatRps, renderTable, tableHeading } from './table.js';
import { storeTimeOf } from '../result/comparison.js';
import { hasServerStoreTime, storeTimeNote } from './store-time.js';
import { bottleneckText, commonBottleneck } from '../result/bottleneck.js';

const loadName = (step) => (step.model === 'open' ? `rps ${step.targetRps}` : `concurrency ${step.concurrency}`);

/** What a repeats table's columns mean: once under all of a run's tables by default, under each with --verbose. */
export function repeatTableLegends(steps) {
  const ci = showsInterval(steps) ? '; 95% CI: of the mean of the repeats (Student\'s t)' : '';
  const lines = [`median of the repeats; min-max: the range they spanned${ci}; errors: over all repeats`];
  const storeLine = storeTimeNote(steps);
  if (storeLine) lines.push(storeLine);
  return lines;
}

// From 5 repeats a cell has a 95% interval of its mean.
const showsInterval = (steps) => groupRepeats(steps).some((cell) => summarizeCell(cell).rps.ciLow !== null);

/** The table of one URL's steps (all its repeats); `legends: false` leaves repeatTableLegends out. */
export function renderRepeatTable(url, steps, { legends = true, framework = null } = {}) {
  const cells = groupRepeats(steps).map((cell) => ({ cell, summary: summarizeCell(cell) }));
  const interval = cells.some(({ summary }) => summary.rps.ciLow !== null);
  const headers = ['concurrency', 'repeats', 'rps', 'rps min-max'];
  if (interval) headers.push('rps 95% CI');
  headers.push('meanLatencyMs', 'mean min-max');
  if (interval) headers.push('mean 95% CI');
  headers.push('p99', 'p99 min-max');
  if (interval) headers.push('p99 95% CI');
  // The store's own time (Server-Timing): the median over the repeats, as in the comparison.
  const stored = hasServerStoreTime(steps);
  if (stored) headers.push('storeP50', 'storeP99');
  const limited = steps.some((step) => step.bottleneck?.tier);
  if (limited) headers.push('bottleneck');
  headers.push('errors');
  const rows = cells.map(({ cell, summary }) => {
    const first = cell.steps[0];
    const load = first.model === 'open' ? `${first.targetRps} rps` : first.concurrency;
    const row = [String(load), String(summary.repeats)];
    const figure = (spread, format) => {
      row.push(spread.median === null ? '-' : format(spread.median), formatRange(spread.min, spread.max, format));
      if (interval) row.push(formatRange(spread.ciLow, spread.ciHigh, format));
    };
    figure(summary.rps, formatRps);
    figure(summary.latency.meanMs, formatMs);
    figure(summary.latency.p99Ms, formatMs);
    if (stored) {
      const storeTime = storeTimeOf(cell.steps);
      row.push(formatMs(storeTime?.p50Ms ?? null), formatMs(storeTime?.p99Ms ?? null));
    }
    if (limited) row.push(bottleneckText(commonBottleneck(cell.steps)));
    row.push(String(summary.errors.total));
    return row;
  });
  const align = headers.map((header) => (header === 'errors' || header === 'bottleneck' ? 'left' : 'right'));
  const lines = [tableHeading(url, null, framework), renderTable(headers, rows, { align })];
  if (legends) lines.push(...repeatTableLegends(steps));
  const isWeak = (warning) => warning.code === 'WEAK_SAMPLE';
  const weak = steps.filter((step) => step.warnings.some(isWeak));
  if (weak.length) {
    const { minSamples, minSeconds } = weak[0].warnings.find(isWeak).data;
    lines.push(`warning: statistically weak, under ${minSamples} samples or ${minSeconds} s ` +
      `(use a larger -n or -t): ${weak.length} of ${steps.length} steps`);
  }
  for (const step of steps) {
    for (const warning of step.warnings) {
      if (!isWeak(warning)) lines.push(`warning (${loadName(step)}, repeat ${step.repeat}): ${warning.message}`);
    }
  }
  const answers = firstAnswersLine(steps.map((step) => step.errors), lines);
  if (answers) lines.push(answers);
  return lines.join('\n');
}
