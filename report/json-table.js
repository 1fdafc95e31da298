// The test-json.js table.
import { renderTable } from './table.js';

const formatUs = (ns) => (ns / 1000).toFixed(ns < 10_000 ? 3 : 1);
const formatOps = (ops) => Math.round(ops).toLocaleString('en-US');

export function renderJsonTimings(results) {
  const headers = ['key', 'bytes', 'parseUs', 'parseOps/s', 'stringifyUs', 'stringifyOps/s'];
  const rows = results.map((result) => [
    result.key,
    String(result.bytes),
    formatUs(result.parse.nsPerOp),
    formatOps(result.parse.opsPerSecond),
    formatUs(result.stringify.nsPerOp),
    formatOps(result.stringify.opsPerSecond),
  ]);
  const align = headers.map((header) => (header === 'key' ? 'left' : 'right'));
  const rounds = results[0]?.parse.rounds ?? 0;
  return `${renderTable(headers, rows, { align })}\n` +
    `microseconds per operation: median of ${rounds} timed batches after a warm-up`;
}
