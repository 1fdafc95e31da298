// Text rendering. Every function returns a string; the caller decides where it goes.
import { redactUrl } from '../util/redact.js';
import { printable } from '../util/printable.js';
import { renderSystemLine } from './system.js';
import { formatBytes } from '../util/bytes.js';
import { failedStep } from '../result/ranking.js';
import { CONFLICT_KIND } from '../result/error-kinds.js';
import { errorsText } from '../result/honesty.js';
import { STORE_TIME_HEADERS, hasServerStoreTime, storeTimeCells, storeTimeNote } from './store-time.js';
import { bottleneckText } from '../result/bottleneck.js';

const SEPARATOR = '  ';
// The original's header spacing ("rps     meanLatencyMs ... p50     p90     p99     errors").
const ORIGINAL_WIDTHS = { rps: 6, p50: 6, p90: 6, p99: 6 };

// A comparison row whose step carries a warning gets this after the store's name.
export const WARNING_MARK = '!';

export const formatMs = (value) => (value === null || value === undefined ? '-' : value.toFixed(2));
export const formatRps = (value) => String(Math.round(value));

// A 409 is a write that lost to another writer of its key, not an outage: the text says so.
const kindLabel = (kind) => (kind === CONFLICT_KIND ? `${kind} conflict` : kind);

/** "0", or "12 (http 503: 10, timeout: 2)"; a 409 is shown as "http 409 conflict". */
export function formatErrors(errors) {
  const kinds = Object.entries(errors.byKind);
  if (!errors.total) return '0';
  return `${errors.total} (${kinds.map(([kind, count]) => `${kindLabel(kind)}: ${count}`).join(', ')})`;
}

/**
 * The line under a table giving each error kind's first answer; a kind a line of `shown` already
 * quotes is left out, so each reason is said once. null when nothing is left to say.
 */
export function firstAnswersLine(errorsList, shown = []) {
  const byKind = {};
  const samples = {};
  for (const errors of errorsList) {
    for (const [kind, n] of Object.entries(errors.byKind ?? {})) {
      const sample = errors.samples?.[kind];
      if (sample && !shown.some((line) => line.includes(sample))) samples[kind] ??= sample;
      byKind[kind] = (byKind[kind] ?? 0) + n;
    }
  }
  const unsaid = Object.keys(byKind).filter((kind) => samples[kind]);
  if (!unsaid.length) return null;
  const counts = Object.fromEntries(unsaid.map((kind) => [kind, byKind[kind]]));
  return `errors, each kind with its first answer: ${errorsText({ byKind: counts, samples })}`;
}

/** Renders rows under headers: numbers right-aligned, text left-aligned (the original's layout). */
export function renderTable(headers, rows, { align = headers.map(() => 'right'), minWidths = {} } = {}) {
  const widths = headers.map((header, column) =>
    Math.max(header.length, minWidths[header] ?? 0, ...rows.map((row) => row[column].length)),
  );
  const line = (cells, isHeader) =>
    cells
      .map((cell, column) => {
        const last = column === cells.length - 1;
        if (isHeader || align[column] === 'left') return last ? cell : cell.padEnd(widths[column]);
        return cell.padStart(widths[column]);
      })
      .join(SEPARATOR)
      .trimEnd();
  const body = rows.map((row) => line(row, false));
  const header = line(headers, true);
  const rule = '-'.repeat(Math.max(header.length, ...body.map((text) => text.length)));
  return [rule, header, rule, ...body].join('\n');
}

// A step's latency columns, as the table shows them; a step with no success shows `failed`
// (its figures are the failures', not the store's: the warning line under it says why).
const FAILED_CELLS = ['failed', '-', '-', '-', '-', '-', '-'];
const latencyCells = (figures) => (failedStep(figures)
  ? FAILED_CELLS
  : [
      formatRps(figures.rps),
      formatMs(figures.latency.meanMs),
      formatMs(figures.latency.maxMs),
      formatMs(figures.latency.minMs),
      formatMs(figures.latency.p50Ms),
      formatMs(figures.latency.p90Ms),
      formatMs(figures.latency.p99Ms),
    ]);

const PROBE_HEADERS = ['probeIdleP50', 'probeIdleP99', 'probeLoadP50', 'probeLoadP99'];
const probeCells = (probe) => (probe
  ? [probe.idle?.p50Ms, probe.idle?.p99Ms, probe.underLoad?.p50Ms, probe.underLoad?.p99Ms].map(formatMs)
  : PROBE_HEADERS.map(() => '-'));
const probeNote = (steps) => {
  const inMain = steps.some((step) => step.probe?.thread === 'main');
  const from = inMain ? 'the driver\'s own thread (this store lives in it)' : 'a thread of its own';
  return `probe: one request at a time from ${from}, before the steps (idle) and during each (load); ` +
    'not counted in the steps';
};

/** `## <url>`, with the workload's name and, where several frameworks served the run, its framework. */
export const tableHeading = (url, workload, framework) =>
  `## ${displayUrl(url)}${workload ? ` · ${workload}` : ''}${framework ? ` · on ${framework}` : ''}`;

const OPEN_MODEL_NOTE = 'open model: concurrency = most requests in flight at once; ' +
  'latency counts from each intended send time';
const TIMED_STEPS_NOTE = 'timed steps (-t): maxRequests = requests sent';

/** Whether a table of `steps` shows a bottleneck column: the bottleneck of some step was told. */
const showsBottleneck = (steps) => steps.some((step) => step.bottleneck?.tier);

/**
 * The lines that say what a per-URL table's columns mean: the same under every table of a run,
 * so the default text prints them once (stepTableLegends of all the steps) and --verbose under each.
 */
export function stepTableLegends(steps) {
  const lines = [];
  if (steps.some((step) => step.model === 'open')) lines.push(OPEN_MODEL_NOTE);
  const storeLine = storeTimeNote(steps);
  if (storeLine) lines.push(storeLine);
  if (steps.some((step) => step.probe)) lines.push(probeNote(steps));
  if (steps.some((step) => step.maxRequests === null && step.model === 'closed')) lines.push(TIMED_STEPS_NOTE);
  return lines;
}

/**
 * The per-URL table; a workload of several operations gets a row per operation under each step's.
 * `legends: false` leaves out the lines stepTableLegends gives (the caller prints them once);
 * `framework`: named in the heading.
 */
export function renderStepTable(url, steps, { legends = true, framework = null } = {}) {
  const open = steps.some((step) => step.model === 'open');
  const perOperation = steps.some((step) => (step.operations?.length ?? 0) > 1);
  const headers = [
    'maxRequests', 'concurrency', ...(perOperation ? ['operation'] : []),
    'rps', 'meanLatencyMs', 'maxLatencyMs', 'minLatencyMs', 'p50', 'p90', 'p99',
  ];
  const stored = hasServerStoreTime(steps);
  if (stored) headers.push(...STORE_TIME_HEADERS);
  if (open) headers.push('targetRps');
  const probed = steps.some((step) => step.probe);
  if (probed) headers.push(...PROBE_HEADERS);
  // The tier that limited each step, in a word (its evidence: --verbose, the page, the JSON).
  const limited = showsBottleneck(steps);
  if (limited) headers.push('bottleneck');
  headers.push('errors');
  const rows = steps.flatMap((step) => {
    const row = [
      String(step.maxRequests ?? step.requests),
      // The open model has no fixed concurrency: its column shows the most requests in flight.
      String(step.model === 'open' ? step.peakInFlight : step.concurrency),
      ...(perOperation ? ['all'] : []),
      ...latencyCells(step),
    ];
    if (stored) row.push(...storeTimeCells(step));
    if (open) row.push(step.targetRps === null ? '-' : String(step.targetRps));
    if (probed) row.push(...probeCells(step.probe));
    if (limited) row.push(bottleneckText(step.bottleneck));
    row.push(formatErrors(step.errors));
    if (!perOperation || (step.operations?.length ?? 0) < 2) return [row];
    const operationRows = step.operations.map((figures) => [
      '', '', figures.operation, ...latencyCells(figures), ...(stored ? storeTimeCells(figures) : []),
      ...(open ? [''] : []), ...(probed ? PROBE_HEADERS.map(() => '') : []), ...(limited ? [''] : []),
      formatErrors(figures.errors),
    ]);
    return [row, ...operationRows];
  });
  const align = headers.map((header) =>
    (['errors', 'operation', 'bottleneck'].includes(header) ? 'left' : 'right'));
  const lines = [
    tableHeading(url, steps[0]?.workload, framework),
    renderTable(headers, rows, { align, minWidths: ORIGINAL_WIDTHS }),
  ];
  if (legends) lines.push(...stepTableLegends(steps));
  const probeError = steps.find((step) => step.probe?.error)?.probe.error;
  if (probeError) lines.push(`probe: not probed: ${probeError}`);
  const loadOf = (step) => (step.model === 'open' ? `rps ${step.targetRps}` : `concurrency ${step.concurrency}`);
  // Short steps are common (-n 2000 takes under a second on a fast store): one line for all.
  const isWeak = (warning) => warning.code === 'WEAK_SAMPLE';
  const weak = steps.filter((step) => step.warnings.some(isWeak));
  if (weak.length) {
    const { minSamples, minSeconds } = weak[0].warnings.find(isWeak).data;
    const list = weak
      .map((step) => `${loadOf(step)} (${step.responses} in ${step.wallSeconds.toFixed(2)} s)`)
      .join(', ');
    lines.push(`warning: statistically weak, under ${minSamples} samples or ${minSeconds} s ` +
      `(use a larger -n or -t): ${list}`);
  }
  for (const step of steps) {
    for (const warning of step.warnings) {
      if (!isWeak(warning)) lines.push(`warning (${loadOf(step)}): ${warning.message}`);
    }
  }
  const answers = firstAnswersLine(steps.map((step) => step.errors), lines);
  if (answers) lines.push(answers);
  return lines.join('\n');
}

export function renderSystem(system, settings) {
  const load = settings.rps
    ? `open model at ${settings.rps.join(', ')} rps`
    : `concurrency ${settings.concurrency.join(', ')}`;
  const size = settings.duration ? `${settings.duration} s per step` : `${settings.requests} requests per step`;
  const keepAlive = settings.keepAlive ? 'on' : 'off';
  const lines = [
    renderSystemLine(system, { labelWidth: 9, date: false, engine: settings.engine, choice: settings.engineChoice }),
    `Target:   ${system.target}`,
    `Date:     ${system.date}`,
    `Settings: ${load}; ${size}; ${warmupText(settings)}; keep-alive ${keepAlive}; timeout ${settings.timeoutMs} ms` +
      appWorkersText(settings),
    `Order:    ${orderText(settings)}`,
  ];
  if (settings.records !== null && settings.records !== undefined) {
    lines.push(`Workload: ${describeWorkload(settings)}`);
  }
  return lines.join('\n');
}

/** "; app.js in 4 worker processes" when the run started app.js with --app-workers over 1, else nothing. */
export const appWorkersText = ({ appWorkers }) => (appWorkers > 1 ? `; app.js in ${appWorkers} worker processes` : '');

/** How the run warmed up: "warm-up 500 requests per URL, then each step until steady (at most 10 s)". */
export function warmupText({ warmup, warmupMaxSeconds }) {
  if (!(warmup > 0)) return 'no warm-up';
  const steady = warmupMaxSeconds > 0 ? `, then each step until steady (at most ${warmupMaxSeconds} s)` : '';
  return `warm-up ${warmup} requests per URL${steady}`;
}

export function orderText({ order, orderSeed, repeat, control: measured = true }) {
  const control = repeat > 1 || !measured ? '' : '; the first step again last (control)';
  if (order === 'sequential' && repeat <= 1) return `sequential: every level of a URL, then the next URL${control}`;
  return `interleaved: at each level every URL once, shuffled (seed ${orderSeed})${control}`;
}

function describeWorkload(settings) {
  const mix = Object.entries(settings.mix)
    .map(([operation, share]) => `${operation} ${Number((share * 100).toFixed(2))}%`)
    .join(', ');
  const size = settings.valueSizeMin === settings.valueSizeMax
    ? formatBytes(settings.valueSizeMin)
    : `${formatBytes(settings.valueSizeMin)} to ${formatBytes(settings.valueSizeMax)}`;
  const distribution = settings.distribution ? `, ${settings.distribution}` : '';
  const shape = settings.valueShape === 'hash'
    ? ' as hashes of 10 fields (Redis HSET; JSON where a store has no hash type)'
    : '';
  return [
    `${settings.workload} (${mix}) over ${settings.records.toLocaleString('en-US')} records${distribution}`,
    `values ${size}${shape}`,
    `seed ${settings.seed}`,
    settings.load ? 'loaded first' : 'not loaded first',
    settings.verify ? 'written values verified after' : 'not verified',
  ].join('; ');
}

const formatMb = (bytes) => (bytes / (1024 * 1024)).toFixed(2);

export function renderLoadTable(load) {
  const headers = [
    'records', 'loaded', 'MB', 'batches', 'seconds', 'rps', 'MB/s', 'meanBatchMs', 'p50', 'p90', 'p99', 'maxBatchMs',
    'errors',
  ];
  const row = [
    String(load.records),
    String(load.loaded),
    formatMb(load.bytes),
    String(load.batches),
    load.seconds.toFixed(2),
    formatRps(load.rps),
    load.seconds > 0 ? formatMb(load.bytes / load.seconds) : '-',
    formatMs(load.latency.meanMs),
    formatMs(load.latency.p50Ms),
    formatMs(load.latency.p90Ms),
    formatMs(load.latency.p99Ms),
    formatMs(load.latency.maxMs),
    formatErrors(load.errors),
  ];
  const align = headers.map((header) => (header === 'errors' ? 'left' : 'right'));
  const how = load.url.startsWith('direct:') ? 'written by the store\'s bulk path' : 'POST';
  const batches = `${load.batches} batch${load.batches === 1 ? '' : 'es'}`;
  const lines = [
    `## load: ${displayUrl(load.url)} (${how}: ${batches} of records; rps = records loaded per second)`,
    renderTable(headers, [row], { align }),
  ];
  for (const warning of load.warnings) lines.push(`warning (load): ${warning.message}`);
  const answers = firstAnswersLine([load.errors], lines);
  if (answers) lines.push(answers);
  return lines.join('\n');
}

export function renderVerification(verification) {
  const { verified, sampled, mismatched, examples } = verification;
  const nothing = sampled ? '' : ' (the store acknowledged nothing this run could check)';
  const lines = [`verified ${verified}/${sampled} written values${nothing}`];
  for (const { key, expected, got } of examples) lines.push(`  ${key}: expected ${expected}; got ${got}`);
  if (mismatched > examples.length) lines.push(`  ... and ${mismatched - examples.length} more`);
  for (const warning of verification.warnings) lines.push(`warning (verification): ${warning.message}`);
  return lines.join('\n');
}

export function renderSkipped(skipped) {
  // What a target said, maybe from a saved file: printable (util/printable.js) whatever it holds.
  return skipped
    .map(({ store, status, reason }) => printable(`skipped ${store}: ${status}${reason ? ` (${reason})` : ''}`))
    .join('\n');
}

/** A URL as a heading shows it: password masked, percent-encoding decoded. */
export function displayUrl(url) {
  const shown = redactUrl(url);
  const parts = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)([^?#]*)(.*)$/i.exec(shown);
  if (!parts) return shown;
  const [, origin, path, rest] = parts;
  // A segment that does not decode, or would decode to spaces or control characters, stays as it is.
  const decode = (segment) => {
    try {
      const decoded = decodeURIComponent(segment);
      return /[\s\p{Cc}/]/u.test(decoded) ? segment : decoded;
    } catch {
      return segment;
    }
  };
  return `${origin}${path.split('/').map(decode).join('/')}${rest}`;
}
