// The --csv file: one row per step, one column per step field that has a CSV column in
// fields.js, so it holds the same figures as the JSON under the table's names.
import { STEP_FIELDS } from './fields.js';
import { valueAt } from './shape.js';

const COLUMNS = STEP_FIELDS.filter((field) => field.csv).map((field) => ({
  name: field.csv,
  value: field.csvValue ?? ((step) => valueAt(step, field.path)),
}));

const csvCell = (value) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

export function buildCsv(steps) {
  const lines = [COLUMNS.map((column) => column.name).join(',')];
  for (const step of steps) lines.push(COLUMNS.map((column) => csvCell(column.value(step))).join(','));
  return `${lines.join('\n')}\n`;
}
