// Tables in the one shape measured and published figures share, built from a kind's steps by the
// scenario's table spec ({ id, title, rowHeader, row: '{store}/{key} c={concurrency}', columns }).
// A column's `metric`: a dotted path in the step, `elapsedRps` (loadtest's and ab's rps), `p:66`
// (a percentile) or `extra:<name>` (a figure the kind measured beside the step).
import { decodeHistogram } from '../result/recorder.js';

export const valueAt = (record, path) => path.split('.').reduce((value, key) => value?.[key], record);

const rowLabel = (template, record) => template.replace(/\{(\w+)\}/g, (_, name) => String(name === 'run' ? record.run : record.step[name]));

function percentileMs(step, percentile) {
  if (percentile >= 100) return step.latency.maxMs; // exact, not the histogram's bucket
  if (!step.latency.count) return null;
  const histogram = decodeHistogram(step.histogram);
  try {
    return histogram.getValueAtPercentile(percentile) / 1000; // the histogram holds µs
  } finally {
    histogram.destroy?.();
  }
}

function metricOf(record, metric) {
  if (metric.startsWith('p:')) return percentileMs(record.step, Number(metric.slice(2)));
  // loadtest's and ab's rps: responses over the time from the first start to the last end.
  if (metric === 'elapsedRps') {
    return record.step.elapsedSeconds > 0 ? record.step.responses / record.step.elapsedSeconds : null;
  }
  if (metric.startsWith('extra:')) return record.extra?.[metric.slice('extra:'.length)] ?? null;
  const value = valueAt(record.step, metric);
  return typeof value === 'number' ? value : null;
}

/** A Table from `records` as `spec` says; rows in spec.rows' order, then as met. */
export function buildTable(spec, records) {
  const rows = [...(spec.rows ?? [])];
  const cells = {};
  const sources = {};
  for (const record of records) {
    if ((spec.store && record.step.store !== spec.store) || (spec.runs && !spec.runs.includes(record.run))) continue;
    const row = rowLabel(spec.row, record);
    for (const column of spec.columns) {
      if (column.run && column.run !== record.run) continue;
      if (!rows.includes(row)) rows.push(row);
      cells[row] ??= {};
      cells[row][column.id] = metricOf(record, column.metric);
      sources[row] ??= [];
      if (record.index !== undefined && !sources[row].includes(record.index)) sources[row].push(record.index);
    }
  }
  for (const row of rows) {
    cells[row] ??= {};
    for (const column of spec.columns) cells[row][column.id] ??= null;
  }
  return {
    id: spec.id,
    title: spec.title,
    rowHeader: spec.rowHeader,
    rows,
    columns: spec.columns.map(({ id, label, unit }) => ({ id, label, unit })),
    cells,
    ...(records.some((record) => record.index !== undefined) ? { sources } : {}),
  };
}

/** A published table in our table's shape, from the scenario file's rows. */
export function publishedTable(spec, published) {
  const rows = Object.keys(published.rows);
  const rowCells = (row) => Object.fromEntries(spec.columns.map(({ id }) => [id, published.rows[row][id] ?? null]));
  const cells = Object.fromEntries(rows.map((row) => [row, rowCells(row)]));
  return {
    id: spec.id,
    title: published.title ?? spec.title,
    rowHeader: spec.rowHeader,
    rows,
    columns: spec.columns.map(({ id, label, unit }) => ({ id, label, unit })),
    cells,
  };
}
