// The one engine that runs any workload of config/workloads.js: per request it picks the operation,
// the record and the value, and says what to send.
import { createRandom } from '../../util/random.js';
import { createKeyChooser } from './distributions.js';
import { createValues, keyOf } from './values.js';
import { createTracker, outcomeOf } from './tracker.js';
import { VERIFY_SAMPLE } from '../../config/workloads.js';
import { keySlice } from '../parts.js';

/**
 * @typedef {object} WorkloadRequest
 * @property {string} operation           what it counts as: read, write, update, insert, append, read-modify-write
 * @property {string} method
 * @property {string} path
 * @property {Buffer|null} body           a write's value
 * @property {string|null} authorization
 * @property {{ method: string, path: string, body: Buffer, authorization: string|null }} [then]
 * @property {(status: number|null, stage: number) => void} settle
 *   call once, with the last status (null: no answer) and the stage (0, or 1 for `then`)
 */

// Small classes, no closures: a write must cost the driver no more than a read.
class Read {
  constructor(path) {
    this.path = path;
  }

  settle() {}
}
Object.assign(Read.prototype, { operation: 'read', method: 'GET', body: null, authorization: null });

class Write {
  constructor(operation, method, path, body, authorization, tracker, token) {
    Object.assign(this, { operation, method, path, body, authorization, tracker, token });
  }

  settle(status) {
    this.tracker.end(this.token, outcomeOf(status));
  }
}

class Insert extends Write {
  constructor(path, body, authorization, tracker, token, index, ended) {
    super('insert', 'PUT', path, body, authorization, tracker, token);
    this.index = index;
    this.ended = ended;
  }

  settle(status) {
    super.settle(status);
    this.ended(this.index);
  }
}

class ReadModifyWrite {
  constructor(path, body, authorization, tracker, token) {
    Object.assign(this, { path, then: { method: 'PUT', path, body, authorization }, tracker, token });
  }

  // The PUT is sent only after a 2xx read: a failed read means the write never went out.
  settle(status, stage) {
    this.tracker.end(this.token, stage === 0 ? 'refused' : outcomeOf(status));
  }
}
Object.assign(ReadModifyWrite.prototype, {
  operation: 'read-modify-write', method: 'GET', body: null, authorization: null,
});

/**
 * A workload over a key space. `stream` picks an independent random stream of the same seed
 * (--threads' thread n uses stream n; streams 1 + 16n and 2 + 16n, clear of the values' stream 7).
 */
export function createWorkload(spec, { basePath = '', token = null, sample = VERIFY_SAMPLE, stream = 0 } = {}) {
  const { mix, records, valueSize, seed } = spec;
  const keyRandom = createRandom(seed, 1 + 16 * stream);
  const opRandom = createRandom(seed, 2 + 16 * stream);
  const values = createValues({ seed, ...valueSize });
  const base = basePath.replace(/\/+$/, '');
  const authorization = token ? `Bearer ${token}` : null;

  // `latest` reads below the highest number under which every insert has ended (YCSB's
  // acknowledged counter). A part (--part I/N) reads only loaded records: which of the other
  // parts' inserts have ended, it cannot know.
  const slice = spec.part?.count > 1 ? keySlice(records, spec.part) : null;
  const insertStep = slice ? slice.insertStep : 1;
  let nextInsert = slice ? slice.insertFrom : records;
  let insertedBelow = records;
  const insertsEnded = new Set();
  const insertEnded = (index) => {
    if (slice) return;
    insertsEnded.add(index);
    while (insertsEnded.delete(insertedBelow)) insertedBelow += 1;
  };
  const keyCount = () => insertedBelow;

  let loaded = false;
  // [from, to) ranges the load did not confirm (a part: the other parts' slices too).
  const notLoaded = slice ? [[0, slice.loadFrom], [slice.loadTo, records]] : [];
  const baseOf = (index) => {
    if (index >= records) return 'absent';
    if (!loaded || notLoaded.some(([from, to]) => index >= from && index < to)) return 'unknown';
    return 'loaded';
  };
  const tracker = createTracker({ capacity: sample, baseOf });
  let writes = 0;

  const chooser = spec.distribution
    ? createKeyChooser(spec.distribution, { records, random: keyRandom, keyCount })
    : null;
  const operations = mix.map(({ operation }) => operation);
  const cumulative = [];
  let total = 0;
  for (const { share } of mix) cumulative.push((total += share));
  const pick = operations.length === 1
    ? () => operations[0]
    : () => {
        const u = opRandom.random() * total;
        for (let i = 0; i < cumulative.length - 1; i += 1) if (u < cumulative[i]) return operations[i];
        return operations[cumulative.length - 1];
      };

  const next = () => {
    const operation = pick();
    if (operation === 'read') return new Read(`${base}/${keyOf(chooser.next())}`);
    writes += 1;
    const index = operation === 'insert' ? (nextInsert += insertStep) - insertStep : chooser.next();
    const path = `${base}/${keyOf(index)}`;
    const token = tracker.begin(index, operation === 'append' ? 'append' : 'put');
    const body = values.valueOf(index, token.version);
    if (operation === 'insert') return new Insert(path, body, authorization, tracker, token, index, insertEnded);
    if (operation === 'append') {
      return new Write(operation, 'POST', `${path}/append`, body, authorization, tracker, token);
    }
    if (operation === 'read-modify-write') return new ReadModifyWrite(path, body, authorization, tracker, token);
    return new Write(operation, 'PUT', path, body, authorization, tracker, token);
  };

  return {
    operations,
    next,
    values,
    tracker,
    records,
    ...(slice ? { loadRange: [slice.loadFrom, slice.loadTo] } : {}),
    baseOf,
    keyCount,
    /** The load phase loaded records [from, to) (landed: confirmed by the app) or did not. */
    recordLoad(from, to, landed) {
      loaded = true;
      if (!landed) notLoaded.push([from, to]);
    },
    wrote: () => writes,
  };
}
