// A step's figures from what its meter counted (driver/meter.js): pure functions of plain
// values, called once per step, never per request.
//
// rps = responses / wallSeconds, where wallSeconds is the time the sample took:
// - closed loop: the clients' mean busy time, from the first start to each client's last
//   completion. Every settle after the last start is a client's last one (a client that
//   finishes while the window is open starts another request at once), so this is
//   (last start - first start) + the mean of (settle - last start) over those settles;
// - open model: the schedule's length (requests / rate), stretched by how much the
//   latency grew over the step (the least-squares slope of latency against intended start
//   time): a target that keeps up has a flat latency and completes at the rate asked; one
//   that falls behind completes the same requests over (1 + slope) times as long.
// docs/measurement.md has the argument and the tests that pin it.
import { addTimelines } from '../result/timeline.js';
import { redactText } from '../util/redact.js';
import { printable } from '../util/printable.js';

// Responses are also counted per interval of this length, from the step's first start: the
// spread of those counts is the step's own noise estimate (result/ranking.js). A quarter second
// gives 8 intervals in the default 2 s step, enough for a spread, and costs one division per
// response.
export const INTERVAL_SECONDS = 0.25;
export const INTERVAL_NS = INTERVAL_SECONDS * 1e9;
// An error kind keeps the first answer's text, cut to this many characters (a 413's reason).
const ERROR_SAMPLE_CHARS = 300;

/**
 * The least-squares slope of y against x from the sums { n, x, y, xx, xy } of n points: how
 * much the open model's latency (s) grew per second of schedule. 0 with fewer than 3 points or
 * no spread in x.
 */
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

/** From the first start to the last end, in seconds (0 before either). */
export const elapsedSecondsOf = (firstStartNs, lastEndNs) =>
  (firstStartNs !== null && lastEndNs !== null ? (lastEndNs - firstStartNs) / 1e9 : 0);

/** `count` responses over `wallSeconds`, per second (0 over no time). */
export const rateOf = (count, wallSeconds) => (wallSeconds > 0 ? count / wallSeconds : 0);

/** Errors by kind as a step keeps them: { total, byKind, samples }, with the samples of these kinds only. */
export function errorFigures(byKind, samples) {
  const total = Object.values(byKind).reduce((sum, n) => sum + n, 0);
  const own = Object.fromEntries(Object.keys(byKind)
    .filter((kind) => samples[kind])
    .map((kind) => [kind, samples[kind]]));
  return { total, byKind, samples: own };
}

/** Several { kind: n } counts added into one, kinds in the order first seen. */
export function summedErrors(counts) {
  const sum = {};
  for (const byKind of counts) for (const [kind, n] of Object.entries(byKind)) sum[kind] = (sum[kind] ?? 0) + n;
  return sum;
}

/**
 * The responses counted in each whole interval between the step's first and last start (the
 * tail after the last start is the clients finishing, not the load): { seconds, responses }.
 * `counts[i]`: the responses that ended in interval i (a sparse array).
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

/**
 * The figures of a step from what its meter counted:
 * - `rps`, `intervalNs`: the open model's rate and its interval (null and 0 in the closed loop);
 * - `requests`, `responses`, `peakInFlight`: the step's counts;
 * - `firstStartNs`, `lastStartNs`, `lastEndNs`, `tailCount`, `tailSumNs`: its times (null
 *   before the first request), and the settles since the last start as time after it;
 * - `slope`: leastSquaresSlope of its latencies (open model);
 * - `samples`: the first answer's text of each error kind; `intervals`: responses per interval;
 * - `operations`: per operation { operation, requests, responses, errors: { kind: n },
 *   latency, histogram, sums, storeTime, timeline } (latency, histogram and sums from its
 *   recorder, storeTime from its store times' or null, timeline its per-second samples);
 * - `total`: { latency, histogram, sums, storeTime } of every operation's recorders added.
 */
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
