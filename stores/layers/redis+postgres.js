// Write-behind: Redis is the primary, PostgreSQL the durable copy. A write is acknowledged
// once Redis has it; PostgreSQL gets it later, batched, from the write-behind queue
// (write-behind-queue.js), and always on close(). Reads come from Redis; a key Redis has lost
// (a restart, an eviction) is read through to the queue and PostgreSQL, and put back.
// Built from the redis and postgres adapters, each with its own key prefix / table.
//
// The queue is durable by default (writeBehindQueue 'redis'): each write goes to Redis with its
// journal entry in one MULTI (write-behind-journal.js), an entry goes once PostgreSQL has
// committed its write, and open() first writes to PostgreSQL whatever a previous run left in
// the journal. So an app killed outright (kill -9) loses nothing Redis keeps. 'memory' keeps
// the queue in the process only: a kill -9 then loses what it had not flushed.
//
// In several app processes at once (app.js --workers N), each keeps its own queue over the one
// journal: the first to open replays, the others join, and flushes are ordered across them
// (shared-flush.js). The memory queue cannot be ordered so: it is refused there.
import { setTimeout as sleep } from 'node:timers/promises';
import * as postgres from '../postgres.js';
import * as redis from '../redis.js';
import { WriteBehindQueue } from './write-behind-queue.js';
import { sharedFlush } from './shared-flush.js';
import { JOURNAL_KEY, writeBehindJournal } from './write-behind-journal.js';
import { KeyWrites } from './key-writes.js';
import { INTERNAL_SEPARATOR } from '../keys.js';
import { redactText } from '../../util/redact.js';
import { defaults } from '../../config/settings.js';

export const name = 'redis+postgres';
export const description = 'Write-behind: Redis as the primary, PostgreSQL the durable copy written in batches';
export const needs = ['redis', 'postgres'];
// Append is Redis's APPEND (the whole value then queued for PostgreSQL); bulk an MSET pipeline.
export const writes = { append: true, bulk: 'native', hash: false };
// --pipeline (docs/direct.md): refused.
export const pipelining = {
  pipelines: false,
  reason: 'a layer of two stores: a call that reaches PostgreSQL goes through a pool, which hands a connection ' +
    'to one query at a time (pipeline redis and postgres themselves)',
};

export const TABLE = 'storebench_write_behind';
// # is outside the key alphabet: no key a user can send reaches these.
export const KEY_PREFIX = ['storebench', 'write-behind', ''].join(INTERNAL_SEPARATOR);
// The Redis hash of writes PostgreSQL may not have yet (the durable queue's journal).
export const QUEUE_KEY = JOURNAL_KEY;
const BATCH_SIZE = 500;
// Writes waiting for PostgreSQL are held in memory; past this many, set() fails (503)
// rather than let a long PostgreSQL outage grow the app without bound. A bulk load waits
// for room instead (under the operation deadline).
const MAX_PENDING = 10_000;
// How long a read-through waits for another process to flush the newest write of a key Redis
// lost (several app processes): a few flush intervals at the default, then the read fails.
const ELSEWHERE_WAIT_MS = 5000;

// The queue kept in the process only: the same writes as the journal's, without its entries.
const inMemoryWrites = (primary) => ({
  async set(key, bytes) { await primary.set(key, bytes); },
  async delete(key) { await primary.delete(key); },
  async setMany(entries) {
    await primary.setMany(entries);
    return [];
  },
  async appendIfExists(key, bytes) {
    const after = await primary.appendIfExists(key, bytes);
    return after == null ? null : { after };
  },
  appendAndRead: async (key, bytes) => ({ after: await primary.appendAndRead(key, bytes) }),
});

/**
 * @param {{ redis: object, postgres: object }} connections
 * @param {{ flushIntervalMs?: number, writeBehindQueue?: 'redis'|'memory', batchSize?: number,
 *   maxPending?: number, postgresPoolSize?: number, workers?: number, joining?: boolean }} [settings]
 *   the resolved store settings (the PostgreSQL ones go on to the postgres adapter); workers:
 *   the app processes sharing the journal, joining: another one already replayed it
 */
export async function open(connections, {
  flushIntervalMs = defaults.flushIntervalMs, writeBehindQueue = defaults.writeBehindQueue,
  batchSize = BATCH_SIZE, maxPending = MAX_PENDING, workers = 1, joining = false, ...settings
} = {}) {
  if (workers > 1 && writeBehindQueue === 'memory') {
    throw new Error(`with ${workers} app workers each keeps its own queue, and a queue in memory ` +
      '(STOREBENCH_WRITE_BEHIND_QUEUE=memory) cannot keep two workers\' writes of one key in order: ' +
      'use the redis queue');
  }
  const durable = await postgres.open(connections, { ...settings, table: TABLE });
  let primary;
  try {
    primary = await redis.open(connections, { keyPrefix: KEY_PREFIX });
  } catch (error) {
    await durable.close();
    throw error;
  }

  const journal = writeBehindQueue === 'memory' ? null : writeBehindJournal(primary.client, primary.keyOf);
  const commands = journal ?? inMemoryWrites(primary); // each resolves to its journal token(s), if any
  let shared = null;
  if (workers > 1) {
    try {
      const { default: pg } = await import('pg');
      shared = sharedFlush(pg, connections.postgres, { journal, epoch: await journal.epoch(), table: TABLE });
    } catch (error) {
      await Promise.allSettled([primary.close(), durable.close()]);
      throw error;
    }
  }
  const writeBatch = async (batch) => {
    if (!batch.length) return;
    await durable.setMany(batch.map(([key, bytes]) => [key, bytes]));
    await journal?.forget(batch); // only now: PostgreSQL has committed them
  };
  const queue = new WriteBehindQueue((batch) => (shared ? shared.write(batch, writeBatch) : writeBatch(batch)),
    { flushIntervalMs, batchSize, maxPending });
  const underWay = new KeyWrites();
  const sending = new Set(); // Redis writes not yet answered: close() waits for them
  const counts = { readThroughs: 0, replayed: 0, replayLost: 0 };
  let closing = null;

  // What a previous run acknowledged and PostgreSQL may lack: written there before serving,
  // by the first of several app processes to open.
  if (journal && !joining) {
    try {
      const { writes, lost } = await journal.unflushed();
      for (const [key, bytes, token] of writes) queue.add(key, bytes, token);
      await queue.flush();
      await journal.forget(lost); // Redis no longer has their values (evicted): nothing to replay
      Object.assign(counts, { replayed: writes.length, replayLost: lost.length });
    } catch (error) {
      queue.discard(); // the journal keeps them for the next attempt
      await Promise.allSettled([primary.close(), durable.close(), shared?.close()]);
      throw new Error('redis+postgres could not replay the writes a previous run left unflushed: ' +
        redactText(error.message), { cause: error });
    }
  }

  // Sends one Redis write (send() issues its command synchronously) and, once Redis has it,
  // queues what PostgreSQL must get, unless a later write to the key was acknowledged first.
  async function write(keys, send, { replaces = true } = {}) {
    const writes = keys.map((key) => underWay.begin(key, { replaces }));
    const sent = send();
    sending.add(sent);
    try {
      // [key, bytes|null, token] in keys' order (none: nothing written)
      const durableValues = await sent;
      durableValues.forEach(([key, bytes, token], i) => writes[i].acknowledge(() => queue.add(key, bytes, token)));
    } finally {
      sending.delete(sent);
      for (const one of writes) one.end();
    }
  }

  function assertAccepting(n = 1) {
    if (closing) throw new Error('redis+postgres is closing');
    queue.assertRoom(n);
  }

  // Redis has no copy: the newest acknowledged value is in the queue, else in PostgreSQL. Put
  // it back in Redis unless a write replaced the key meanwhile (then Redis has the newer one).
  async function readThrough(key) {
    const watcher = underWay.watch(key);
    try {
      if (shared && !queue.lookup(key)) await flushedElsewhere(key);
      const queued = queue.lookup(key);
      const bytes = queued ? queued.bytes : await durable.get(key);
      if (bytes != null && !watcher.dirty) {
        counts.readThroughs++;
        await primary.setIfAbsent(key, bytes); // issued in this tick: see key-writes.js
      }
      return bytes;
    } finally {
      watcher.end();
    }
  }

  // Several app processes: the journal names a write of key this process does not hold, so the
  // newest value is in another's queue. Wait for it to reach PostgreSQL.
  async function flushedElsewhere(key) {
    const until = Date.now() + ELSEWHERE_WAIT_MS;
    for (;;) {
      const { tokens: [token] } = await journal.current([key]);
      if (token === null || queue.lookup(key)) return;
      if (Date.now() > until) {
        throw new Error(`Redis lost ${key}, and another app worker has not flushed its newest write of it ` +
          `to PostgreSQL within ${ELSEWHERE_WAIT_MS / 1000} s`);
      }
      await sleep(Math.max(10, flushIntervalMs / 4));
    }
  }

  return {
    async get(key) {
      return (await primary.get(key)) ?? readThrough(key);
    },
    async set(key, bytes) {
      assertAccepting();
      const copy = Buffer.from(bytes); // queued for later: the caller may reuse its buffer
      await write([key], async () => [[key, copy, await commands.set(key, copy)]]);
    },
    async delete(key) {
      assertAccepting();
      await write([key], async () => [[key, null, await commands.delete(key)]]);
    },
    // APPEND where Redis has the key; where it has lost it, read it through first, so the
    // append lands on the durable value. PostgreSQL then gets the whole value Redis answers.
    async append(key, bytes) {
      assertAccepting();
      let appended = false;
      await write([key], async () => {
        const done = await commands.appendIfExists(key, bytes);
        appended = done != null;
        return appended ? [[key, done.after, done.token]] : []; // absent: nothing written, nothing to queue
      }, { replaces: false });
      if (appended) return;
      await readThrough(key);
      await write([key], async () => {
        const { after, token } = await commands.appendAndRead(key, bytes);
        return [[key, after, token]];
      }, { replaces: false });
    },
    async setMany(entries) {
      if (closing) throw new Error('redis+postgres is closing');
      await queue.waitForRoom(entries.length);
      // Copies: the entries are views into a request body the queue must not keep alive.
      const copies = entries.map(([key, bytes]) => [key, Buffer.from(bytes)]);
      await write(copies.map(([key]) => key), async () => {
        const tokens = await commands.setMany(copies);
        return copies.map(([key, bytes], i) => [key, bytes, tokens[i]]);
      });
    },
    // The store answers while Redis does: a PostgreSQL outage only delays the durable copy
    // (pendingWrites and lastFlushError in stats() show it), as write-behind means to.
    ping: () => primary.ping(),
    /** Flushes every acknowledged write to PostgreSQL, then disconnects; rejects if some could not be written. */
    close() {
      return (closing ??= (async () => {
        let failure;
        await Promise.allSettled([...sending]);
        try {
          await queue.close();
        } catch (error) {
          failure = new Error('redis+postgres: PostgreSQL did not get every acknowledged write: ' +
            redactText(error.message), { cause: error });
        }
        await Promise.allSettled([primary.close(), durable.close(), shared?.close()]);
        if (failure) throw failure;
      })());
    },
    stats() {
      return { ...queue.stats(), queue: journal ? 'redis' : 'memory', ...counts, ...(shared ? { workers } : {}) };
    },
  };
}
