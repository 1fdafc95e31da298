// The write-behind queue: writes acknowledged but not yet durable, written in batches (a timer, a
// full batch, close()); a later write to a key replaces an earlier one. A write's token (its
// journal entry) goes back with it, so the entry goes once the write is durable. Until then
// lookup() sees it: a read falling through never gets an older value than one acknowledged.
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

  // write(batch) makes [key, bytes|null, token] entries durable (null deletes); a rejected batch is retried.
  constructor(write, options = {}) {
    this.#write = write;
    this.#options = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) };
  }

  get size() {
    return this.#pending.size + this.#inFlight.size;
  }

  /** Past maxPending the durable store is too far behind. */
  assertRoom(n = 1) {
    if (this.#closing) throw new Error('the write-behind queue is closing');
    if (this.size + n > this.#options.maxPending) {
      const why = this.#lastError ? ` (${this.#lastError})` : '';
      throw new Error(`the durable copy is ${this.size} writes behind${why}`);
    }
  }

  async waitForRoom(n) {
    while (this.size + n > this.#options.maxPending) {
      if (this.#closing) throw new Error('the write-behind queue is closing');
      await this.flush();
    }
  }

  add(key, bytes, token) {
    this.#pending.delete(key); // re-inserted at the end: batches go oldest first
    this.#pending.set(key, { bytes, token });
    this.#schedule();
  }

  lookup(key) {
    const write = this.#pending.get(key) ?? this.#inFlight.get(key);
    return write ? { bytes: write.bytes } : undefined;
  }

  flush() {
    // Cleared in a callback, never synchronously: an empty drain must not leave a stale promise behind.
    this.#flushing ??= this.#drain().finally(() => { this.#flushing = null; });
    return this.#flushing;
  }

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

  // Stops without writing: the durable journal still holds what is pending. For a failed open.
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

  #schedule() {
    if (this.#pending.size >= this.#options.batchSize && !this.#flushing && !this.#failuresInARow && !this.#closing) {
      this.#flushInBackground();
    } else {
      this.#later(this.#options.flushIntervalMs);
    }
  }
}
