// What the verification needs to know about writes, in a few bytes per key: for a sample of
// keys (the first `capacity` distinct keys a run writes), which value each must hold now.
//
// A value is never kept: record i's version v is values.valueOf(i, v), made again when
// checked. A tracked key holds `base` (what it held before the run wrote it: its loaded
// value, nothing, or unknown) followed by the versions from..to appended to it; a PUT of
// version v makes that "nothing, then v". Versions count per tracked key (1, 2, ...), so
// consecutive appends are consecutive versions.
//
// Concurrent writes to one key: between the moment a key has a write in flight and the
// moment it has none again (an "epoch"), writes may land in any order, so a key whose epoch
// saw two or more writes that may have landed is not known until a later write lands alone.
// A write that failed without saying whether it landed (a timeout, a 5xx, a dropped
// connection) makes the key unknown too; a 4xx refusal (401, 403, 404, 405, 413) did not land
// and changes nothing. Appends cannot recover from either: the key stays unknown.

/** What a write's answer says about whether it landed. */
export function outcomeOf(status) {
  if (status >= 200 && status < 300) return 'landed';
  if (status >= 400 && status < 500) return 'refused';
  return 'unknown'; // 5xx, no answer, a timeout
}

// Versions of writes to keys the tracker does not follow: never verified, only unique.
const UNTRACKED_VERSION = 2 ** 31;

/**
 * `baseOf(index)` says what a key held before the run first wrote it: 'loaded' (version 0, from
 * the load phase), 'absent', or 'unknown'.
 */
export function createTracker({ capacity, baseOf }) {
  const keys = new Map();
  // Writes to keys not followed share one token (its version read at once): nothing to allocate.
  const untracked = { entry: null, version: UNTRACKED_VERSION };

  const land = (entry, kind, version) => {
    if (kind === 'put') {
      Object.assign(entry, { known: true, why: null, base: 'absent', from: version, to: version });
    } else if (!entry.known) {
      // An append to a value not known stays not known.
    } else if (entry.base === 'unknown') {
      Object.assign(entry, { known: false, why: 'unknown-base' });
    } else if (version === entry.to + 1) {
      entry.to = version;
    } else {
      Object.assign(entry, { known: false, why: 'failed' }); // a version between was lost to a failure
    }
  };

  // The key has no write in flight any more: what did this epoch leave in it?
  const settleEpoch = (entry) => {
    const { writes, landed, unknown, last, landedWrite } = entry.epoch;
    entry.epoch = { writes: 0, landed: 0, unknown: 0, last: null, landedWrite: null };
    if (unknown) {
      Object.assign(entry, { known: false, why: 'failed' });
    } else if (landed === 1) {
      land(entry, landedWrite.kind, landedWrite.version); // the others were refused: no order to doubt
    } else if (landed > 1) {
      Object.assign(entry, { known: false, why: 'overlap' });
    } else if (writes === 1 && entry.issued === last.version) {
      entry.issued -= 1; // refused alone: its version is free again, so appends stay consecutive
    }
  };

  return {
    /**
     * A write of record `index` (kind 'put' or 'append') is about to be sent: resolves to the
     * version whose value it must carry, and a token for end().
     */
    begin(index, kind) {
      let entry = keys.get(index);
      if (!entry && keys.size < capacity) {
        const base = baseOf(index);
        const epoch = { writes: 0, landed: 0, unknown: 0, last: null, landedWrite: null };
        entry = { index, issued: 0, inFlight: 0, known: true, why: null, base, from: 1, to: 0, epoch };
        keys.set(index, entry);
      }
      if (!entry) {
        untracked.version = untracked.version >= Number.MAX_SAFE_INTEGER ? UNTRACKED_VERSION : untracked.version + 1;
        return untracked;
      }
      entry.issued += 1;
      entry.inFlight += 1;
      entry.epoch.writes += 1;
      const write = { entry, version: entry.issued, kind };
      entry.epoch.last = write;
      return write;
    },
    /** The write `token` from begin() ended with `outcome` (outcomeOf). Call once per begin(). */
    end(token, outcome) {
      const { entry } = token;
      if (!entry) return;
      entry.inFlight -= 1;
      if (outcome === 'landed') {
        entry.epoch.landed += 1;
        entry.epoch.landedWrite = token;
      } else if (outcome === 'unknown') entry.epoch.unknown += 1;
      if (entry.inFlight === 0) settleEpoch(entry);
    },
    /** Every tracked key with what it must hold: { index, known, why, base, from, to, inFlight }. */
    entries: () => [...keys.values()],
    has: (index) => keys.has(index),
    get size() {
      return keys.size;
    },
  };
}
