// The load phase (YCSB's "load"): records 0..N-1 written with their version-0 values in batches
// through the app's bulk route (POST /<store>, util/records.js format), each batch timed.
import { createLatencyRecorder } from '../../result/recorder.js';
import { httpRequest, keepAliveAgent } from '../http-request.js';
import { StepAborted } from '../step.js';
import { RECORDS_MEDIA_TYPE, encodeRecords } from '../../util/records.js';
import { keyOf } from './values.js';
import { errorSample } from '../step-figures.js';

const LOAD_BATCH_BYTES = 8 * 1024 * 1024;
const LOAD_BATCH_RECORDS = 10_000;
const LOAD_CONCURRENCY = 2;
// A batch of 8 MB may take a while on a slow store: its deadline is at least this.
const LOAD_MIN_TIMEOUT_MS = 120_000;

/** The records of the batch starting at `from`: { entries, to, bytes }; a record over the byte limit goes alone. */
export function batchOf(workload, from, { maxBytes = LOAD_BATCH_BYTES, maxRecords = LOAD_BATCH_RECORDS } = {}) {
  const { values, records } = workload;
  const end = workload.loadRange?.[1] ?? records; // --part: its slice only
  const entries = [];
  let size = 0;
  for (let index = from; index < end && entries.length < maxRecords; index += 1) {
    const key = keyOf(index);
    const value = values.valueOf(index, 0);
    const next = 2 + key.length + 4 + value.length;
    if (entries.length && size + next > maxBytes) break;
    size += next;
    entries.push([key, value]);
  }
  return { entries, to: from + entries.length, bytes: size };
}

const errorKind = (error) => (error.code === 'TIMEOUT' ? 'timeout' : `conn ${error.code ?? error.message}`);

/** Loads the workload's records into the store at `url` and resolves to the load's figures. */
export async function loadRecords({ url, workload, token = null, timeoutMs = 10_000, signal, onProgress = () => {} }) {
  if (signal?.aborted) throw new StepAborted();
  const agent = keepAliveAgent(url, LOAD_CONCURRENCY);
  const headers = { 'content-type': RECORDS_MEDIA_TYPE, ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const deadline = Math.max(timeoutMs, LOAD_MIN_TIMEOUT_MS);
  // One batch as one POST: landed when the app says it wrote every record of it.
  const send = async ({ entries, to }, from) => {
    const body = encodeRecords(entries);
    const answer = await httpRequest(url, {
      method: 'POST', headers, body, timeoutMs: deadline, agent, signal, maxBodyBytes: 1024 * 1024,
    });
    if (answer.status !== 200) {
      const refused = answer.status >= 400 && answer.status < 500 ? answer.status : null;
      return { kind: `http ${answer.status}`, refused, detail: answer.body.toString('utf8') };
    }
    const text = answer.body.toString('utf8');
    let written = null;
    try {
      written = JSON.parse(text).written;
    } catch {}
    return written === to - from ? { landed: true } : { kind: 'short write', detail: text };
  };
  try {
    return await runLoadPhase({ workload, signal, onProgress, send });
  } finally {
    agent.destroy();
  }
}

/**
 * The load phase, whatever carries the batches. `send(batch, from)` resolves to { landed: true }
 * or { kind, refused?, detail? }: `refused` is a status every batch would get alike, which ends
 * the phase.
 */
export async function runLoadPhase({ workload, signal, onProgress = () => {}, send }) {
  if (signal?.aborted) throw new StepAborted();
  const [first, end] = workload.loadRange ?? [0, workload.records];
  const total = end - first;
  const recorder = createLatencyRecorder();
  const errors = {};
  const samples = {}; // per kind, its first answer as one line (errorSample), as a step's errors.samples
  const startedAt = new Date();
  const startNs = process.hrtime.bigint();
  let next = first;
  let done = 0;
  let loaded = 0;
  let bytes = 0;
  let batches = 0;
  let refused = null; // a refusal every batch would get alike (a 4xx)
  const countError = (kind, detail) => {
    errors[kind] = (errors[kind] ?? 0) + 1;
    if (samples[kind] === undefined && detail) samples[kind] = errorSample(detail);
  };

  const worker = async () => {
    while (next < end && !refused && !signal?.aborted) {
      const from = next;
      const batch = batchOf(workload, from);
      const { to } = batch;
      next = to;
      batches += 1;
      bytes += batch.bytes;
      const sentNs = process.hrtime.bigint();
      let landed = false;
      try {
        const outcome = await send(batch, from);
        recorder.record(process.hrtime.bigint() - sentNs);
        if (outcome.landed) landed = true;
        else {
          countError(outcome.kind, outcome.detail);
          if (outcome.refused) refused = outcome.refused;
        }
      } catch (error) {
        if (signal?.aborted) break;
        countError(errorKind(error), error.message);
      }
      if (landed) loaded += to - from;
      workload.recordLoad(from, to, landed);
      done += to - from;
      onProgress({ done, total, bytes });
    }
  };
  await Promise.all(Array.from({ length: LOAD_CONCURRENCY }, worker));
  if (signal?.aborted) {
    recorder.destroy();
    throw new StepAborted();
  }
  // Records never sent (the batches before them were refused) did not land either.
  if (next < end) workload.recordLoad(next, end, false);
  const seconds = Number(process.hrtime.bigint() - startNs) / 1e9;
  const latency = recorder.summary();
  const histogram = recorder.encode();
  recorder.destroy();
  const errorTotal = Object.values(errors).reduce((sum, n) => sum + n, 0);
  return {
    records: total,
    loaded,
    bytes,
    batches,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    seconds,
    rps: seconds > 0 ? loaded / seconds : 0,
    latency,
    errors: { total: errorTotal, byKind: errors, samples },
    refused,
    histogram,
  };
}
