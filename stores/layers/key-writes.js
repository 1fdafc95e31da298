// The writes to each key under way in this process, for the layers that keep a Redis copy of
// what PostgreSQL holds. Two questions it answers, both about one Redis connection, which runs
// commands in the order they are issued:
//
// 1. May a read that missed Redis and fetched the value from PostgreSQL put it into Redis?
//    Only if no write replacing the key was under way at any moment since the read started
//    (watch()). Otherwise, cache-aside's classic stale fill: the read fetches the old row, a
//    write commits the new row and drops the cached copy, the read fills the cache with the
//    old row, and every later read serves it. A write that starts after the fill was sent
//    sends its own command after it, so Redis applies them in that order.
// 2. Is this acknowledged write the newest yet for its key (acknowledge())? Replies come back
//    in issue order, but the code after each await may run in another order (commands of
//    different kinds take different numbers of promise hops); a sequence number taken at issue
//    time tells which write Redis applied last.
//
// In-process, and bounded by the writes and reads in flight, never by the key space.

export class KeyWrites {
  #keys = new Map(); // key -> { underWay, replacing, lastAcknowledged, watchers }
  #sequence = 0;

  /**
   * Call as a write to key is issued (synchronously before its command is sent).
   * @param {{ replaces?: boolean }} [options]  false for a write that builds on the current
   *   value (an append): it does not spoil a read's fill, which it would append to
   * @returns {{ acknowledge(record: () => void), end() }}  acknowledge runs record only when no
   *   write to key issued after this one was acknowledged before it; end when the write is done
   */
  begin(key, { replaces = true } = {}) {
    const state = this.#state(key);
    state.underWay++;
    if (replaces) {
      state.replacing++;
      for (const watcher of state.watchers) watcher.dirty = true;
    }
    const sequence = ++this.#sequence;
    let ended = false;
    return {
      acknowledge(record) {
        if (sequence < state.lastAcknowledged) return;
        state.lastAcknowledged = sequence;
        record();
      },
      end: () => {
        if (ended) return;
        ended = true;
        state.underWay--;
        if (replaces) state.replacing--;
        this.#release(key, state);
      },
    };
  }

  /**
   * Watches key for a read: `dirty` becomes true once a replacing write to key has been under
   * way at any time since (one under way already counts). Call end() when the read is done.
   */
  watch(key) {
    const state = this.#state(key);
    const watcher = { dirty: state.replacing > 0, end: () => {} };
    state.watchers.add(watcher);
    watcher.end = () => {
      state.watchers.delete(watcher);
      this.#release(key, state);
    };
    return watcher;
  }

  /** Keys with writes or reads under way. */
  get size() {
    return this.#keys.size;
  }

  #state(key) {
    let state = this.#keys.get(key);
    if (!state) this.#keys.set(key, (state = { underWay: 0, replacing: 0, lastAcknowledged: 0, watchers: new Set() }));
    return state;
  }

  #release(key, state) {
    if (!state.underWay && !state.watchers.size && this.#keys.get(key) === state) this.#keys.delete(key);
  }
}
