// --value-shape (direct mode): `hash` stores each value as fields f0..f9 splitting the same
// bytes, as the store's own hash type or as JSON (base64: random bytes are no text), so the
// verification compares the very bytes `bytes` would.
import { HASH_FIELDS } from '../../config/workloads.js';

/** bytes as HASH_FIELDS fields f0..f9, consecutive slices of it (some empty when it is shorter). */
export function fieldsOf(bytes) {
  const fields = {};
  for (let i = 0; i < HASH_FIELDS; i += 1) {
    const from = Math.floor((i * bytes.length) / HASH_FIELDS);
    const to = Math.floor(((i + 1) * bytes.length) / HASH_FIELDS);
    fields[`f${i}`] = bytes.subarray(from, to);
  }
  return fields;
}

export function bytesOfFields(fields) {
  const count = Object.keys(fields).length;
  const parts = [];
  for (let i = 0; i < count; i += 1) {
    const part = fields[`f${i}`];
    if (part === undefined) {
      throw new Error(`a hash value lacks field f${i} (it has ${Object.keys(fields).join(', ')})`);
    }
    parts.push(part);
  }
  return Buffer.concat(parts);
}

export function jsonOfFields(fields) {
  const document = {};
  for (const [name, bytes] of Object.entries(fields)) document[name] = bytes.toString('base64');
  return Buffer.from(JSON.stringify(document));
}

export function fieldsOfJson(bytes) {
  const fields = {};
  for (const [name, text] of Object.entries(JSON.parse(bytes.toString('utf8')))) {
    fields[name] = Buffer.from(text, 'base64');
  }
  return fields;
}

/** How `hash` lands in a store: 'hash' (its own hash type) or 'json'. */
export const hashStorageOf = (store) =>
  (typeof store.setHash === 'function' && typeof store.getHash === 'function' ? 'hash' : 'json');

/**
 * store as a Store of bytes that keeps each value in `shape`. No append: a hash has nothing to
 * append to (options/normalize.js refuses such a workload).
 */
export function shapedStore(store, shape) {
  if (!shape || shape === 'bytes') return store;
  const shaped = { delete: (key) => store.delete(key), ping: () => store.ping(), close: () => store.close() };
  if (store.stats) shaped.stats = () => store.stats();
  if (store.pipelined) {
    let calls;
    const shapedAll = (connections) => connections.map((each) => shapedStore(each, shape));
    shaped.pipelined = () => (calls ??= store.pipelined().then(shapedAll));
  }
  if (hashStorageOf(store) === 'hash') {
    shaped.get = (key) => store.getHash(key).then((fields) => (fields == null ? null : bytesOfFields(fields)));
    shaped.set = (key, bytes) => store.setHash(key, fieldsOf(bytes));
    // Issued together: node-redis and ioredis send commands of one tick as one pipeline.
    shaped.setMany = async (entries) => {
      await Promise.all(entries.map(([key, bytes]) => store.setHash(key, fieldsOf(bytes))));
    };
    return shaped;
  }
  shaped.get = (key) => store.get(key).then((bytes) => (bytes == null ? null : bytesOfFields(fieldsOfJson(bytes))));
  shaped.set = (key, bytes) => store.set(key, jsonOfFields(fieldsOf(bytes)));
  if (store.setMany) {
    shaped.setMany = (entries) => store.setMany(entries.map(([key, bytes]) => [key, jsonOfFields(fieldsOf(bytes))]));
  }
  return shaped;
}
