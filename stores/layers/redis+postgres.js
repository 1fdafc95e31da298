// Write-behind: Redis is the primary, PostgreSQL the durable copy. A write is acknowledged
// once Redis has it; PostgreSQL gets it later, batched (one statement per batch), from a
// background flush and always on close(). Reads come from Redis, the primary.
// Built from the redis and postgres adapters, each with its own key prefix / table.
import * as postgres from '../postgres.js';
import * as redis from '../redis.js';
import { redactText } from '../../util/redact.js';
import { defaults } from '../../config/settings.js';

export const name = 'redis+postgres';
export const description = 'Write-behind: Redis as the primary, PostgreSQL the durable copy written in batches';
export const needs = ['redis', 'postgres'];

export const TABLE = 'storebench_write_behind';
export const KEY_PREFIX = 'storebench:write-behind:';
const BATCH_SIZE = 100;
const RETRY_MAX_MS = 5000;
// Writes waiting for PostgreSQL are held in memory; past this many, set() fails (503)
// rather than let a long PostgreSQL outage grow the app without bound.
const MAX_PENDING = 10_000;

/**
 * @param {{ redis: object, postgres: object }} connections
 * @param {{ flushIntervalMs?: number, batchSize?: number, postgresPoolSize?: number }} [settings]
 *   the resolved store settings (the PostgreSQL ones go on to the postgres adapter)
 */
export async function open(connections, { flushIntervalMs = defaults.flushIntervalMs, batchSize = BATCH_SIZE, ...settings } = {}) {
  const durable = await postgres.open(connections, { ...settings, table: TABLE });
  let primary;
  try {
    primary = await redis.open(connections, { keyPrefix: KEY_PREFIX });
  } catch (error) {
    await durable.close();
    throw error;
  }

  // key -> the newest bytes (null: deleted) acknowledged but not yet in PostgreSQL.
  // Later writes to a key replace earlier ones, so a batch carries each key once.
  const pending = new Map();
  const counts = { flushedWrites: 0, batches: 0, failedFlushes: 0 };
  let lastFlushError;
  let failuresInARow = 0;
  let timer = null;
  let flushing = null;
  let closing = null;
  const writing = new Set(); // writes sent to Redis, not yet acknowledged: close() waits for them

  async function flushBatch() {
    const batch = [];
    for (const entry of pending) {
      batch.push(entry);
      if (batch.length === batchSize) break;
    }
    for (const [key] of batch) pending.delete(key);
    try {
      await durable.setMany(batch);
    } catch (error) {
      // Back into the queue, unless a newer write to the key came in meanwhile.
      for (const [key, bytes] of batch) if (!pending.has(key)) pending.set(key, bytes);
      throw error;
    }
    counts.flushedWrites += batch.length;
    counts.batches++;
  }

  // One flush at a time; it drains everything pending, including writes made while it runs.
  function flush() {
    // Cleared in a callback, never synchronously: an empty drain must not leave a stale promise behind.
    flushing ??= drain().finally(() => { flushing = null; });
    return flushing;
  }

  async function drain() {
    while (pending.size) await flushBatch();
    failuresInARow = 0;
    lastFlushError = undefined;
  }

  function flushInBackground() {
    flush().catch((error) => {
      counts.failedFlushes++;
      failuresInARow++;
      lastFlushError = redactText(error.message);
      later(Math.min(flushIntervalMs * 2 ** failuresInARow, RETRY_MAX_MS));
    });
  }

  function later(delayMs) {
    if (timer || closing) return;
    timer = setTimeout(() => {
      timer = null;
      flushInBackground();
    }, delayMs);
    timer.unref();
  }

  // A full batch goes at once; fewer writes wait for the timer (as does a retry after a failure).
  function schedule() {
    if (pending.size >= batchSize && !flushing && !failuresInARow && !closing) flushInBackground();
    else later(flushIntervalMs);
  }

  function acknowledge(key, bytes) {
    pending.set(key, bytes);
    schedule();
  }

  function assertAccepting() {
    if (closing) throw new Error('redis+postgres is closing');
    if (pending.size >= MAX_PENDING) {
      throw new Error(`PostgreSQL is ${pending.size} writes behind${lastFlushError ? ` (${lastFlushError})` : ''}`);
    }
  }

  async function write(key, bytes, toRedis) {
    assertAccepting();
    const sent = toRedis();
    writing.add(sent);
    try {
      await sent;
    } finally {
      writing.delete(sent);
    }
    acknowledge(key, bytes);
  }

  return {
    get: (key) => primary.get(key),
    set(key, bytes) {
      const copy = Buffer.from(bytes); // queued for later: the caller may reuse its buffer
      return write(key, copy, () => primary.set(key, copy));
    },
    delete(key) {
      return write(key, null, () => primary.delete(key));
    },
    // The store answers while Redis does: a PostgreSQL outage only delays the durable copy
    // (pendingWrites and lastFlushError in stats() show it), as write-behind means to.
    ping: () => primary.ping(),
    /** Flushes every acknowledged write to PostgreSQL, then disconnects; rejects if some could not be written. */
    close() {
      return (closing ??= (async () => {
        clearTimeout(timer);
        let failure;
        await Promise.allSettled([...writing]);
        await (flushing ?? Promise.resolve()).catch(() => {});
        try {
          await flush();
        } catch (error) {
          failure = new Error(`${pending.size} acknowledged writes did not reach PostgreSQL: ${redactText(error.message)}`, { cause: error });
        }
        await Promise.allSettled([primary.close(), durable.close()]);
        if (failure) throw failure;
      })());
    },
    stats() {
      return { pendingWrites: pending.size, ...counts, ...(lastFlushError ? { lastFlushError } : {}), flushIntervalMs, batchSize };
    },
  };
}
