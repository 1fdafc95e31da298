// One measured step, whatever generates the load. An engine (driver/engines/http.js) sends
// the requests; the meter (driver/meter.js) times and counts them, so every engine's figures
// mean the same thing: every request started during the step is waited for and counted,
// latency from each request's start (or intended start) to its settling, rps as responses over
// the time they took (driver/step-figures.js), errors by kind, nothing left in flight when the
// next step starts, the driver's CPU.
import { StepAborted, StepMeter } from './meter.js';
import { threadCpuMicros } from './thread-cpu.js';
import { engineMode } from './engines/table.js';
import { withDirectStoreTime } from '../result/store-time.js';

export { StepAborted } from './meter.js';
export { errorSample, INTERVAL_SECONDS } from './step-figures.js';

// How long past the request deadline the drain waits for an engine to end a cancelled request.
const DRAIN_SLACK_MS = 1000;
// measureStep's clients for a caller that names none: one step's, not the sweep's list of
// levels (options/table.js DEFAULT_CONCURRENCY).
const STEP_CONCURRENCY = 10;
// The per-request deadline when none is given, node test --timeout's default too.
export const DEFAULT_TIMEOUT_MS = 10_000;

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
 * through loadtest or the fast engine, or a direct call of a store adapter in
 * driver/engines/direct.js); measureStep does the timing and accounting, so both produce the
 * same step figures.
 * @typedef {object} Engine
 * @property {string} [name]  its name in driver/engines/table.js, which says its mode
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

// The driver's CPU for a step: this thread's own (the event loop that sends the load), not the
// whole process's, which also holds the probe's thread and --workers' threads starting up
// (a direct step read 110% alone and 140% beside the probe). Where the thread's clock ticks
// in 10 ms (Linux's /proc/thread-self/stat on Node 20), a step under half a second would read
// 0% or 100% from one tick, so it takes the process's figure (in µs) instead.
const THREAD_CPU_MIN_SECONDS = 0.5;
function driverCpuMicros(processCpu, threadBefore, threadAfter, stepSeconds) {
  const threadMeasured = threadBefore !== null && threadAfter !== null;
  if (threadMeasured && stepSeconds >= THREAD_CPU_MIN_SECONDS) return threadAfter - threadBefore;
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
  timeoutMs = DEFAULT_TIMEOUT_MS,
  signal,
  workload,
  keepSums = false,
  ...engineLoad // what one engine needs beyond these (the direct engine: store, key)
}) {
  if (signal?.aborted) throw new StepAborted();
  const meter = new StepMeter({ rps, timeoutMs, operations: workload?.operations });
  const startedAt = new Date();
  const startNs = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const threadBefore = threadCpuMicros();
  const run = engine.run({
    ...engineLoad, url, concurrency, maxRequests, durationSeconds, rps, keepAlive, timeoutMs, signal, workload,
  }, meter);
  let onAbort;
  const aborted = new Promise((resolve, reject) => {
    onAbort = () => reject(new StepAborted());
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  let engineRun;
  try {
    engineRun = await Promise.race([run, aborted]);
  } catch (error) {
    // Aborted while the load ran: nothing more is counted, no deadline timer outlives the step
    // (it would hold a process that has finished for up to --timeout), and the engine's
    // clients are released once it has stopped starting requests.
    meter.close();
    meter.abandon();
    run.then((stopped) => stopped?.release?.(), () => {});
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    aborted.catch(() => {});
  }
  // The load is over: no new request joins the step, but every request it started is waited
  // for and counted (at the latest at its deadline), so the next step also starts clean.
  meter.close();
  try {
    await meter.drain(timeoutMs + DRAIN_SLACK_MS, signal);
  } catch (error) {
    meter.abandon(); // aborted: release() below ends what is still in flight
    throw error;
  } finally {
    engineRun.release?.();
  }
  const finishedAt = new Date();
  const cpu = process.cpuUsage(cpuBefore);
  const threadAfter = threadCpuMicros();
  const stepSeconds = Number(process.hrtime.bigint() - startNs) / 1e9;

  const mode = engineMode(engine);
  // Direct: each call is the store's own time, so its store time is its latency (result/store-time.js).
  const figures = mode === 'direct' ? directFigures(meter.figures()) : meter.figures();
  const operations = keepSums ? figures.operations : figures.operations.map(withoutOwnSums);
  return {
    url,
    mode,
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
    storeTime: keepSums ? figures.storeTime : withoutStoreSums(figures.storeTime),
    errors: figures.errors,
    cpuPercent: stepSeconds > 0
      ? (driverCpuMicros(cpu, threadBefore, threadAfter, stepSeconds) / 1e6 / stepSeconds) * 100
      : 0,
    engineReported: engineRun.reported ?? null,
    histogram: figures.histogram,
    intervals: figures.intervals,
    timeline: figures.timeline,
    operations,
    probe: null, // --probe: the sweep's prober fills it in (driver/probe/)
    ...(keepSums ? { sums: figures.sums } : {}),
  };
}

const directFigures = (figures) => ({
  ...withDirectStoreTime(figures),
  operations: figures.operations.map(withDirectStoreTime),
});

// The exact sums travel only between worker threads and the main thread (keepSums).
const withoutStoreSums = (storeTime) => {
  if (!storeTime?.sums) return storeTime;
  const { sums, ...kept } = storeTime;
  return kept;
};
const withoutOwnSums = ({ sums, storeTime, ...operation }) =>
  ({ ...operation, storeTime: withoutStoreSums(storeTime) });
