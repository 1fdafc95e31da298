// The load phase (YCSB's "load"): before a run over --records N, records 0..N-1 are written
// with their version-0 values through the app's bulk route, POST /<store> with a body of
// records ([uint16 BE key length][key][uint32 BE value length][value]), in batches of at most
// LOAD_BATCH_BYTES and LOAD_BATCH_RECORDS, LOAD_CONCURRENCY batches in flight. Every batch is
// timed; the phase resolves to its own figures (records, bytes, rate, latency per batch, errors).
import { createLatencyRecorder } from '../recorder.js';
import { httpRequest, keepAliveAgent } from '../http-request.js';
import { StepAborted } from '../step.js';
import { RECORDS_MEDIA_TYPE, encodeRecords } from '../../util/records.js';
import { keyOf } from './values.js';

export const LOAD_BATCH_BYTES = 8 * 1024 * 1024;
export const LOAD_BATCH_RECORDS = 10_000;
export const LOAD_CONCURRENCY = 2;
// A batch of 8 MB may take a while on a slow store: its deadline is at least this.
export const LOAD_MIN_TIMEOUT_MS = 120_000;

/**
 * Encodes records from.. (within the limits) into one body, in the app's records format
 * (util/records.js). Returns { body, to } with `to` the first record not in it; a record larger
 * than the byte limit goes alone.
 */
export function encodeBatch(workload, from, { maxBytes = LOAD_BATCH_BYTES, maxRecords = LOAD_BATCH_RECORDS } = {}) {
  const { values, records } = workload;
  const entries = [];
  let size = 0;
  for (let index = from; index < records && entries.length < maxRecords; index += 1) {
    const key = keyOf(index);
    const value = values.valueOf(index, 0);
    const next = 2 + key.length + 4 + value.length;
    if (entries.length && size + next > maxBytes) break;
    size += next;
    entries.push([key, value]);
  }
  return { body: encodeRecords(entries), to: from + entries.length };
}

const errorKind = (error) => (error.code === 'TIMEOUT' ? 'timeout' : `conn ${error.code ?? error.message}`);

/**
 * Loads the workload's records into the store at `url` (the store's base: http://host/redis).
 * onProgress({ done, total, bytes }) after each batch. Resolves to the load's figures; an abort
 * of `signal` rejects with StepAborted. Tells the workload which records landed (recordLoad).
 */
export async function loadRecords({ url, workload, token = null, timeoutMs = 10_000, signal, onProgress = () => {} }) {
  if (signal?.aborted) throw new StepAborted();
  const total = workload.records;
  const recorder = createLatencyRecorder();
  const errors = {};
  const agent = keepAliveAgent(url, LOAD_CONCURRENCY);
  const headers = { 'content-type': RECORDS_MEDIA_TYPE, ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const deadline = Math.max(timeoutMs, LOAD_MIN_TIMEOUT_MS);
  const startedAt = new Date();
  const startNs = process.hrtime.bigint();
  let next = 0;
  let done = 0;
  let loaded = 0;
  let bytes = 0;
  let batches = 0;
  let refused = null; // a 4xx: the app will refuse every batch alike
  const countError = (kind) => {
    errors[kind] = (errors[kind] ?? 0) + 1;
  };

  const worker = async () => {
    while (next < total && !refused && !signal?.aborted) {
      const from = next;
      const { body, to } = encodeBatch(workload, from);
      next = to;
      batches += 1;
      bytes += body.length;
      const sentNs = process.hrtime.bigint();
      let landed = false;
      try {
        const answer = await httpRequest(url, { method: 'POST', headers, body, timeoutMs: deadline, agent, signal, maxBodyBytes: 1024 * 1024 });
        recorder.record(process.hrtime.bigint() - sentNs);
        if (answer.status === 200) {
          let written = null;
          try {
            written = JSON.parse(answer.body.toString('utf8')).written;
          } catch {}
          if (written === to - from) landed = true;
          else countError('short write');
        } else {
          countError(`http ${answer.status}`);
          if (answer.status >= 400 && answer.status < 500) refused = answer.status;
        }
      } catch (error) {
        if (signal?.aborted) break;
        countError(errorKind(error));
      }
      if (landed) loaded += to - from;
      workload.recordLoad(from, to, landed);
      done += to - from;
      onProgress({ done, total, bytes });
    }
  };
  try {
    await Promise.all(Array.from({ length: LOAD_CONCURRENCY }, worker));
  } finally {
    agent.destroy();
  }
  if (signal?.aborted) {
    recorder.destroy();
    throw new StepAborted();
  }
  // Records never sent (the app refused the batches before them) did not land either.
  if (next < total) workload.recordLoad(next, total, false);
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
    errors: { total: errorTotal, byKind: errors },
    refused,
    histogram,
  };
}
