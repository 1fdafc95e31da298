// The one contract every store adapter implements, and the checks that hold adapters to it.

/**
 * A store adapter is a module `stores/<name>.js` exporting:
 *
 * @property {string}   name         The route segment: GET /<name>/:key.
 * @property {string}   description  One line for /stores, the index page and the README.
 * @property {string[]} needs        The backing services it connects to (keys of config/services.js).
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
 *
 * @typedef {object} Store
 * @property {(key: string) => Promise<Buffer|null>} get  The exact bytes stored, or null if absent.
 * @property {(key: string, bytes: Buffer) => Promise<void>} set  Stores bytes; overwrites (idempotent).
 * @property {(key: string) => Promise<void>} delete  Removes the key; absent keys are fine.
 * @property {() => Promise<void>} ping  Resolves when the server answers; rejects when it is down.
 * @property {() => Promise<void>} close  Releases connections; safe to call twice.
 * @property {() => object} [stats]  Extra facts for /stores (cache hits, pool size...).
 */

const adapterFields = { name: 'string', description: 'string', needs: 'object', open: 'function' };
const storeMethods = ['get', 'set', 'delete', 'ping', 'close'];

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
  return adapter;
}

/** Throws unless an opened store has every method of the contract. */
export function assertStore(store, name) {
  for (const method of storeMethods) {
    if (typeof store?.[method] !== 'function') {
      throw new TypeError(`store "${name}" must implement ${method}()`);
    }
  }
  return store;
}
