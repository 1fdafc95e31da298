// node test merge's per-machine rows: under each merged step, its total and each machine's own
// figures (result/merge.js keeps them in `machines`), so a reader sees what each driver added.
import { stepIdentity } from '../result/merge.js';

const fixed = (value, digits) => (value === null ? '-' : value.toFixed(digits));

/**
 * The per-machine rows under each merged step: "redis key1 closed concurrency 20 ..." then
 * the total and one line per machine (rps, mean, p50, p99, errors, CPU, window).
 */
export function renderMachineRows(result) {
  if (!result.merged) return '';
  const sources = result.merged.map(({ file, hostname }) => `${file} (${hostname})`).join(', ');
  const lines = [`Merged from ${result.merged.length} files: ${sources}`];
  const header = ['', 'requests', 'rps', 'mean ms', 'p50 ms', 'p99 ms', 'errors', 'cpu %', 'window (UTC)'];
  const widths = [28, 10, 10, 9, 9, 9, 7, 6, 0];
  const cell = (value, index) => {
    const text = String(value);
    return index === 0 ? text.padEnd(widths[index]) : text.padStart(widths[index]);
  };
  const row = (cells) => cells.map(cell).join(' ').trimEnd();
  const window = ({ startedAt, finishedAt }) => `  ${startedAt.slice(11, 23)}-${finishedAt.slice(11, 23)}`;
  // A step's or a machine's figures, after its name.
  const figures = (entry) => [
    entry.requests, fixed(entry.rps, 1),
    fixed(entry.latency.meanMs, 3), fixed(entry.latency.p50Ms, 3), fixed(entry.latency.p99Ms, 3),
    entry.errors.total, fixed(entry.cpuPercent, 0), window(entry),
  ];
  for (const step of result.steps) {
    if (!step.machines) continue;
    lines.push('', stepIdentity(step), row(header));
    lines.push(row(['total', ...figures(step)]));
    for (const machine of step.machines) {
      const name = `  ${machine.hostname} (${machine.file})`;
      lines.push(row([name.length > widths[0] ? `${name.slice(0, widths[0] - 1)}…` : name, ...figures(machine)]));
    }
  }
  return `${lines.join('\n')}\n`;
}
