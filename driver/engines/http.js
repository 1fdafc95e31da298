// One measured step: loadtest generates the load, we time every request ourselves.
//
// Why not loadtest's numbers: it floors each latency to whole milliseconds (lib/latency.js),
// so a 0.97 ms request counts as 0 ms, and its rps divides by millisecond-truncated times.
// Through its requestGenerator hook we see each request from creation to the response's
// last byte, with process.hrtime.bigint(), and keep our own counts, so its quirks (a timed-out
// request finished twice, late responses dropped after stop) cannot skew ours.
import { EventEmitter } from 'node:events';
import { loadTest } from 'loadtest';
import { createLatencyRecorder } from '../recorder.js';

const DRAIN_POLL_MS = 5;

// loadtest has no stop() for a running test. Once aborted, each client is handed a request
// that never settles, so each stops after its current request instead of spinning on errors.
function idleRequest() {
  return Object.assign(new EventEmitter(), { write() {}, end() {}, setTimeout() {}, destroy() {} });
}

// What loadtest gets instead of the response: status, headers and the end, but no body.
// Its own handler buffers every body and decodes it to a string, which we never use; for the
// 263 KB key3 that cost the driver about 300 µs of CPU per request (measured: ~650 -> ~420 µs).
function withoutBody(response) {
  const stand = new EventEmitter();
  stand.statusCode = response.statusCode;
  stand.headers = response.headers;
  stand.req = response.req;
  response.on('end', () => stand.emit('end'));
  response.on('error', (error) => stand.emit('error', error));
  response.resume();
  return stand;
}

export class StepAborted extends Error {
  constructor() {
    super('step aborted');
    this.name = 'StepAborted';
  }
}

/**
 * Runs one step against url and resolves to its figures.
 *
 * Closed loop (default): `concurrency` clients, each sending its next request when the last ends,
 * for `maxRequests` requests or `durationSeconds`. Open model (`rps`): requests start on a fixed
 * schedule whatever the server does, and each latency counts from the request's intended send
 * time, so a stalled server or client is not hidden (no coordinated omission, as in wrk2).
 */
export async function measureStep({
  url,
  concurrency = 10,
  maxRequests,
  durationSeconds,
  rps,
  keepAlive = true,
  timeoutMs = 10_000,
  signal,
}) {
  if (signal?.aborted) throw new StepAborted();
  const recorder = createLatencyRecorder();
  const errors = {};
  const agents = new Set();
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

  // loadtest calls this for every request and then writes nothing and calls request.end() itself.
  const requestGenerator = (options, params, makeRequest, connect) => {
    if (signal?.aborted) return idleRequest();
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
    if (params.agent) agents.add(params.agent);

    let settled = false;
    let timedOut = false;
    const settle = (statusCode, error) => {
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
      if (statusCode < 200 || statusCode > 299) countError(`http ${statusCode}`);
    };

    const request = makeRequest(params, (response) => {
      // Registered before loadtest's own listeners, so its bookkeeping is not timed.
      response.once('end', () => settle(response.statusCode));
      response.once('error', (error) => settle(null, error));
      connect(withoutBody(response));
    });
    request.once('error', (error) => settle(null, error));
    // A deadline for the whole request (loadtest's own timeout only resets on socket idle and
    // leaves the request running). Destroying it makes loadtest see an error and move on.
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy(Object.assign(new Error(`no response within ${timeoutMs} ms`), { code: 'TIMEOUT' }));
    }, timeoutMs);
    return request;
  };

  const cpuBefore = process.cpuUsage();
  const run = loadTest({
    url,
    concurrency,
    maxRequests,
    maxSeconds: durationSeconds,
    requestsPerSecond: rps,
    agentKeepAlive: keepAlive,
    requestGenerator,
    quiet: true,
  });
  let onAbort;
  const aborted = new Promise((resolve, reject) => {
    onAbort = () => reject(new StepAborted());
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  let engine;
  try {
    engine = await Promise.race([run, aborted]);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    aborted.catch(() => {});
  }
  const stopNs = process.hrtime.bigint();
  open = false;
  const cpu = process.cpuUsage(cpuBefore);

  // Requests still in flight must not load the server during the next step.
  const drainDeadline = Date.now() + timeoutMs + 1000;
  while (inFlight > 0 && Date.now() < drainDeadline) await new Promise((resolve) => setTimeout(resolve, DRAIN_POLL_MS));
  for (const agent of agents) agent.destroy?.();

  const wallSeconds = firstStartNs === null ? 0 : Number(stopNs - firstStartNs) / 1e9;
  const latency = recorder.summary();
  const histogram = recorder.encode();
  recorder.destroy();
  const errorTotal = Object.values(errors).reduce((sum, n) => sum + n, 0);
  return {
    url,
    mode: rps ? 'open' : 'closed',
    maxRequests: maxRequests ?? null,
    durationSeconds: durationSeconds ?? null,
    concurrency: rps ? peakInFlight : concurrency,
    targetRps: rps ?? null,
    requests: created,
    responses,
    wallSeconds,
    rps: wallSeconds > 0 ? responses / wallSeconds : 0,
    latency,
    errors: { total: errorTotal, byKind: errors },
    peakInFlight,
    cpuPercent: wallSeconds > 0 ? ((cpu.user + cpu.system) / 1e6 / wallSeconds) * 100 : 0,
    // What loadtest itself reported for the same step, only to show how far off it is.
    loadtestReported: { meanLatencyMs: engine.meanLatencyMs, rps: engine.rps, totalRequests: engine.totalRequests },
    histogram,
  };
}
