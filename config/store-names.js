// The stores' names, in the order /stores, the page and the driver's tables list them: what
// options/ and config/ check a store name against without loading an adapter. stores/index.js,
// the one registry, refuses to load unless its adapters are these, in this order.
export const STORE_NAMES = Object.freeze([
  'memory',
  'redis',
  'ioredis',
  'redis-cluster',
  'memcached',
  'cloudant',
  'cloudant-legacy',
  'couchdb-nano',
  'postgres',
  'postgres+redis',
  'redis+postgres',
  'tarantool',
  'tarantool-memtx',
]);

/** One problem for each name that is no store's, under the flag (or caller) that gave it. */
export const unknownStoreProblems = (names = [], flag = '--stores') =>
  names
    .filter((name) => !STORE_NAMES.includes(name))
    .map((name) => `${flag}: unknown store "${name}" (known: ${STORE_NAMES.join(', ')})`);
