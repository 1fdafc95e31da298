// The one contract every store adapter implements, and the checks that hold adapters to it.

/**
 * A store adapter is a module `stores/<name>.js` exporting:
 *
 * @property {string}   name         The route segment: GET /<name>/:key.
 * @property {string}   description  One line for /stores, the index page and the README.
 * @property {string[]} needs        The backing services it connects to (keys of config/services.js).
 * @property {{ append: boolean, bulk: 'native'|'one by one', hash: boolean }} writes
 *           Shown in /stores so a client can tell before sending; assertStore holds them to the
 *           Store's append(), setMany() (bulk 'native') and setHash()/getHash().
 * @property {(connections: object, settings?: object) => Promise<Store>} open
 *           Connects, given one resolved connection per needed service and the resolved store
 *           settings (config/settings.js); reads no environment itself. Loads its client library
 *           here, lazily, so a broken client never stops the other stores. Must settle on its own,
 *           even against a server that accepts and never answers.
 * @property {string}   [lifecycle]  Optional note, e.g. "end-of-life client", shown in /stores.
 * @property {{ pipelines: boolean, reason: string }} [pipelining]  Whether `--direct --pipeline N`
 *           may send calls N at a time (only where the client does not wait for earlier answers), and why.
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
 *           the fields as the server's own hash type (Redis: HSET), replacing whatever the key held.
 * @property {(key: string) => Promise<Object<string, Buffer>|null>} [getHash]  Every field of
 *           the key's hash with its exact bytes, or null when the key is absent.
 * @property {(prefix: string) => Promise<string[]>} [keys]  Every key starting with prefix, by the
 *           server's own listing (Redis's KEYS). Only where the listing is one call.
 * @property {() => Promise<void>} ping  Resolves when the server answers; rejects when it is down.
 * @property {() => Promise<void>} close  Releases connections; safe to call twice.
 * @property {() => object} [stats]  Extra facts for /stores (cache hits, pool size...).
 * @property {(keys: string[]) => Promise<Array<Buffer|null>>} [getMany]  The values of keys, in order,
 *           sent as one explicit pipeline of the client's (node-redis's multi().execAsPipeline()):
 *           only where that costs less per call than get() (--direct --pipeline N sends its GETs
 *           through it). Rejects as a whole when any call fails.
 * @property {() => Promise<object[]>} [pipelined]  Only for a client that pipelines in a mode of its
 *           own (node-postgres's pipeline mode): one object per such connection with the Store's
 *           calls over it, the same ones every time, closed by close(). Under --pipeline N caller i
 *           uses the i-th (modulo their number).
 * @property {() => ValueLimit|null} [valueLimit]  Where the server has a size limit of its own
 *           (memcached's -I, Tarantool's max tuple size): the largest value it accepts under every
 *           key, known at open, or null. The driver refuses a larger --value-size before any load.
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

/** Throws unless an opened store has every method of the contract and those its writes promise. */
export function assertStore(store, adapter) {
  for (const method of storeMethods) {
    if (typeof store?.[method] !== 'function') {
      throw new TypeError(`store "${adapter.name}" must implement ${method}()`);
    }
  }
  for (const optional of ['stats', 'valueLimit', 'pipelined', 'getMany', 'keys']) {
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
