// One measured step, whatever generates the load. An engine (driver/engines/http.js) sends
// the requests; this file times and counts them, so every engine's figures mean the same
// thing: latency from each request's start (or intended start) to its settling, rps as
// completed responses over wall time, errors by kind, in-flight requests drained before the
// next step, the driver's CPU.
import { createLatencyRecorder } from './recorder.js';

const DRAIN_POLL_MS = 5;
const DEFAULT_CONCURRENCY = 10;
const DEFAULT_TIMEOUT_MS = 10_000;

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
 */

/**
 * What an engine calls for every request it sends.
 * @typedef {object} Meter
 * @property {(cancel?: (error: Error) => void) => RequestHandle} begin
 *   Call right before sending a request; its latency counts from here (in the open model from
 *   its intended send time, when it went out late). `cancel(error)` is called when the request
 *   passes its deadline: it must end the request so that `failed` follows. An engine that
 *   cannot cancel passes nothing, and the request is counted as a timeout at the deadline.
 */

/**
 * How one request ended: call exactly one of these, once (later calls are ignored).
 * @typedef {object} RequestHandle
 * @property {(status: number) => void} responded  the complete response arrived with this status;
 *   its latency is recorded, and a status outside 200-299 also counts as error `http <status>`
 * @property {(error: Error) => void} failed       no complete response: counted as `timeout` when
 *   the deadline had passed, otherwise as `conn <error.code or message>`; no latency recorded
 */

/**
 * The contract a load engine implements. The engine decides how requests are made (HTTP
 * through loadtest today; a direct call of a store adapter is the next one); measureStep does
 * the timing and accounting, so both produce the same step figures.
 * @typedef {object} Engine
 * @property {(load: Load, meter: Meter) => Promise<EngineRun>} run
 *   Generates `load`, calling `meter.begin()` for each request, and resolves when the load is
 *   over (its request count or time reached). Requests still in flight then may settle later:
 *   they are drained, not counted.
 */

/**
 * @typedef {object} EngineRun
 * @property {object|null} reported  the engine's own figures for the step (finite numbers or
 *   null), kept only to show how far they are from ours
 * @property {() => void} [release]  frees what the run kept open (its connections); called once
 *   the in-flight requests have drained
 */

// The per-request accounting behind the Meter.
function createMeter({ rps, timeoutMs }) {
  const recorder = createLatencyRecorder();
  const errors = {};
  const intervalNs = rps ? 1e9 / rps : 0;
  let open = true;
  let firstStartNs = null;
  let created = 0;
  let responses = 0;
  let inFlight = 0;
  let peakInFlight = 0;

  const countError = (kind) => {
    errors[kind] = (errors[kind] ?? 0) + 1;
  };

  const begin = (cancel) => {
    const createdNs = process.hrtime.bigint();
    firstStartNs ??= createdNs;
    let startNs = createdNs;
    if (rps) {
      const intendedNs = firstStartNs + BigInt(Math.round(created * intervalNs));
      if (intendedNs < createdNs) startNs = intendedNs; // the driver fell behind: that wait is latency too
    }
    created += 1;
    inFlight += 1;
    if (inFlight > peakInFlight) peakInFlight = inFlight;

    let settled = false;
    let timedOut = false;
    const settle = (status, error) => {
      if (settled) return;
      settled = true;
      const endNs = process.hrtime.bigint();
      clearTimeout(timer);
      inFlight -= 1;
      if (!open) return; // finished after the step ended: not part of it
      if (error) {
        countError(timedOut ? 'timeout' : `conn ${error.code ?? error.message}`);
        return;
      }
      responses += 1;
      recorder.record(endNs - startNs);
      if (status < 200 || status > 299) countError(`http ${status}`);
    };
    // A deadline for the whole request (an engine's own timeout may only reset on an idle
    // socket, and leave the request running).
    const timer = setTimeout(() => {
      timedOut = true;
      const error = Object.assign(new Error(`no response within ${timeoutMs} ms`), { code: 'TIMEOUT' });
      if (cancel) cancel(error);
      else settle(null, error);
    }, timeoutMs);
    return { responded: (status) => settle(status), failed: (error) => settle(null, error) };
  };

  return {
    meter: { begin },
    /** Ends the step: whatever settles from now on is not counted. */
    close() {
      open = false;
    },
    /** Waits until nothing is in flight (or the deadline passes), so the next step starts clean. */
    async drain(deadlineMs) {
      const until = Date.now() + deadlineMs;
      while (inFlight > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
    },
    figures(stopNs) {
      const wallSeconds = firstStartNs === null ? 0 : Number(stopNs - firstStartNs) / 1e9;
      const latency = recorder.summary();
      const histogram = recorder.encode();
      recorder.destroy();
      const errorTotal = Object.values(errors).reduce((sum, n) => sum + n, 0);
      return {
        wallSeconds,
        requests: created,
        responses,
        peakInFlight,
        rps: wallSeconds > 0 ? responses / wallSeconds : 0,
        latency,
        errors: { total: errorTotal, byKind: errors },
        histogram,
      };
    },
  };
}

/**
 * Runs one step of `load` with `engine` and resolves to its figures (the step shape the
 * Result's steps extend with store, key and warnings). Closed loop by default; with `rps`, the
 * open model, where each latency counts from the request's intended send time, so a stalled
 * target or driver is not hidden (no coordinated omission, as in wrk2). An abort of
 * `load.signal` rejects with StepAborted at once, dropping the step.
 *
 * @param {Engine} engine
 * @param {Partial<Load> & { url: string }} load
 */
export async function measureStep(engine, {
  url,
  concurrency = DEFAULT_CONCURRENCY,
  maxRequests,
  durationSeconds,
  rps,
  keepAlive = true,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  signal,
}) {
  if (signal?.aborted) throw new StepAborted();
  const accounting = createMeter({ rps, timeoutMs });
  const startedAt = new Date();
  const cpuBefore = process.cpuUsage();
  const run = engine.run({ url, concurrency, maxRequests, durationSeconds, rps, keepAlive, timeoutMs, signal }, accounting.meter);
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
  const stopNs = process.hrtime.bigint();
  const finishedAt = new Date();
  accounting.close();
  const cpu = process.cpuUsage(cpuBefore);

  // Requests still in flight must not load the target during the next step.
  await accounting.drain(timeoutMs + 1000);
  engineRun.release?.();

  const figures = accounting.figures(stopNs);
  return {
    url,
    mode: rps ? 'open' : 'closed',
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
    rps: figures.rps,
    latency: figures.latency,
    errors: figures.errors,
    cpuPercent: figures.wallSeconds > 0 ? ((cpu.user + cpu.system) / 1e6 / figures.wallSeconds) * 100 : 0,
    engineReported: engineRun.reported ?? null,
    histogram: figures.histogram,
  };
}
