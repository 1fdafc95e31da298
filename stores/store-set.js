// The stores one app serves: each opened (or unavailable, with the reason), read on the request path
// with typed errors, reported for /stores and /healthz, closed in order. No server can hold the app
// up: opening and every operation have deadlines, and a server that comes back empty gets key1..key3
// again, except a seeded key the app itself deleted: a delete it acknowledged is never undone.
import {
  AppendUnsupportedError, KeyNotFoundError, PerWorkerStoreError, ServerUnavailableError, StorebenchError,
  StoreTimeoutError, StoreUnavailableError, UnknownStoreError,
} from '../util/errors.js';
import { redactText } from '../util/redact.js';
import { restoreLostSeeds } from './seed.js';
import { withDeadline, withOperationDeadline } from './deadline.js';
import { assertKey } from './keys.js';
import { chunksOf, eachLimited, lastWriteWins } from './bulk.js';
import { settings as declared } from '../config/settings.js';

const REOPEN_INTERVAL_MS = 5000;
// A seeded key found missing re-seeds at most this often, so a store that cannot keep the
// data (or a key someone keeps deleting) costs one re-seed a second, not one per request.
const RESEED_INTERVAL_MS = 1000;
let sequence = 0;
// A bulk load runs this many store calls at once.
const BULK_CHUNKS_AT_ONCE = 4;
const BULK_SETS_AT_ONCE = 16;
const WRITES = new Set(['set', 'delete', 'append', 'setMany']);

const perWorkerRefusal = (workers) => ({
  code: 'PER_WORKER_STORE',
  reason: `the app runs ${workers} worker processes, each with its own copy of this in-process store, so a ` +
    'value written through one would be missing from the others (reads of its seeded keys work)',
});

export const reasonOf = (error) => redactText(error?.message || String(error)).split('\n')[0];

export class StoreSet {
  // entries: { adapter, connections?, open?(), reason?, reasonCode? }. reopen (default true): an
  // unavailable store is tried again in the background. workers past one: a store that needs no
  // server keeps its data in each process apart and refuses writes.
  constructor(entries, stopServers = [], {
    openTimeoutMs = declared.openTimeoutMs.default, opTimeoutMs = declared.opTimeoutMs.default, reopen = true,
    workers = 1, deletingSeed,
  } = {}) {
    this.entries = new Map(entries.map((entry) => [entry.adapter.name, entry]));
    for (const entry of this.entries.values()) {
      if (workers > 1 && entry.adapter.needs.length === 0) entry.writesRefused = perWorkerRefusal(workers);
    }
    this.deletingSeed = deletingSeed;
    this.stopServers = stopServers;
    this.openTimeoutMs = openTimeoutMs;
    this.opTimeoutMs = opTimeoutMs;
    this.reopen = reopen;
    this.closed = false;
    this.observer = null;
  }

  async openAll() {
    await Promise.all([...this.entries.values()].filter((entry) => entry.open).map((entry) => this.#open(entry)));
  }

  entry(name) {
    const entry = this.entries.get(name);
    if (!entry) throw new UnknownStoreError(name);
    return entry;
  }

  // Checked before any store is called, so the write routes answer a request that cannot succeed
  // before reading its body. key undefined: a bulk load.
  prepare(name, key, operation) {
    const entry = this.entry(name);
    if (key !== undefined) assertKey(key, name);
    if (operation === 'append' && !entry.adapter.writes.append) throw new AppendUnsupportedError(name);
    if (WRITES.has(operation) && entry.writesRefused) throw new PerWorkerStoreError(name, entry.writesRefused.reason);
    if (!entry.store) {
      this.#reopenSoon(entry);
      throw new StoreUnavailableError(name, entry.reason);
    }
    return entry;
  }

  // Every operation below takes an optional `timing` last (routes/server-timing-header.js).

  async read(name, key, timing) {
    const entry = this.prepare(name, key);
    const startMs = timing ? performance.now() : 0;
    try {
      let bytes = await this.#call(entry, 'get', key);
      if (bytes == null && entry.keys?.includes(key) && !entry.deletedSeeds.has(key)) {
        // A seeded key gone that the app did not delete: the server lost its data. Put it back.
        await this.#reseed(entry).catch(() => {});
        bytes = await this.#call(entry, 'get', key);
      }
      if (bytes == null) throw new KeyNotFoundError(name, key);
      return bytes;
    } finally {
      if (timing) timing.storeMs = performance.now() - startMs;
    }
  }

  async write(name, key, bytes, timing) {
    const entry = this.prepare(name, key, 'set');
    const written = this.#writingSeeds(entry, [key]);
    const startMs = timing ? performance.now() : 0;
    try {
      await this.#call(entry, 'set', key, bytes);
    } finally {
      if (timing) timing.storeMs = performance.now() - startMs;
    }
    written();
  }

  async remove(name, key, timing) {
    const entry = this.prepare(name, key, 'delete');
    // Marked before the delete is sent: a read that misses meanwhile must not re-seed it, here or in
    // another app process. A delete that fails leaves the mark, as it may have landed.
    if (entry.keys?.includes(key)) {
      entry.deletedSeeds.set(key, ++sequence);
      await this.deletingSeed?.(name, key);
    }
    const startMs = timing ? performance.now() : 0;
    try {
      await this.#call(entry, 'delete', key);
    } finally {
      if (timing) timing.storeMs = performance.now() - startMs;
    }
  }

  markSeedDeleted(name, key) {
    const entry = this.entries.get(name);
    if (entry) (entry.deletedSeeds ??= new Map()).set(key, ++sequence); // kept for a store not open yet
  }

  async append(name, key, bytes, timing) {
    const entry = this.prepare(name, key, 'append');
    const written = this.#writingSeeds(entry, [key]);
    const startMs = timing ? performance.now() : 0;
    try {
      await this.#call(entry, 'append', key, bytes);
    } finally {
      if (timing) timing.storeMs = performance.now() - startMs;
    }
    written();
  }

  // Checks every key first (nothing written on a bad one), then writes through setMany in chunks
  // where the store has one, else set() by set(), a bounded number at once.
  async writeMany(name, entries, timing) {
    const entry = this.prepare(name, undefined, 'setMany');
    for (const [key] of entries) assertKey(key, name);
    const unique = lastWriteWins(entries); // so no two calls running at once write one key
    const written = this.#writingSeeds(entry, unique.map(([key]) => key));
    const startMs = timing ? performance.now() : 0;
    try {
      if (entry.store.setMany) {
        await eachLimited(chunksOf(unique), BULK_CHUNKS_AT_ONCE, (chunk) => this.#call(entry, 'setMany', chunk));
      } else {
        await eachLimited(unique, BULK_SETS_AT_ONCE, ([key, bytes]) => this.#call(entry, 'set', key, bytes));
      }
    } finally {
      if (timing) timing.storeMs = performance.now() - startMs;
    }
    written();
    return entries.length;
  }

  wrapStore(name, wrap) {
    const entry = this.entry(name);
    if (!entry.store) return;
    entry.store = wrap(entry.store);
    entry.raw = wrap(entry.raw);
  }

  async status() {
    return Promise.all(
      [...this.entries.values()].map(async (entry) => {
        const { adapter } = entry;
        const report = {
          name: adapter.name,
          description: adapter.description,
          ...(adapter.lifecycle ? { lifecycle: adapter.lifecycle } : {}),
          status: 'unavailable',
          writes: adapter.writes,
          servers: Object.fromEntries(
            Object.entries(entry.connections ?? {}).map(([service, c]) => [service, `${c.source}: ${c.display}`]),
          ),
          keys: entry.keys ?? [],
          ...(entry.writesRefused ? { writesRefused: entry.writesRefused } : {}),
        };
        if (!entry.store) {
          this.#reopenSoon(entry);
          return { ...report, reason: entry.reason, reasonCode: entry.reasonCode };
        }
        try {
          await this.#call(entry, 'ping');
          report.status = 'up';
        } catch (error) {
          report.status = 'down';
          report.reason = error instanceof StoreTimeoutError ? error.message : error.reason;
          report.reasonCode = error.code;
        }
        if (entry.store.stats) report.stats = entry.store.stats();
        const limit = entry.store.valueLimit?.();
        if (limit) {
          report.maxValueSize = limit.maxValueSize;
          report.valueLimit = { limit: limit.limit, raise: limit.raise };
        }
        return report;
      }),
    );
  }

  async close() {
    this.closed = true; // an open still under way closes what it opens (#adopt)
    await Promise.allSettled([...this.entries.values()].map((entry) => entry.store?.close()));
    await Promise.allSettled(this.stopServers.map((stop) => stop()));
  }

  // One operation under the operation deadline. A failure marks an outage; the first answer after one
  // re-seeds in the background, as the server may have come back empty. A timeout does not: a slow
  // store under a benchmark's load must not be written to in the middle of it.
  #call(entry, operation, ...args) {
    if (this.observer) return this.#observed(entry, operation, args);
    return this.#callUnobserved(entry, operation, args);
  }

  // observer(store, operation, seconds, ok): set by the app's --metrics (app/metrics.js).
  async #observed(entry, operation, args) {
    const start = process.hrtime.bigint();
    let ok = false;
    entry.inFlight = (entry.inFlight ?? 0) + 1;
    try {
      const result = await this.#callUnobserved(entry, operation, args);
      ok = true;
      return result;
    } finally {
      entry.inFlight -= 1;
      this.observer(entry.adapter.name, operation, Number(process.hrtime.bigint() - start) / 1e9, ok);
    }
  }

  async #callUnobserved(entry, operation, args) {
    let result;
    try {
      result = await entry.store[operation](...args);
    } catch (error) {
      if (error instanceof StoreTimeoutError) throw error;
      if (error instanceof StorebenchError) {
        error.store ??= entry.adapter.name;
        throw error;
      }
      entry.outage = true;
      throw new StoreUnavailableError(entry.adapter.name, reasonOf(error), error);
    }
    if (entry.outage) {
      entry.outage = false;
      this.#reseed(entry).catch(() => {});
    }
    return result;
  }

  // Call as a write of keys is issued; call what it returns once it has landed: a seeded key written
  // again after its delete is re-seeded if lost, unless a later delete was issued.
  #writingSeeds(entry, keys) {
    const seeded = entry.keys ? keys.filter((key) => entry.deletedSeeds.has(key)) : [];
    if (!seeded.length) return () => {};
    const issued = ++sequence;
    return () => {
      for (const key of seeded) if ((entry.deletedSeeds.get(key) ?? Infinity) < issued) entry.deletedSeeds.delete(key);
    };
  }

  #reseed(entry) {
    if (entry.reseeding) return entry.reseeding;
    if (Date.now() - (entry.reseededAt ?? 0) < RESEED_INTERVAL_MS) return Promise.resolve();
    const store = entry.store;
    entry.reseeding = restoreLostSeeds(store, (key) => entry.deletedSeeds.has(key)).finally(() => {
      entry.reseeding = undefined;
      entry.reseededAt = Date.now();
    });
    return entry.reseeding;
  }

  // One attempt to open entry. The caller waits at most the open deadline; what the attempt opens
  // late is adopted or closed, never leaked.
  async #open(entry) {
    entry.triedAt = Date.now();
    const attempt = Promise.resolve().then(() => entry.open());
    entry.attempt = attempt;
    attempt.then(
      (opened) => this.#adopt(entry, attempt, opened),
      (error) => {
        if (entry.attempt !== attempt) return;
        entry.attempt = undefined;
        Object.assign(entry, { reason: reasonOf(error), reasonCode: 'OPEN_FAILED' });
      },
    );
    const ms = this.openTimeoutMs;
    const then = this.reopen ? 'retried in the background' : 'not used in this run';
    try {
      await withDeadline(attempt, ms, () => new ServerUnavailableError('OPEN_TIMEOUT',
        `connecting and seeding took longer than ${ms} ms (${declared.openTimeoutMs.env[0]}); ${then}`));
    } catch (error) {
      if (error.code === 'OPEN_TIMEOUT' && entry.attempt === attempt) {
        Object.assign(entry, { reason: reasonOf(error), reasonCode: 'OPEN_TIMEOUT' });
      }
    }
  }

  #adopt(entry, attempt, { store, keys }) {
    if (entry.attempt === attempt) entry.attempt = undefined;
    if (this.closed || entry.store) {
      Promise.resolve().then(() => store.close()).catch(() => {});
      return;
    }
    Object.assign(entry, {
      // A store inside this process (memory) has no server that could leave it waiting: no deadline.
      store: entry.adapter.needs.length ? withOperationDeadline(store, entry.adapter.name, this.opTimeoutMs) : store,
      raw: store, // the adapter's own Store, without the app's deadline: the direct mode's load
      keys,
      // seeded key -> when the app deleted it (opening seeded them all, or another process had)
      deletedSeeds: entry.deletedSeeds ?? new Map(),
      reason: undefined,
      reasonCode: undefined,
      outage: false,
    });
  }

  // An unavailable store is tried again when asked for, at most every few seconds, one attempt at a
  // time: a silent server costs one pending connection, not one per retry.
  #reopenSoon(entry) {
    if (!this.reopen || this.closed || !entry.open || entry.attempt) return;
    if (Date.now() - (entry.triedAt ?? 0) < REOPEN_INTERVAL_MS) return;
    this.#open(entry);
  }
}
