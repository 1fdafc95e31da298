// What the verification needs to know about writes, a few bytes per key, for the first
// `capacity` keys written. Values are never kept: record i's version v is remade when checked.
// Writes in flight together may land in any order, so a key whose "epoch" saw two such writes
// is unknown until a later write lands alone. A write that failed without saying whether it
// landed makes the key unknown; a 4xx did not land. Appends never recover from unknown.

export function outcomeOf(status) {
  if (status >= 200 && status < 300) return 'landed';
  if (status >= 400 && status < 500) return 'refused';
  return 'unknown'; // 5xx, no answer, a timeout
}

// Versions of writes to keys the tracker does not follow: never verified, only unique.
const UNTRACKED_VERSION = 2 ** 31;

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
    /** A write of record `index` is about to be sent: the version it must carry, and a token for end(). */
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
    entries: () => [...keys.values()],
    has: (index) => keys.has(index),
    get size() {
      return keys.size;
    },
  };
}
