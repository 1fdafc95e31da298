// The one engine that runs any workload of definitions.js: for each request it picks the
// operation (by the mix's shares), the record (by the key distribution), and the value (a
// slice of the seeded pool), and says what to send. The HTTP engine asks it for every request
// through loadtest's requestGenerator hook; the load phase and the verification read the same
// key space and values from it.
import { createRandom } from './random.js';
import { createKeyChooser } from './distributions.js';
import { createValues, keyOf } from './values.js';
import { createTracker, outcomeOf } from './tracker.js';
import { VERIFY_SAMPLE } from './definitions.js';

const CONTENT_TYPE = 'application/octet-stream';

/**
 * One request of a workload, as the HTTP engine sends it.
 * @typedef {object} WorkloadRequest
 * @property {string} operation           what it counts as: read, write, update, insert, append, read-modify-write
 * @property {string} method
 * @property {string} path                the path to request (the target's path, then the key)
 * @property {object|null} headers        headers to add (writes: content type and length, the token)
 * @property {Buffer|null} body
 * @property {{ method: string, path: string, headers: object, body: Buffer }} [then]
 *   a second request, sent once the first answered 2xx, timed with it as one operation
 * @property {(status: number|null, stage: number) => void} settle
 *   call once, when the operation ended: the last status (null: no answer) and the index of
 *   the request it came from (0, or 1 for `then`)
 */

/**
 * A workload over a key space: `spec` = { mix: [{ operation, share }], distribution
 * ({ name, ... } or null), records, valueSize: { min, max }, seed }; `basePath` the target's
 * path (/redis), `token` the write token or null.
 * Returns { operations, next(): WorkloadRequest, values, tracker, records, baseOf, keyCount,
 * recordLoad(from, to, landed), wrote() }.
 */
export function createWorkload(spec, { basePath = '', token = null, sample = VERIFY_SAMPLE } = {}) {
  const { mix, records, valueSize, seed } = spec;
  const keyRandom = createRandom(seed, 1);
  const opRandom = createRandom(seed, 2);
  const values = createValues({ seed, ...valueSize });
  const base = basePath.replace(/\/+$/, '');
  const auth = token ? { authorization: `Bearer ${token}` } : {};

  // Inserts take record numbers from `records` up; `latest` reads up to the highest number
  // below which every insert has ended (YCSB's acknowledged counter), so it does not read a
  // key whose insert is still in flight.
  let nextInsert = records;
  let insertedBelow = records;
  const insertsEnded = new Set();
  const insertEnded = (index) => {
    insertsEnded.add(index);
    while (insertsEnded.delete(insertedBelow)) insertedBelow += 1;
  };
  const keyCount = () => insertedBelow;

  // What each loaded record holds before the run: the load phase says which batches failed.
  let loaded = false;
  const notLoaded = []; // [from, to) ranges the load did not confirm
  const baseOf = (index) => {
    if (index >= records) return 'absent';
    if (!loaded || notLoaded.some(([from, to]) => index >= from && index < to)) return 'unknown';
    return 'loaded';
  };
  const tracker = createTracker({ capacity: sample, baseOf });
  let writes = 0;

  const chooser = spec.distribution ? createKeyChooser(spec.distribution, { records, random: keyRandom, keyCount }) : null;
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

  const writeHeaders = (body) => ({ 'content-type': CONTENT_TYPE, 'content-length': String(body.length), ...auth });
  // A write of record `index`: its version, body and what its answer means for the tracker.
  const write = (index, kind) => {
    writes += 1;
    const token = tracker.begin(index, kind);
    return { token, body: values.valueOf(index, token.version) };
  };
  const noop = () => {};

  const next = () => {
    const operation = pick();
    if (operation === 'read') return { operation, method: 'GET', path: `${base}/${keyOf(chooser.next())}`, headers: null, body: null, settle: noop };
    if (operation === 'insert') {
      const index = nextInsert++;
      const { token, body } = write(index, 'put');
      return {
        operation,
        method: 'PUT',
        path: `${base}/${keyOf(index)}`,
        headers: writeHeaders(body),
        body,
        settle(status) {
          tracker.end(token, outcomeOf(status));
          insertEnded(index);
        },
      };
    }
    const index = chooser.next();
    const path = `${base}/${keyOf(index)}`;
    if (operation === 'append') {
      const { token, body } = write(index, 'append');
      return { operation, method: 'POST', path: `${path}/append`, headers: writeHeaders(body), body, settle: (status) => tracker.end(token, outcomeOf(status)) };
    }
    const { token, body } = write(index, 'put');
    if (operation === 'read-modify-write') {
      return {
        operation,
        method: 'GET',
        path,
        headers: null,
        body: null,
        then: { method: 'PUT', path, headers: writeHeaders(body), body },
        // The PUT is sent only after a 2xx read: a failed read means the write never went out.
        settle: (status, stage) => tracker.end(token, stage === 0 ? 'refused' : outcomeOf(status)),
      };
    }
    return { operation, method: 'PUT', path, headers: writeHeaders(body), body, settle: (status) => tracker.end(token, outcomeOf(status)) };
  };

  return {
    operations,
    next,
    values,
    tracker,
    records,
    baseOf,
    keyCount,
    /** The load phase loaded records [from, to) (landed: confirmed by the app) or did not. */
    recordLoad(from, to, landed) {
      loaded = true;
      if (!landed) notLoaded.push([from, to]);
    },
    /** How many writes the run has sent (the load phase not counted). */
    wrote: () => writes,
  };
}
