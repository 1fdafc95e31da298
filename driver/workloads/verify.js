// After a run that wrote: read back a sample of keys and check each holds the last value the
// store acknowledged. Keys whose value cannot be known (overlapping or unconfirmed writes) are
// left out and counted.
import { httpRequest, keepAliveAgent } from '../http-request.js';
import { StepAborted } from '../step.js';
import { VERIFY_SAMPLE, WEAKER_PROMISES } from '../../config/workloads.js';
import { formatBytes } from '../../util/bytes.js';
import { keyOf } from './values.js';

const VERIFY_CONCURRENCY = 8;
const MAX_EXAMPLES = 10;

function expectedValue(values, { index, base, from, to }) {
  const parts = [];
  if (base === 'loaded') parts.push(values.valueOf(index, 0));
  for (let version = from; version <= to; version += 1) parts.push(values.valueOf(index, version));
  return parts.length === 1 ? parts[0] : Buffer.concat(parts);
}

function describeMismatch(values, entry, answer) {
  if (answer.error) return answer.error;
  if (answer.status !== 200) return answer.status === 404 ? 'missing (404)' : `http ${answer.status}`;
  const { body } = answer;
  const { index, base, from, to } = entry;
  if (from === to && to >= 1) {
    // One PUT: is it the value before it (the write was lost)?
    let before = null;
    if (to > 1) before = values.valueOf(index, to - 1);
    else if (base === 'loaded' || entry.loadedBefore) before = values.valueOf(index, 0);
    if (before && body.equals(before)) {
      return to > 1 ? `the value of the write before (version ${to - 1})` : 'its loaded value: the write was lost';
    }
  }
  return `${formatBytes(body.length)} that are not it`;
}

const describeExpected = ({ base, from, to }) => {
  if (from > to) return 'its loaded value';
  if (from === to && base === 'absent') return `version ${to}`;
  return `${base === 'loaded' ? 'its loaded value and ' : ''}appends ${from}..${to}`;
};

/** Reads the sample back from the store at `url`; `promise` says why a store may lose an acknowledged value. */
export async function verifyWrites({
  url, store, workload, token = null, timeoutMs = 10_000, signal, sample = VERIFY_SAMPLE,
}) {
  const agent = keepAliveAgent(url, VERIFY_CONCURRENCY);
  const base = url.replace(/\/+$/, '');
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  const read = async (key) => {
    try {
      return await httpRequest(`${base}/${key}`, {
        headers, timeoutMs, agent, signal, maxBodyBytes: 1024 * 1024 * 1024,
      });
    } catch (error) {
      return { error: error.code === 'TIMEOUT' ? 'no answer (timeout)' : `no answer (${error.code ?? error.message})` };
    }
  };
  try {
    return await verifySample({ store, workload, signal, sample, read });
  } finally {
    agent.destroy();
  }
}

/** The verification, whatever reads the keys back: `read(key)` never rejects. */
export async function verifySample({ store, workload, signal, sample = VERIFY_SAMPLE, read }) {
  const { tracker, values, records, baseOf } = workload;
  const leftOut = { overlap: 0, failed: 0, unknownBase: 0 };
  const checks = [];
  for (const entry of tracker.entries()) {
    if (entry.inFlight > 0 || (!entry.known && entry.why === 'failed')) leftOut.failed += 1;
    else if (!entry.known) leftOut[entry.why === 'overlap' ? 'overlap' : 'unknownBase'] += 1;
    // Every write of it refused: it holds what it held, which is known only when loaded.
    else if (entry.from > entry.to && entry.base !== 'loaded') continue;
    else checks.push({ ...entry, loadedBefore: baseOf(entry.index) === 'loaded' });
  }
  // The tracker followed every key written while it had room: when not full, a key it lacks was not written.
  const room = sample - tracker.size;
  if (room > 0 && records > 0) {
    const stride = Math.max(1, records / room);
    for (let i = 0; i < room && Math.floor(i * stride) < records; i += 1) {
      const index = Math.floor(i * stride);
      if (tracker.has(index) || baseOf(index) !== 'loaded') continue;
      checks.push({ index, known: true, base: 'loaded', from: 1, to: 0 });
    }
  }

  let verified = 0;
  const mismatches = [];
  let next = 0;
  const worker = async () => {
    while (next < checks.length && !signal?.aborted) {
      const entry = checks[next++];
      const key = keyOf(entry.index);
      const answer = await read(key);
      const expected = expectedValue(values, entry);
      if (answer.status === 200 && answer.body.equals(expected)) {
        verified += 1;
      } else {
        mismatches.push({
          index: entry.index,
          key,
          expected: `${describeExpected(entry)}, ${formatBytes(expected.length)}`,
          got: describeMismatch(values, entry, answer),
        });
      }
    }
  };
  await Promise.all(Array.from({ length: VERIFY_CONCURRENCY }, worker));
  if (signal?.aborted) throw new StepAborted();
  mismatches.sort((a, b) => a.index - b.index);
  return {
    sampled: checks.length,
    verified,
    mismatched: mismatches.length,
    examples: mismatches.slice(0, MAX_EXAMPLES).map(({ key, expected, got }) => ({ key, expected, got })),
    leftOut,
    promise: WEAKER_PROMISES[store] ?? null,
  };
}
