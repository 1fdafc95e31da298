// The write-behind queue of redis+postgres: writes acknowledged (in Redis) but not yet in the
// durable store, written there in batches, one batch at a time, from a timer, at once when a
// batch is full, and always on close(). Later writes to a key replace earlier ones, so a batch
// carries each key once. Knows nothing of Redis or PostgreSQL: it is given write(batch). A
// write may carry a token (its entry in a durable journal, write-behind-journal.js), handed
// back with it in the batch, so that the journal entry goes once the write is durable.
//
// Until a batch is committed its writes stay visible to lookup(), so a read that falls through
// to the durable store (Redis lost the key) never sees an older value than one acknowledged.
import { redactText } from '../../util/redact.js';

const DEFAULTS = { flushIntervalMs: 200, batchSize: 500, maxPending: 10_000, retryMaxMs: 5000 };

export class WriteBehindQueue {
  #write;
  #options;
  #pending = new Map(); // key -> { bytes (null: deleted), token } of its newest write, not yet sent
  #inFlight = new Map(); // the batch being written now
  #counts = { flushedWrites: 0, batches: 0, failedFlushes: 0 };
  #lastError;
  #failuresInARow = 0;
  #timer = null;
  #flushing = null;
  #closing = null;

  /**
   * @param {(batch: Array<[string, Buffer|null, string|undefined]>) => Promise<void>} write  makes a
   *   batch of [key, bytes, token] durable (null deletes the key); rejects when it could not, and
   *   the batch is then retried
   * @param {{ flushIntervalMs?, batchSize?, maxPending?, retryMaxMs? }} [options]  how long
   *   writes gather before a flush, the most writes per batch, the most writes held before
   *   add() is refused, the longest wait between retries after failures
   */
  constructor(write, options = {}) {
    this.#write = write;
    this.#options = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
  }

  /** Writes acknowledged and not yet durable. */
  get size() {
    return this.#pending.size + this.#inFlight.size;
  }

  /** Throws unless n more writes may be added: past maxPending the durable store is too far behind. */
  assertRoom(n = 1) {
    if (this.#closing) throw new Error('the write-behind queue is closing');
    if (this.size + n > this.#options.maxPending) {
      const why = this.#lastError ? ` (${this.#lastError})` : '';
      throw new Error(`the durable copy is ${this.size} writes behind${why}`);
    }
  }

  /** Resolves once n more writes fit, flushing to make room; rejects if a flush fails or the queue closes. */
  async waitForRoom(n) {
    while (this.size + n > this.#options.maxPending) {
      if (this.#closing) throw new Error('the write-behind queue is closing');
      await this.flush();
    }
  }

  /** An acknowledged write (bytes null: a delete), to be made durable; token: its journal entry, if it has one. */
  add(key, bytes, token) {
    this.#pending.delete(key); // re-inserted at the end: batches go oldest first
    this.#pending.set(key, { bytes, token });
    this.#schedule();
  }

  /** { bytes } (null: deleted) when key has a write not yet durable; undefined when it has none. */
  lookup(key) {
    const write = this.#pending.get(key) ?? this.#inFlight.get(key);
    return write ? { bytes: write.bytes } : undefined;
  }

  /** Writes everything pending, including what is added meanwhile; one flush at a time. */
  flush() {
    // Cleared in a callback, never synchronously: an empty drain must not leave a stale promise behind.
    this.#flushing ??= this.#drain().finally(() => { this.#flushing = null; });
    return this.#flushing;
  }

  /** Stops the timer and flushes what is left; rejects, saying how many, if some could not be written. */
  close() {
    return (this.#closing ??= (async () => {
      clearTimeout(this.#timer);
      this.#timer = null;
      await (this.#flushing ?? Promise.resolve()).catch(() => {});
      try {
        await this.flush();
      } catch (error) {
        throw new Error(`${this.size} acknowledged writes were not written: ${error.message}`, { cause: error });
      }
    })());
  }

  /**
   * Stops without writing anything: what is pending is dropped (a durable journal still holds
   * it, for the next start to replay). For an open that failed part way.
   */
  discard() {
    this.#closing ??= Promise.resolve();
    clearTimeout(this.#timer);
    this.#timer = null;
    this.#pending.clear();
  }

  stats() {
    const { flushIntervalMs, batchSize } = this.#options;
    return {
      pendingWrites: this.size,
      ...this.#counts,
      ...(this.#lastError ? { lastFlushError: this.#lastError } : {}),
      flushIntervalMs,
      batchSize,
    };
  }

  async #drain() {
    while (this.#pending.size) await this.#flushBatch();
    this.#failuresInARow = 0;
    this.#lastError = undefined;
  }

  async #flushBatch() {
    for (const [key, write] of this.#pending) {
      this.#inFlight.set(key, write);
      if (this.#inFlight.size === this.#options.batchSize) break;
    }
    for (const key of this.#inFlight.keys()) this.#pending.delete(key);
    const writes = [...this.#inFlight];
    const batch = writes.map(([key, { bytes, token }]) => [key, bytes, token]);
    try {
      await this.#write(batch);
    } catch (error) {
      // Back into the queue, unless a newer write to the key came in meanwhile.
      for (const [key, write] of writes) if (!this.#pending.has(key)) this.#pending.set(key, write);
      throw error;
    } finally {
      this.#inFlight.clear();
    }
    this.#counts.flushedWrites += batch.length;
    this.#counts.batches++;
  }

  #flushInBackground() {
    this.flush().catch((error) => {
      this.#counts.failedFlushes++;
      this.#failuresInARow++;
      this.#lastError = redactText(error.message);
      this.#later(Math.min(this.#options.flushIntervalMs * 2 ** this.#failuresInARow, this.#options.retryMaxMs));
    });
  }

  #later(delayMs) {
    if (this.#timer || this.#closing) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#flushInBackground();
    }, delayMs);
    this.#timer.unref();
  }

  // A full batch goes at once; fewer writes wait for the timer (as does a retry after a failure).
  #schedule() {
    if (this.#pending.size >= this.#options.batchSize && !this.#flushing && !this.#failuresInARow && !this.#closing) {
      this.#flushInBackground();
    } else {
      this.#later(this.#options.flushIntervalMs);
    }
  }
}
