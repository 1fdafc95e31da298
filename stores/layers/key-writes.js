// The writes to each key under way in this process, for the layers keeping a Redis copy of what
// PostgreSQL holds (one Redis connection runs commands in issue order). It answers:
// 1. May a read that missed Redis fill it from PostgreSQL (watch())? Only if no replacing write was
//    under way since the read started: otherwise cache-aside's stale fill serves the old row for good.
// 2. Is this acknowledged write the newest for its key (acknowledge())? Code after each await may run
//    out of issue order; a sequence number taken at issue tells which write Redis applied last.

export class KeyWrites {
  #keys = new Map(); // key -> { underWay, replacing, lastAcknowledged, watchers }
  #sequence = 0;

  // Call before the write's command is sent. replaces: false for an append, which does not spoil a
  // read's fill. acknowledge(record) runs record only if no later write was acknowledged first.
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

  // `dirty` becomes true once a replacing write to key has been under way since (or already was).
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
