// --assert's table and error: which thresholds held, from the rows result/threshold-check.js
// judges.
import { ThresholdError } from '../util/errors.js';
import { formatMs, formatRps, renderTable } from './table.js';

function formatValue(threshold, value) {
  if (value === null) return 'no response';
  if (threshold.kind === 'latency') return `${formatMs(value)} ms`;
  if (threshold.kind === 'rps') return `${formatRps(value)} rps`;
  return threshold.unit === '%' ? `${value.toFixed(2)}%` : String(value);
}

const where = (worst) => `${worst.key} ${worst.model === 'open' ? `${worst.load} rps` : `c${worst.load}`}`;

/** The thresholds table: one row per threshold and store, PASS or FAIL, and the worst step. */
export function renderThresholds(rows) {
  if (!rows.length) return '';
  const headers = ['threshold', 'store', 'steps', 'failed', 'worst', 'result'];
  const body = rows.map((row) => [
    row.threshold.text,
    row.store,
    String(row.checked),
    String(row.failed),
    row.worst ? `${formatValue(row.threshold, row.worst.value)} (${where(row.worst)})` : 'not measured',
    row.pass ? 'pass' : 'FAIL',
  ]);
  const align = headers.map((header) => (['steps', 'failed'].includes(header) ? 'right' : 'left'));
  const failed = rows.filter((row) => !row.pass).length;
  const verdict = failed ? `${failed} of ${rows.length} checks failed` : `all ${rows.length} checks passed`;
  const heading = '## Thresholds (--assert; per store, every step: with repeats, the medians)';
  return `${heading}\n${renderTable(headers, body, { align })}\n${verdict}`;
}

/** ThresholdError (exit 3) naming each failed check, or null when every one passed. */
export function thresholdsError(rows) {
  const failed = rows.filter((row) => !row.pass);
  if (!failed.length) return null;
  const line = (row) => (row.worst
    ? `${row.threshold.text} failed for ${row.store}: ${row.failed} of ${row.checked} steps, ` +
      `worst ${formatValue(row.threshold, row.worst.value)} at ${where(row.worst)}`
    : `${row.threshold.text}: no step measured ${row.store}`);
  return new ThresholdError(failed.map(line).join('\n'));
}
