// The one contract every store adapter implements, and the checks that hold adapters to it.

/**
 * A store adapter is a module `stores/<name>.js` exporting:
 *
 * @property {string}   name         The route segment: GET /<name>/:key.
 * @property {string}   description  One line for /stores, the index page and the README.
 * @property {string[]} needs        The backing services it connects to (keys of config/services.js).
 * @property {{ append: boolean, bulk: 'native'|'one by one', hash: boolean }} writes
 *           What its stores can do beyond get/set/delete, shown in /stores so a client can tell
 *           before sending: append is true exactly when its Store has append(), bulk is
 *           'native' exactly when its Store has setMany(), hash is true exactly when its Store
 *           has setHash() and getHash() (assertStore holds them to it).
 * @property {(connections: object, settings?: object) => Promise<Store>} open
 *           Connects, given one resolved connection per needed service, e.g.
 *           `{ redis: { url, source, ... } }`, and the resolved store settings of
 *           config/settings.js (`postgresPoolSize`, `flushIntervalMs`, `couchdbDatabase`): it
 *           reads no environment itself, and falls back to `defaults` from there when called
 *           without them. Must load its client library here, lazily, so a missing or broken
 *           client never stops the other stores. Must settle on its own, even against a
 *           server that accepts and never answers: the app stops waiting at the open
 *           deadline (stores/store-set.js), but the attempt runs to its end.
 * @property {string}   [lifecycle]  Optional note, e.g. "end-of-life client", shown in /stores.
 * @property {{ pipelines: boolean, reason: string }} [pipelining]  Whether `--direct --pipeline N`
 *           may send its calls N at a time (docs/direct.md), and in one line why: pipelines is
 *           true only where the client sends a call on a connection without waiting for the
 *           answers to the calls before it there. Absent: not pipelined, refused.
 *
 * Keys are strings of the key alphabet (stores/keys.js), checked before a store is called; a
 * store must still never let one name anything but its own value (encode it into URLs and
 * document ids), and must keep any names of its own outside that alphabet.
 *
 * @typedef {object} Store
 * @property {(key: string) => Promise<Buffer|null>} get  The exact bytes stored, or null if absent.
 * @property {(key: string, bytes: Buffer) => Promise<void>} set  Stores bytes; overwrites (idempotent).
 * @property {(key: string) => Promise<void>} delete  Removes the key; absent keys are fine.
 * @property {(key: string, bytes: Buffer) => Promise<void>} [append]  Appends bytes to the value
 *           (an absent key starts empty), with the server's own append: only where there is one.
 *           A store without it is refused with 405 APPEND_UNSUPPORTED, never emulated.
 * @property {(entries: Array<[string, Buffer]>) => Promise<void>} [setMany]  Stores every entry
 *           through the server's bulk path (a pipeline, a multi-row statement, _bulk_docs), in
 *           order, a later entry for a key winning. StoreSet hands it at most a few thousand
 *           entries at a time; without it, StoreSet calls set() with bounded parallelism.
 * @property {(key: string, fields: Object<string, Buffer>) => Promise<void>} [setHash]  Stores
 *           the fields as the server's own hash type (Redis: HSET), replacing whatever the key
 *           held: afterwards it holds exactly these fields. Only where the server has a hash
 *           type; the driver's --value-shape hash uses it (driver/workloads/value-shape.js).
 * @property {(key: string) => Promise<Object<string, Buffer>|null>} [getHash]  Every field of
 *           the key's hash with its exact bytes, or null when the key is absent.
 * @property {(prefix: string) => Promise<string[]>} [keys]  Every key starting with prefix, found by
 *           the server's own listing (Redis's KEYS, which walks every key it holds; a Map's keys):
 *           what study 003 timed before its gets of a key each. Only where the listing is one call.
 * @property {() => Promise<void>} ping  Resolves when the server answers; rejects when it is down.
 * @property {() => Promise<void>} close  Releases connections; safe to call twice.
 * @property {() => object} [stats]  Extra facts for /stores (cache hits, pool size...).
 * @property {() => Promise<object[]>} [pipelined]  Only for a store whose client pipelines in a
 *           mode of its own (node-postgres's pipeline mode): resolves to one object per
 *           connection in that mode, each with the calls (get, set, delete, append, as the Store
 *           has them) that go over it; opened on the first call, the same ones every time after,
 *           closed by close(). Under --pipeline N the direct engine's caller i uses the i-th
 *           (modulo their number); a store whose client always pipelines has none.
 * @property {() => ValueLimit|null} [valueLimit]  Where the server has a size limit of its own
 *           (memcached's -I, Tarantool's max tuple size): the largest value it accepts under
 *           every key of the alphabet, known at open (asked of the server where it can be, else
 *           the setting an embedded server was started with), null when it cannot be known.
 *           /stores shows it on the store as `maxValueSize` and `valueLimit: { limit, raise }`,
 *           and the driver refuses a larger --value-size before any load.
 *
 * A store whose server refuses a value for its size throws ValueTooLargeError (413), which is
 * not an outage; any other failure is (503 STORE_UNAVAILABLE).
 */

/**
 * @typedef {object} ValueLimit  (stores/value-limits.js makes them)
 * @property {number} maxValueSize  bytes: that many are accepted under the longest key, one more is refused
 * @property {string} limit  the server's limit and what it counts besides the value, for people
 * @property {string} raise  how to raise it: the setting for an embedded server, else the server's own option
 */

const adapterFields = { name: 'string', description: 'string', needs: 'object', writes: 'object', open: 'function' };
const storeMethods = ['get', 'set', 'delete', 'ping', 'close'];
const bulkKinds = ['native', 'one by one'];

/** Throws unless the module has everything the contract asks of an adapter. */
export function assertAdapter(adapter) {
  for (const [field, type] of Object.entries(adapterFields)) {
    const actual = typeof adapter?.[field];
    if (actual !== type) {
      throw new TypeError(`store adapter ${adapter?.name ?? '(unnamed)'} must export ${field} (${type})`);
    }
  }
  if (!/^[a-z][a-z0-9+-]*$/.test(adapter.name)) {
    throw new TypeError(`store adapter name "${adapter.name}" must be lower-case letters, digits, + or -`);
  }
  const { pipelining } = adapter;
  const pipeliningOk = typeof pipelining?.pipelines === 'boolean' && typeof pipelining.reason === 'string';
  if (pipelining !== undefined && !pipeliningOk) {
    throw new TypeError(`store adapter ${adapter.name} pipelining must be { pipelines: true|false, reason: '...' }`);
  }
  const { append, bulk, hash } = adapter.writes;
  if (typeof append !== 'boolean' || !bulkKinds.includes(bulk) || typeof hash !== 'boolean') {
    throw new TypeError(`store adapter ${adapter.name} must export writes: ` +
      '{ append: true|false, bulk: \'native\'|\'one by one\', hash: true|false }');
  }
  return adapter;
}

/**
 * Throws unless an opened store has every method of the contract, and those its adapter's writes
 * promise.
 */
export function assertStore(store, adapter) {
  for (const method of storeMethods) {
    if (typeof store?.[method] !== 'function') {
      throw new TypeError(`store "${adapter.name}" must implement ${method}()`);
    }
  }
  for (const optional of ['stats', 'valueLimit', 'pipelined', 'keys']) {
    if (store[optional] !== undefined && typeof store[optional] !== 'function') {
      throw new TypeError(`store "${adapter.name}" ${optional} must be a function`);
    }
  }
  const { writes } = adapter;
  const promised = {
    append: writes.append,
    setMany: writes.bulk === 'native',
    setHash: writes.hash,
    getHash: writes.hash,
  };
  for (const [method, declared] of Object.entries(promised)) {
    if (declared !== (typeof store[method] === 'function')) {
      throw new TypeError(`store "${adapter.name}" ${declared ? 'must implement' : 'declares no'} ${method}() ` +
        '(its adapter\'s writes say so)');
    }
  }
  return store;
}
