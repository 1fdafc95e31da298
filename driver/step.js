// One measured step, whatever engine generates the load: the meter times and counts it, so every
// engine's figures mean the same (every request started is waited for and counted).
import { StepAborted, StepMeter } from './meter.js';
import { threadCpuMicros } from './thread-cpu.js';
import { engineMode } from './engines/table.js';
import { withDirectStoreTime } from '../result/store-time.js';
import { DEFAULT_TIMEOUT_MS } from '../config/run-defaults.js';

export { StepAborted } from './meter.js';

const DRAIN_SLACK_MS = 1000;
// One step's clients, not the sweep's list of levels.
const STEP_CONCURRENCY = 10;

/**
 * @typedef {object} Load
 * @property {string} url                the target
 * @property {number} concurrency        closed loop: clients; with `rps`: clients sharing the schedule
 * @property {number} [rps]              open model: start requests at this fixed rate
 * @property {number} [maxRequests]      stop after starting this many requests...
 * @property {number} [durationSeconds]  ...or after this long
 * @property {boolean} keepAlive         reuse connections between requests
 * @property {number} timeoutMs          deadline for each whole request
 * @property {AbortSignal} [signal]      once aborted, start no new request
 * @property {object} [workload]         what to send per request; none: GET `url` every time
 */

/**
 * @typedef {object} Meter
 * @property {(cancel?: (error: Error) => void, operation?: string) => RequestHandle} begin
 *   Call right before sending; latency counts from here (open model: from the intended send
 *   time). `cancel(error)` must end the request past its deadline; without it the request counts
 *   as a timeout at the deadline.
 */

/**
 * How one request ended: call exactly one of these, once.
 * @typedef {object} RequestHandle
 * @property {(status: number, body?: string) => void} responded  a non-2xx status also counts
 *   as error `http <status>`
 * @property {(error: Error) => void} failed       counted as `timeout` past the deadline, else `conn <code>`
 */

/**
 * The contract a load engine implements: it makes the requests, measureStep times and counts them.
 * @typedef {object} Engine
 * @property {string} [name]  its name in driver/engines/table.js, which says its mode
 * @property {(load: Load, meter: Meter) => Promise<EngineRun>} run
 *   Resolves when the load is over; starts no request after that. Requests still in flight are
 *   waited for and counted.
 */

/**
 * @typedef {object} EngineRun
 * @property {object|null} reported  the engine's own figures, kept only to compare with ours
 * @property {() => void} [release]  frees its connections once in-flight requests have drained
 */

// This thread's CPU, not the process's, which also holds the probe and --threads threads (a direct
// step read 110% alone, 140% beside the probe). The thread clock ticks in 10 ms on Linux, so a
// step under half a second takes the process's figure instead.
const THREAD_CPU_MIN_SECONDS = 0.5;
function driverCpuMicros(processCpu, threadBefore, threadAfter, stepSeconds) {
  const threadMeasured = threadBefore !== null && threadAfter !== null;
  if (threadMeasured && stepSeconds >= THREAD_CPU_MIN_SECONDS) return threadAfter - threadBefore;
  return processCpu.user + processCpu.system;
}

/**
 * Runs one step of `load` with `engine` and resolves to its figures. Open model (`rps`):
 * latency counts from the intended send time, so a stall is not hidden (no coordinated
 * omission). An abort rejects with StepAborted at once. `keepSums` keeps the recorder's exact
 * sums, for --threads' threads.
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
    // No deadline timer may outlive the step: it would hold a finished process up to --timeout.
    meter.close();
    meter.abandon();
    run.then((stopped) => stopped?.release?.(), () => {});
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    aborted.catch(() => {});
  }
  // Wait for every started request (at the latest its deadline), so the next step starts clean.
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
  const cpuSeconds = driverCpuMicros(cpu, threadBefore, threadAfter, stepSeconds) / 1e6;

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
    cpuPercent: stepSeconds > 0 ? (cpuSeconds / stepSeconds) * 100 : 0,
    cpuSeconds,
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

const withoutStoreSums = (storeTime) => {
  if (!storeTime?.sums) return storeTime;
  const { sums, ...kept } = storeTime;
  return kept;
};
const withoutOwnSums = ({ sums, storeTime, ...operation }) =>
  ({ ...operation, storeTime: withoutStoreSums(storeTime) });
