// The --csv file: one row per step, one column per step field that has a CSV column in
// fields.js, so it holds the same figures as the JSON under the table's names. The
// `operation` column says what a row counts: `all` for a step's row; a step of several
// operations is followed by one row per operation, with that operation's requests, responses,
// rps, latency and errors (the step's own columns, its time and CPU, repeated). The last
// columns are the run's own (`interrupted`), the same on every row.
import { CSV_OPERATION_COLUMN, CSV_RESULT_COLUMNS, STEP_CSV_FIELDS } from '../result/fields.js';
import { valueAt } from '../result/shape.js';

const COLUMNS = STEP_CSV_FIELDS.map((field) => ({
  name: field.csv,
  value: field.csvValue ?? ((step) => valueAt(step, field.path)),
}));
COLUMNS.splice(COLUMNS.findIndex((column) => column.name === CSV_OPERATION_COLUMN.after) + 1, 0, {
  name: CSV_OPERATION_COLUMN.name,
  value: (row) => row.operationName ?? 'all',
});

const csvCell = (value) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

// A step's operation as a row: the operation's figures where it has them, the step's elsewhere.
const operationRow = (step, figures) => ({
  ...step,
  operationName: figures.operation,
  requests: figures.requests,
  responses: figures.responses,
  rps: figures.rps,
  latency: figures.latency,
  storeTime: figures.storeTime,
  errors: figures.errors,
  maxRequests: step.maxRequests === null ? null : figures.requests,
  warnings: [],
});

/** The CSV text of `steps`; `run` holds the Result's fields repeated on each row (its `interrupted`). */
export function buildCsv(steps, run = { interrupted: false }) {
  const runCells = CSV_RESULT_COLUMNS.map((column) => csvCell(valueAt(run, column.path)));
  const names = [...COLUMNS, ...CSV_RESULT_COLUMNS].map((column) => column.name);
  const lines = [names.join(',')];
  const cells = (record) => COLUMNS.map((column) => csvCell(column.value(record)));
  const row = (record) => lines.push([...cells(record), ...runCells].join(','));
  for (const step of steps) {
    row(step);
    if ((step.operations?.length ?? 0) > 1) for (const figures of step.operations) row(operationRow(step, figures));
  }
  return `${lines.join('\n')}\n`;
}
