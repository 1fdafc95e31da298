// A step's figures from what its meter counted: pure functions, called once per step.
// rps = responses / wallSeconds. Closed loop: the clients' mean busy time. Open model: the
// schedule's length stretched by (1 + the latency's slope over the step), since a target that
// falls behind completes the same requests over longer. docs/measurement.md has the argument.
import { addTimelines } from '../result/timeline.js';
import { redactText } from '../util/redact.js';
import { printable } from '../util/printable.js';

// Responses per interval give the step's own noise estimate (result/ranking.js): a quarter
// second gives 8 intervals in the default 2 s step.
const INTERVAL_SECONDS = 0.25;
export const INTERVAL_NS = INTERVAL_SECONDS * 1e9;
// An error kind keeps the first answer's text, cut to this many characters (a 413's reason).
const ERROR_SAMPLE_CHARS = 300;

/** The least-squares slope of y against x from { n, x, y, xx, xy }; 0 with under 3 points or no spread. */
export function leastSquaresSlope({ n, x, y, xx, xy }) {
  const spread = n * xx - x * x;
  return n >= 3 && spread > 0 ? (n * xy - x * y) / spread : 0;
}

/** Closed loop: the clients' mean busy time in ns (the last start after the first, plus the mean tail). */
export function closedWallNs({ firstStartNs, lastStartNs, tailCount, tailSumNs }) {
  if (firstStartNs === null) return 0;
  return lastStartNs - firstStartNs + (tailCount ? tailSumNs / tailCount : 0);
}

/** Open model: `requests` at one per `intervalNs`, stretched by a latency that grew by `slope`. */
export function openWallNs({ requests, intervalNs, slope }) {
  return requests * intervalNs * (1 + Math.max(0, slope));
}

export const elapsedSecondsOf = (firstStartNs, lastEndNs) =>
  (firstStartNs !== null && lastEndNs !== null ? (lastEndNs - firstStartNs) / 1e9 : 0);

export const rateOf = (count, wallSeconds) => (wallSeconds > 0 ? count / wallSeconds : 0);

/** Errors by kind as a step keeps them: { total, byKind, samples }, with the samples of these kinds only. */
export function errorFigures(byKind, samples) {
  const total = Object.values(byKind).reduce((sum, n) => sum + n, 0);
  const own = Object.fromEntries(Object.keys(byKind)
    .filter((kind) => samples[kind])
    .map((kind) => [kind, samples[kind]]));
  return { total, byKind, samples: own };
}

export function summedErrors(counts) {
  const sum = {};
  for (const byKind of counts) for (const [kind, n] of Object.entries(byKind)) sum[kind] = (sum[kind] ?? 0) + n;
  return sum;
}

/**
 * Responses in each whole interval between the first and last start (the tail after the last
 * start is the clients finishing, not the load): { seconds, responses }.
 */
export function wholeIntervals(counts, firstStartNs, lastStartNs) {
  const whole = firstStartNs === null ? 0 : Math.floor((lastStartNs - firstStartNs) / INTERVAL_NS);
  return { seconds: INTERVAL_SECONDS, responses: Array.from({ length: whole }, (_, index) => counts[index] ?? 0) };
}

/** An error answer as one line of text: a JSON error's `code: error`, else its first line, cut short. */
export function errorSample(detail) {
  let text = String(detail);
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed.error === 'string') {
      text = parsed.code ? `${parsed.code}: ${parsed.error}` : parsed.error;
    }
  } catch {}
  text = redactText(printable(text).trim());
  return text.length > ERROR_SAMPLE_CHARS ? `${text.slice(0, ERROR_SAMPLE_CHARS - 1)}…` : text;
}

/** The figures of a step from what its meter counted (per operation and in total). */
export function stepFigures({
  rps, intervalNs, requests, responses, peakInFlight, firstStartNs, lastStartNs, lastEndNs, tailCount, tailSumNs, slope,
  samples, intervals, operations, total,
}) {
  let wallNs = 0;
  if (firstStartNs !== null && rps) wallNs = openWallNs({ requests, intervalNs, slope });
  else if (firstStartNs !== null) wallNs = closedWallNs({ firstStartNs, lastStartNs, tailCount, tailSumNs });
  const wallSeconds = wallNs / 1e9;
  const several = operations.length > 1;
  const perOperation = operations.map((part) => ({
    operation: part.operation,
    requests: part.requests,
    responses: part.responses,
    rps: rateOf(part.responses, wallSeconds),
    latency: part.latency,
    errors: errorFigures({ ...part.errors }, samples),
    histogram: part.histogram,
    sums: part.sums,
    storeTime: part.storeTime,
    // Several operations: each has its own seconds, which add up to the step's.
    ...(several ? { timeline: part.timeline } : {}),
  }));
  return {
    wallSeconds,
    elapsedSeconds: elapsedSecondsOf(firstStartNs, lastEndNs),
    requests,
    responses,
    peakInFlight,
    rps: rateOf(responses, wallSeconds),
    latency: total.latency,
    errors: errorFigures(
      several ? summedErrors(operations.map((part) => part.errors)) : { ...operations[0].errors },
      samples,
    ),
    histogram: total.histogram,
    sums: total.sums,
    storeTime: total.storeTime,
    operations: perOperation,
    intervals: wholeIntervals(intervals, firstStartNs, lastStartNs),
    timeline: several ? addTimelines(operations.map((part) => part.timeline)) : operations[0].timeline,
  };
}
