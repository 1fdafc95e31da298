// One measured step, whatever generates the load. An engine (driver/engines/http.js) sends
// the requests; this file times and counts them, so every engine's figures mean the same
// thing: every request started during the step is waited for and counted, latency from each
// request's start (or intended start) to its settling, rps as responses over the time they
// took, errors by kind, nothing left in flight when the next step starts, the driver's CPU.
import { createLatencyRecorder } from '../result/recorder.js';
import { threadCpuMicros } from './thread-cpu.js';
import { latencySums } from '../result/add-steps.js';
import { addTimelines, createTimeline } from '../result/timeline.js';
import { redactText } from '../util/redact.js';
import { printable } from '../util/printable.js';

// How long past the request deadline the drain waits for an engine to end a cancelled request.
const DRAIN_SLACK_MS = 1000;
// Responses are also counted per interval of this length, from the step's first start: the
// spread of those counts is the step's own noise estimate (result/ranking.js). A quarter second
// gives 8 intervals in the default 2 s step, enough for a spread, and costs one division per
// response.
export const INTERVAL_SECONDS = 0.25;
const INTERVAL_NS = INTERVAL_SECONDS * 1e9;
// An error kind keeps the first answer's text, cut to this many characters (a 413's reason).
const ERROR_SAMPLE_CHARS = 300;
// measureStep's own defaults, for a caller that names no load: one step's clients and deadline.
// Not the CLI's (driver/options.js DEFAULT_CONCURRENCY is the sweep's list of levels).
const STEP_CONCURRENCY = 10;
const STEP_TIMEOUT_MS = 10_000;

export class StepAborted extends Error {
  constructor() {
    super('step aborted');
    this.name = 'StepAborted';
  }
}

/**
 * The load one step asks an engine for.
 * @typedef {object} Load
 * @property {string} url                the target
 * @property {number} concurrency        closed loop: this many clients, each starting its next
 *                                       request when its last one settles. With `rps`: how many
 *                                       clients share the schedule
 * @property {number} [rps]              open model: start requests on a fixed schedule at this rate,
 *                                       whatever the target does
 * @property {number} [maxRequests]      stop after starting this many requests...
 * @property {number} [durationSeconds]  ...or after this long (whichever the step was given)
 * @property {boolean} keepAlive         reuse connections between requests
 * @property {number} timeoutMs          deadline for each whole request
 * @property {AbortSignal} [signal]      once aborted, start no new request
 * @property {object} [workload]         a workload (driver/workloads/workload.js) that says, per
 *                                       request, what to send; none: GET `url` every time
 */

/**
 * What an engine calls for every request it sends.
 * @typedef {object} Meter
 * @property {(cancel?: (error: Error) => void, operation?: string) => RequestHandle} begin
 *   Call right before sending a request; its latency counts from here (in the open model from
 *   its intended send time, when it went out late). `cancel(error)` is called when the request
 *   passes its deadline: it must end the request so that `failed` follows. An engine that
 *   cannot cancel passes nothing, and the request is counted as a timeout at the deadline.
 *   `operation` is what the request counts as (one of the step's operations; default its first).
 */

/**
 * How one request ended: call exactly one of these, once (later calls are ignored).
 * @typedef {object} RequestHandle
 * @property {(status: number, body?: string) => void} responded  the complete response arrived with
 *   this status; its latency is recorded, and a status outside 200-299 also counts as error
 *   `http <status>`. `body`: what the answer said (an error's text), kept for the first of each kind
 * @property {(error: Error) => void} failed       no complete response: counted as `timeout` when
 *   the deadline had passed, otherwise as `conn <error.code or message>`; no latency recorded
 */

/**
 * The contract a load engine implements. The engine decides how requests are made (HTTP
 * through loadtest or the fast engine, or a direct call of a store adapter in driver/engines/direct.js); measureStep does
 * the timing and accounting, so both produce the same step figures.
 * @typedef {object} Engine
 * @property {(load: Load, meter: Meter) => Promise<EngineRun>} run
 *   Generates `load`, calling `meter.begin()` for each request, and resolves when the load is
 *   over (its request count or time reached): it starts no request after that. Requests still
 *   in flight then are part of the step: it waits for them and counts them.
 */

/**
 * @typedef {object} EngineRun
 * @property {object|null} reported  the engine's own figures for the step (finite numbers or
 *   null), kept only to show how far they are from ours
 * @property {() => void} [release]  frees what the run kept open (its connections); called once
 *   the in-flight requests have drained
 */

// The per-request accounting behind the Meter.
//
// The sample is every request *started* while the step's window is open, each waited for
// until it ends (at the latest at its deadline): whether a request is in the sample is
// decided when it starts, before its latency is known, so slow requests are not
// under-represented (dropping those still in flight when the load stops would be exactly
// that bias). rps = responses / wallSeconds, where wallSeconds is the time the sample took:
// - closed loop: the clients' mean busy time, from the first start to each client's last
//   completion. Every settle after the last start is a client's last one (a client that
//   finishes while the window is open starts another request at once), so this is
//   (last start - first start) + the mean of (settle - last start) over those settles;
// - open model: the schedule's length (requests / rate), stretched by how much the
//   latency grew over the step (the least-squares slope of latency against intended start
//   time): a target that keeps up has a flat latency and completes at the rate asked; one
//   that falls behind completes the same requests over (1 + slope) times as long.
// docs/measurement.md has the argument and the tests that pin it.
//
// Each request counts under its operation (read, update, ...): every operation keeps its own
// counts, errors and histogram, and the step's totals are their sums (histograms add exactly),
// so the per-operation figures add up to the step's. Recording goes to one histogram per
// request, as with a single operation.
// One request in flight: the handle an engine settles, and a link in the meter's deadline list.
class InFlight {
  constructor(settle, counts, cancel, createdNs, startNs, index, deadlineNs) {
    this.settle = settle;
    this.counts = counts;
    this.cancel = cancel;
    this.createdNs = createdNs;
    this.startNs = startNs;
    this.index = index;
    this.deadlineNs = deadlineNs;
    this.prev = null;
    this.next = null;
    this.listed = false; // in the deadline list (false once settled, or once asked to cancel)
    this.done = false;
    this.timedOut = false;
  }

  responded(status, body) {
    this.settle(this, status, null, body);
  }

  failed(error) {
    this.settle(this, null, error);
  }
}

const timeoutError = (timeoutMs) => Object.assign(new Error(`no response within ${timeoutMs} ms`), { code: 'TIMEOUT' });

function createMeter({ rps, timeoutMs, operations = ['read'] }) {
  const byOperation = new Map(operations.map((operation) => [operation, { recorder: createLatencyRecorder(), timeline: createTimeline(), errors: {}, requests: 0, responses: 0 }]));
  const [firstOperation] = operations;
  const intervalNs = rps ? 1e9 / rps : 0;
  // Times are whole nanoseconds since the meter was made, as numbers (exact for 104 days), so
  // the request path does no bigint arithmetic beyond reading the clock.
  const originNs = process.hrtime.bigint();
  const clock = () => Number(process.hrtime.bigint() - originNs);
  const timeoutNs = timeoutMs * 1e6;
  // The deadlines: every request has the same timeout, so deadlines come in the order requests
  // start, and the requests in flight form a list oldest first. One timer, armed for the oldest
  // deadline, replaces a timer per request (a setTimeout and clearTimeout per request cost more
  // than the rest of the accounting together, and made garbage).
  let head = null;
  let tail = null;
  let timer = null;
  const cancelled = new Set(); // past their deadline and asked to cancel: the engine still owes their end
  let inFlight = 0;
  let open = true;
  let onIdle = null;
  let firstStartNs = null;
  let lastStartNs = null;
  let lastEndNs = null; // the last settle: loadtest's and ab's elapsed time ends here
  let created = 0;
  let responses = 0;
  let peakInFlight = 0;
  // Settles since the last start (closed loop: the clients' last completions), as time after it.
  let tailCount = 0;
  let tailSumNs = 0;
  // Open model: sums for the least-squares slope of latency (s) against intended start (s).
  const fit = { n: 0, x: 0, y: 0, xx: 0, xy: 0 };

  // The first answer of each error kind, as text: what a user needs to see why requests failed.
  const samples = {};
  const intervals = [];
  const countError = (counts, kind, detail, offsetNs) => {
    counts.errors[kind] = (counts.errors[kind] ?? 0) + 1;
    counts.timeline.error(offsetNs, kind);
    if (samples[kind] === undefined && detail) samples[kind] = errorSample(detail);
  };
  const ignored = { responded() {}, failed() {} };

  const unlink = (request) => {
    if (request.prev) request.prev.next = request.next;
    else head = request.next;
    if (request.next) request.next.prev = request.prev;
    else tail = request.prev;
    request.prev = null;
    request.next = null;
    request.listed = false;
  };

  const settle = (request, status, error, body) => {
    if (request.done) return; // settled already
    request.done = true;
    const endNs = clock();
    lastEndNs = endNs;
    if (request.listed) unlink(request);
    else cancelled.delete(request);
    inFlight -= 1;
    tailCount += 1;
    tailSumNs += endNs - lastStartNs;
    const { counts } = request;
    const offsetNs = endNs - firstStartNs;
    if (error) countError(counts, request.timedOut ? 'timeout' : `conn ${error.code ?? error.message}`, error.message, offsetNs);
    else {
      responses += 1;
      counts.responses += 1;
      const latencyNs = endNs - request.startNs;
      counts.recorder.recordNs(latencyNs);
      counts.timeline.response(offsetNs, latencyNs);
      const interval = Math.floor((endNs - firstStartNs) / INTERVAL_NS);
      intervals[interval] = (intervals[interval] ?? 0) + 1;
      if (status < 200 || status > 299) countError(counts, `http ${status}`, body, offsetNs);
      if (rps) {
        const x = (request.index * intervalNs) / 1e9;
        const y = latencyNs / 1e9;
        fit.n += 1;
        fit.x += x;
        fit.y += y;
        fit.xx += x * x;
        fit.xy += x * y;
      }
    }
    if (inFlight === 0) onIdle?.();
  };

  // Past its deadline: counted as a timeout, whatever the engine does with it afterwards. An
  // engine that can cancel is asked to (an engine's own timeout may only reset on an idle
  // socket, and leave the request running), and its failure then counts as the timeout.
  const expire = (request) => {
    request.timedOut = true;
    if (!request.cancel) return settle(request, null, timeoutError(timeoutMs));
    unlink(request);
    cancelled.add(request);
    request.cancel(timeoutError(timeoutMs));
  };

  const sweep = () => {
    timer = null;
    const now = clock();
    while (head !== null && head.deadlineNs <= now) expire(head);
    if (head !== null) timer = setTimeout(sweep, Math.max(1, Math.ceil((head.deadlineNs - now) / 1e6)));
  };

  const begin = (cancel, operation = firstOperation) => {
    if (!open) return ignored; // the window has closed: not part of this step
    const counts = byOperation.get(operation);
    if (!counts) throw new TypeError(`operation ${operation} is not one of this step's (${operations.join(', ')})`);
    counts.requests += 1;
    const createdNs = clock();
    firstStartNs ??= createdNs;
    lastStartNs = createdNs;
    tailCount = 0;
    tailSumNs = 0;
    let startNs = createdNs;
    const index = created;
    if (rps) {
      const intendedNs = firstStartNs + Math.round(index * intervalNs);
      if (intendedNs < createdNs) startNs = intendedNs; // the driver fell behind: that wait is latency too
    }
    created += 1;
    inFlight += 1;
    if (inFlight > peakInFlight) peakInFlight = inFlight;
    const request = new InFlight(settle, counts, cancel, createdNs, startNs, index, createdNs + timeoutNs);
    request.listed = true;
    request.prev = tail;
    if (tail) tail.next = request;
    else head = request;
    tail = request;
    timer ??= setTimeout(sweep, timeoutMs);
    return request;
  };

  // How much the open model's latency grew per second of schedule (0 with too few points).
  const slope = () => {
    const { n, x, y, xx, xy } = fit;
    const spread = n * xx - x * x;
    return n >= 3 && spread > 0 ? (n * xy - x * y) / spread : 0;
  };

  const stopTimer = () => {
    clearTimeout(timer);
    timer = null;
  };
  // Every request still unsettled: the deadline list, then those asked to cancel.
  const unsettled = () => {
    const list = [];
    for (let request = head; request !== null; request = request.next) list.push(request);
    return list.concat([...cancelled]);
  };

  return {
    meter: { begin },
    /** Closes the window: requests begun from now on are not part of the step. Those in flight still are. */
    close() {
      open = false;
    },
    /**
     * Resolves once every request of the step has ended. One still unsettled after
     * deadlineMs (an engine that did not end it when asked to cancel) is counted as a timeout.
     * An abort of signal rejects with StepAborted.
     */
    async drain(deadlineMs, signal) {
      if (inFlight === 0) return stopTimer();
      let giveUp;
      let onAbort;
      try {
        await new Promise((resolve, reject) => {
          onIdle = resolve;
          giveUp = setTimeout(resolve, deadlineMs);
          onAbort = () => reject(new StepAborted());
          if (signal?.aborted) onAbort();
          signal?.addEventListener('abort', onAbort, { once: true });
        });
      } finally {
        onIdle = null;
        clearTimeout(giveUp);
        signal?.removeEventListener('abort', onAbort);
      }
      stopTimer();
      for (const request of unsettled()) {
        request.timedOut = true;
        settle(request, null, timeoutError(timeoutMs));
      }
    },
    /** Stops the deadlines of the requests still in flight (the step was aborted: nothing more is counted). */
    abandon() {
      stopTimer();
      for (const request of unsettled()) {
        request.done = true;
        if (request.listed) unlink(request);
      }
      cancelled.clear();
      inFlight = 0;
    },
    figures() {
      let wallNs = 0;
      if (firstStartNs !== null) {
        if (rps) wallNs = created * intervalNs * (1 + Math.max(0, slope()));
        else wallNs = lastStartNs - firstStartNs + (tailCount ? tailSumNs / tailCount : 0);
      }
      const wallSeconds = wallNs / 1e9;
      const elapsedSeconds = firstStartNs !== null && lastEndNs !== null ? (lastEndNs - firstStartNs) / 1e9 : 0;
      const rpsOf = (count) => (wallSeconds > 0 ? count / wallSeconds : 0);
      const errorsOf = (byKind) => {
        const total = Object.values(byKind).reduce((sum, n) => sum + n, 0);
        const own = Object.fromEntries(Object.keys(byKind).filter((kind) => samples[kind]).map((kind) => [kind, samples[kind]]));
        return { total, byKind, samples: own };
      };
      const parts = [...byOperation.values()];
      const spanNs = firstStartNs !== null && lastEndNs !== null ? lastEndNs - firstStartNs : 0;
      for (const part of parts) part.samples = part.timeline.samples(spanNs);
      // One operation: its recorder is the step's. Several: the step's is their sum.
      const all = parts.length === 1 ? parts[0].recorder : createLatencyRecorder();
      const errors = {};
      if (parts.length > 1) {
        for (const part of parts) {
          all.add(part.recorder);
          for (const [kind, n] of Object.entries(part.errors)) errors[kind] = (errors[kind] ?? 0) + n;
        }
      }
      const perOperation = [...byOperation].map(([operation, part]) => {
        const figures = {
          operation,
          requests: part.requests,
          responses: part.responses,
          rps: rpsOf(part.responses),
          latency: part.recorder.summary(),
          errors: errorsOf({ ...part.errors }),
          histogram: part.recorder.encode(),
          sums: latencySums(part.recorder),
          // Several operations: each has its own seconds, which add up to the step's.
          ...(parts.length > 1 ? { timeline: part.samples } : {}),
        };
        if (part.recorder !== all) part.recorder.destroy();
        return figures;
      });
      const latency = all.summary();
      const histogram = all.encode();
      const sums = latencySums(all);
      all.destroy();
      return {
        wallSeconds,
        elapsedSeconds,
        requests: created,
        responses,
        peakInFlight,
        rps: rpsOf(responses),
        latency,
        errors: errorsOf(parts.length === 1 ? { ...parts[0].errors } : errors),
        histogram,
        sums,
        operations: perOperation,
        intervals: wholeIntervals(intervals, firstStartNs, lastStartNs),
        timeline: parts.length === 1 ? parts[0].samples : addTimelines(parts.map((part) => part.samples)),
      };
    },
  };
}

/** An error answer as one line of text: a JSON error's `code: error`, else its first line, cut short. */
export function errorSample(detail) {
  let text = String(detail);
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed.error === 'string') text = parsed.code ? `${parsed.code}: ${parsed.error}` : parsed.error;
  } catch {}
  text = redactText(printable(text).trim());
  return text.length > ERROR_SAMPLE_CHARS ? `${text.slice(0, ERROR_SAMPLE_CHARS - 1)}…` : text;
}

// The responses counted in each whole interval between the step's first and last start (the
// tail after the last start is the clients finishing, not the load): { seconds, responses }.
function wholeIntervals(counts, firstStartNs, lastStartNs) {
  const whole = firstStartNs === null ? 0 : Math.floor((lastStartNs - firstStartNs) / INTERVAL_NS);
  return { seconds: INTERVAL_SECONDS, responses: Array.from({ length: whole }, (_, index) => counts[index] ?? 0) };
}

// The driver's CPU for a step: this thread's own (the event loop that sends the load), not the
// whole process's, which also holds the probe's thread and --workers' threads starting up
// (a direct step read 110% alone and 140% beside the probe). Where the thread's clock ticks
// in 10 ms (Linux's /proc/thread-self/stat on Node 20), a step under half a second would read
// 0% or 100% from one tick, so it takes the process's figure (in µs) instead.
const THREAD_CPU_MIN_SECONDS = 0.5;
function driverCpuMicros(processCpu, threadBefore, threadAfter, stepSeconds) {
  if (threadBefore !== null && threadAfter !== null && stepSeconds >= THREAD_CPU_MIN_SECONDS) return threadAfter - threadBefore;
  return processCpu.user + processCpu.system;
}

/**
 * Runs one step of `load` with `engine` and resolves to its figures (the step shape the
 * Result's steps extend with store, key and warnings). Closed loop by default; with `rps`, the
 * open model, where each latency counts from the request's intended send time, so a stalled
 * target or driver is not hidden (no coordinated omission, as in wrk2). An abort of
 * `load.signal` rejects with StepAborted at once, dropping the step. With `keepSums`, the step
 * and each operation also carry `sums`, the recorder's exact figures (result/add-steps.js adds
 * steps with them: the worker threads of --workers).
 *
 * @param {Engine} engine
 * @param {Partial<Load> & { url: string }} load
 */
export async function measureStep(engine, {
  url,
  concurrency = STEP_CONCURRENCY,
  maxRequests,
  durationSeconds,
  rps,
  keepAlive = true,
  timeoutMs = STEP_TIMEOUT_MS,
  signal,
  workload,
  keepSums = false,
  ...engineLoad // what one engine needs beyond these (the direct engine: store, key)
}) {
  if (signal?.aborted) throw new StepAborted();
  const accounting = createMeter({ rps, timeoutMs, operations: workload?.operations });
  const startedAt = new Date();
  const startNs = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const threadBefore = threadCpuMicros();
  const run = engine.run({ ...engineLoad, url, concurrency, maxRequests, durationSeconds, rps, keepAlive, timeoutMs, signal, workload }, accounting.meter);
  let onAbort;
  const aborted = new Promise((resolve, reject) => {
    onAbort = () => reject(new StepAborted());
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  let engineRun;
  try {
    engineRun = await Promise.race([run, aborted]);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    aborted.catch(() => {});
  }
  // The load is over: no new request joins the step, but every request it started is waited
  // for and counted (at the latest at its deadline), so the next step also starts clean.
  accounting.close();
  try {
    await accounting.drain(timeoutMs + DRAIN_SLACK_MS, signal);
  } catch (error) {
    accounting.abandon(); // aborted: release() below ends what is still in flight
    throw error;
  } finally {
    engineRun.release?.();
  }
  const finishedAt = new Date();
  const cpu = process.cpuUsage(cpuBefore);
  const threadAfter = threadCpuMicros();
  const stepSeconds = Number(process.hrtime.bigint() - startNs) / 1e9;

  const figures = accounting.figures();
  const operations = keepSums ? figures.operations : figures.operations.map(({ sums, ...operation }) => operation);
  return {
    url,
    mode: engine.mode ?? 'http',
    model: rps ? 'open' : 'closed',
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    maxRequests: maxRequests ?? null,
    durationSeconds: durationSeconds ?? null,
    concurrency: rps ? null : concurrency,
    targetRps: rps ?? null,
    peakInFlight: figures.peakInFlight,
    requests: figures.requests,
    responses: figures.responses,
    wallSeconds: figures.wallSeconds,
    elapsedSeconds: figures.elapsedSeconds,
    rps: figures.rps,
    latency: figures.latency,
    errors: figures.errors,
    cpuPercent: stepSeconds > 0 ? (driverCpuMicros(cpu, threadBefore, threadAfter, stepSeconds) / 1e6 / stepSeconds) * 100 : 0,
    engineReported: engineRun.reported ?? null,
    histogram: figures.histogram,
    intervals: figures.intervals,
    timeline: figures.timeline,
    operations,
    probe: null, // --probe: the sweep's prober fills it in (driver/probe/)
    ...(keepSums ? { sums: figures.sums } : {}),
  };
}
