// Results files: --json (everything, histograms included) and --csv (one row per step).
import { writeFile } from 'node:fs/promises';
import { redactUrl } from '../util/redact.js';

export const RESULTS_FORMAT = 'storebench-driver/1';

export function buildJsonReport({ system, settings, steps, comparison, skipped = [], interrupted = false }) {
  return {
    format: RESULTS_FORMAT,
    system,
    settings,
    interrupted,
    skipped,
    steps: steps.map((step) => ({
      url: redactUrl(step.url),
      store: step.store,
      key: step.key,
      mode: step.mode,
      maxRequests: step.maxRequests,
      durationSeconds: step.durationSeconds,
      concurrency: step.concurrency,
      targetRps: step.targetRps,
      requests: step.requests,
      responses: step.responses,
      wallSeconds: step.wallSeconds,
      rps: step.rps,
      meanLatencyMs: step.latency.meanMs,
      maxLatencyMs: step.latency.maxMs,
      minLatencyMs: step.latency.minMs,
      p50: step.latency.p50Ms,
      p90: step.latency.p90Ms,
      p99: step.latency.p99Ms,
      p999: step.latency.p999Ms,
      errors: step.errors,
      cpuPercent: step.cpuPercent,
      engineReported: step.engineReported,
      warnings: step.warnings,
      histogram: step.histogram,
    })),
    comparison,
  };
}

const CSV_COLUMNS = [
  ['url', (s) => redactUrl(s.url)],
  ['store', (s) => s.store],
  ['key', (s) => s.key],
  ['mode', (s) => s.mode],
  ['maxRequests', (s) => s.maxRequests],
  ['durationSeconds', (s) => s.durationSeconds],
  ['concurrency', (s) => s.concurrency],
  ['targetRps', (s) => s.targetRps],
  ['requests', (s) => s.requests],
  ['responses', (s) => s.responses],
  ['wallSeconds', (s) => s.wallSeconds],
  ['rps', (s) => s.rps],
  ['meanLatencyMs', (s) => s.latency.meanMs],
  ['maxLatencyMs', (s) => s.latency.maxMs],
  ['minLatencyMs', (s) => s.latency.minMs],
  ['p50', (s) => s.latency.p50Ms],
  ['p90', (s) => s.latency.p90Ms],
  ['p99', (s) => s.latency.p99Ms],
  ['p999', (s) => s.latency.p999Ms],
  ['errors', (s) => s.errors.total],
  ['errorKinds', (s) => Object.entries(s.errors.byKind).map(([kind, n]) => `${kind}=${n}`).join(';')],
  ['cpuPercent', (s) => s.cpuPercent],
  ['warnings', (s) => s.warnings.map((warning) => warning.message).join(' | ')],
];

const csvCell = (value) => {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

export function buildCsv(steps) {
  const lines = [CSV_COLUMNS.map(([name]) => name).join(',')];
  for (const step of steps) lines.push(CSV_COLUMNS.map(([, get]) => csvCell(get(step))).join(','));
  return `${lines.join('\n')}\n`;
}

/** Writes the requested files; "-" for JSON means stdout. */
export async function writeResults({ json, csv }, report, steps, stdout = process.stdout) {
  if (json === '-') stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (json) await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  if (csv) await writeFile(csv, buildCsv(steps));
}
