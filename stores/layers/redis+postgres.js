// Write-behind: Redis is the primary, PostgreSQL the durable copy, written later in batches
// (write-behind-queue.js) and always on close(). A key Redis lost is read through to the queue and
// PostgreSQL, and put back. The queue is durable by default: each write goes to Redis with its journal
// entry in one MULTI (write-behind-journal.js), replayed at the next open, so a kill -9 loses nothing
// Redis keeps. With several app processes, flushes are ordered across them (shared-flush.js).
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
export const writes = { append: true, bulk: 'native', hash: false };
export const pipelining = {
  pipelines: false,
  reason: 'a layer of two stores: a call that reaches PostgreSQL goes through a pool, which hands a connection ' +
    'to one query at a time (pipeline redis and postgres themselves)',
};

export const TABLE = 'storebench_write_behind';
// # is outside the key alphabet: no key a user can send reaches these.
export const KEY_PREFIX = ['storebench', 'write-behind', ''].join(INTERNAL_SEPARATOR);
export const QUEUE_KEY = JOURNAL_KEY;
const BATCH_SIZE = 500;
// Past this many writes waiting for PostgreSQL, set() fails (503) rather than let a long outage
// grow the app without bound.
const MAX_PENDING = 10_000;
// How long a read-through waits for another process to flush a key's newest write (a few flushes).
const ELSEWHERE_WAIT_MS = 5000;

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

// PostgreSQL, then Redis; a Redis that cannot be opened closes PostgreSQL again.
async function openStores(connections, settings) {
  const durable = await postgres.open(connections, { ...settings, table: TABLE });
  try {
    return { durable, primary: await redis.open(connections, { keyPrefix: KEY_PREFIX }) };
  } catch (error) {
    await durable.close();
    throw error;
  }
}

// With several app processes: each key's flushes ordered across them (shared-flush.js).
async function joinFlushes(connections, journal, closeStores) {
  try {
    const { default: pg } = await import('pg');
    return sharedFlush(pg, connections.postgres, { journal, epoch: await journal.epoch(), table: TABLE });
  } catch (error) {
    await closeStores();
    throw error;
  }
}

// The writes a previous run acknowledged and left in the journal: to PostgreSQL before any new one.
async function replayUnflushed(journal, queue, counts, closeStores) {
  try {
    const { writes, lost } = await journal.unflushed();
    for (const [key, bytes, token] of writes) queue.add(key, bytes, token);
    await queue.flush();
    await journal.forget(lost); // Redis no longer has their values (evicted): nothing to replay
    Object.assign(counts, { replayed: writes.length, replayLost: lost.length });
  } catch (error) {
    queue.discard(); // the journal keeps them for the next attempt
    await closeStores();
    throw new Error('redis+postgres could not replay the writes a previous run left unflushed: ' +
      redactText(error.message), { cause: error });
  }
}

// Redis first: write() sends one Redis write (send() issues it synchronously) and, once Redis has
// it, queues what PostgreSQL must get, unless a later write to the key was acknowledged first.
// `sending` holds the Redis writes not yet answered: close() waits for them.
function redisFirst(queue) {
  const underWay = new KeyWrites();
  const sending = new Set();
  async function write(keys, send, { replaces = true } = {}) {
    const writes = keys.map((key) => underWay.begin(key, { replaces }));
    const sent = send();
    sending.add(sent);
    try {
      const durableValues = await sent;
      durableValues.forEach(([key, bytes, token], i) => writes[i].acknowledge(() => queue.add(key, bytes, token)));
    } finally {
      sending.delete(sent);
      for (const one of writes) one.end();
    }
  }
  return { underWay, sending, write };
}

// A key Redis lost: read from the queue, else PostgreSQL, and put back into Redis unless a write
// of it began meanwhile.
function readThroughOf({ primary, durable, journal, shared, queue, underWay, counts, flushIntervalMs }) {
  // The journal names a write of key another process holds: wait for it to reach PostgreSQL.
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

  return async function readThrough(key) {
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
  };
}

// Waits for Redis's answers, flushes what PostgreSQL has not got, then closes both stores; a
// failed flush is the error, after they are closed.
async function closeWriteBehind(sending, queue, closeStores) {
  let failure;
  await Promise.allSettled([...sending]);
  try {
    await queue.close();
  } catch (error) {
    failure = new Error('redis+postgres: PostgreSQL did not get every acknowledged write: ' +
      redactText(error.message), { cause: error });
  }
  await closeStores();
  if (failure) throw failure;
}

export async function open(connections, {
  flushIntervalMs = defaults.flushIntervalMs, writeBehindQueue = defaults.writeBehindQueue,
  batchSize = BATCH_SIZE, maxPending = MAX_PENDING, workers = 1, joining = false, ...settings
} = {}) {
  if (workers > 1 && writeBehindQueue === 'memory') {
    throw new Error(`with ${workers} app workers each keeps its own queue, and a queue in memory ` +
      '(STOREBENCH_WRITE_BEHIND_QUEUE=memory) cannot keep two workers\' writes of one key in order: ' +
      'use the redis queue');
  }
  const { durable, primary } = await openStores(connections, settings);
  let shared = null;
  const closeStores = () => Promise.allSettled([primary.close(), durable.close(), shared?.close()]);

  const journal = writeBehindQueue === 'memory' ? null : writeBehindJournal(primary.client, primary.keyOf);
  const commands = journal ?? inMemoryWrites(primary); // each resolves to its journal token(s), if any
  if (workers > 1) shared = await joinFlushes(connections, journal, closeStores);
  const writeBatch = async (batch) => {
    if (!batch.length) return;
    await durable.setMany(batch.map(([key, bytes]) => [key, bytes]));
    await journal?.forget(batch); // only now: PostgreSQL has committed them
  };
  const queue = new WriteBehindQueue((batch) => (shared ? shared.write(batch, writeBatch) : writeBatch(batch)),
    { flushIntervalMs, batchSize, maxPending });
  const { underWay, sending, write } = redisFirst(queue);
  const counts = { readThroughs: 0, replayed: 0, replayLost: 0 };
  let closing = null;

  if (journal && !joining) await replayUnflushed(journal, queue, counts, closeStores);
  const readThrough = readThroughOf({ primary, durable, journal, shared, queue, underWay, counts, flushIntervalMs });

  function assertAccepting(n = 1) {
    if (closing) throw new Error('redis+postgres is closing');
    queue.assertRoom(n);
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
    // Where Redis lost the key, read it through first, so the append lands on the durable value.
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
    // A PostgreSQL outage only delays the durable copy (stats() shows it), as write-behind means to.
    ping: () => primary.ping(),
    close() {
      return (closing ??= closeWriteBehind(sending, queue, closeStores));
    },
    stats() {
      return { ...queue.stats(), queue: journal ? 'redis' : 'memory', ...counts, ...(shared ? { workers } : {}) };
    },
  };
}
