// The workloads as data (as YCSB's property files): one engine (driver/workloads/workload.js) runs
// any of them, and options/ checks --workload, --distribution and --value-shape against them.

/** The operations a workload mixes, each reported apart. */
export const OPERATIONS = Object.freeze({
  read: {
    request: 'GET /<store>/<key>',
    writes: false,
    about: 'reads a key of the key space',
  },
  write: {
    request: 'PUT /<store>/<key>',
    writes: true,
    about: 'writes a key of the key space, whether it holds a value yet or not',
  },
  update: {
    request: 'PUT /<store>/<key>',
    writes: true,
    about: 'overwrites a loaded key',
  },
  insert: {
    request: 'PUT /<store>/<key>',
    writes: true,
    about: 'writes a new key past the loaded ones (user<records>, then the next, ...)',
  },
  append: {
    request: 'POST /<store>/<key>/append',
    writes: true,
    about: 'appends bytes to a loaded key',
  },
  'read-modify-write': {
    request: 'GET, then PUT of the same key',
    writes: true,
    about: 'reads a key and writes it back, timed as one operation (YCSB workload F)',
  },
});

/**
 * Each workload: `mix` (shares adding up to 1), its default `distribution` (null: it picks no
 * existing key), whether records are `load`ed first, `about`; or `unsupported` and why.
 */
export const WORKLOADS = Object.freeze({
  read: {
    mix: { read: 1 },
    distribution: 'uniform',
    load: true,
    about: 'reads only. Without --records: key1..key3, the seeded payloads (the default)',
  },
  write: {
    mix: { write: 1 },
    distribution: 'uniform',
    load: false,
    about: 'writes only, over the key space, without loading it first (a first write creates a key)',
  },
  update: {
    mix: { update: 1 },
    distribution: 'uniform',
    load: true,
    about: 'overwrites of loaded keys only',
  },
  insert: {
    mix: { insert: 1 },
    distribution: null,
    load: true,
    about: 'new keys only, one after another past the loaded ones',
  },
  append: {
    mix: { append: 1 },
    distribution: 'uniform',
    load: true,
    about: 'appends to loaded keys (405 where the store has no native append)',
  },
  'ycsb-a': {
    mix: { read: 0.5, update: 0.5 },
    distribution: 'zipfian',
    load: true,
    about: 'YCSB core workload A, update heavy: a session store recording recent actions',
  },
  'ycsb-b': {
    mix: { read: 0.95, update: 0.05 },
    distribution: 'zipfian',
    load: true,
    about: 'YCSB core workload B, read mostly: photo tagging',
  },
  'ycsb-c': {
    mix: { read: 1 },
    distribution: 'zipfian',
    load: true,
    about: 'YCSB core workload C, read only: a user profile cache',
  },
  'ycsb-d': {
    mix: { read: 0.95, insert: 0.05 },
    distribution: 'latest',
    load: true,
    about: 'YCSB core workload D, read latest: user status updates, the newest read most',
  },
  'ycsb-e': {
    unsupported: 'YCSB workload E is short range scans, and no store here offers an ordered scan over HTTP ' +
      '(the app reads one key per request: GET /<store>/<key>); it is not supported',
    about: 'YCSB core workload E, short ranges: not supported (no store exposes ordered scans over HTTP)',
  },
  'ycsb-f': {
    mix: { read: 0.5, 'read-modify-write': 0.5 },
    distribution: 'zipfian',
    load: true,
    about: 'YCSB core workload F, read-modify-write: a user database',
  },
});

/** mixed:R/W: R% reads and W% updates, R + W = 100. */
export const MIXED = Object.freeze({
  name: 'mixed:R/W',
  distribution: 'uniform',
  load: true,
  about: 'R% reads and W% updates, whole percentages adding up to 100 (memtier\'s --ratio as shares)',
});

export const DISTRIBUTIONS = Object.freeze({
  uniform: 'every record equally likely',
  zipfian: 'YCSB\'s scrambled Zipfian, constant 0.99: a few records take most requests, ' +
    'spread over the key space by an FNV-1a hash',
  latest: 'Zipfian by age: the newest records (loaded last, or inserted) the most requested',
  hotspot: 'hotspot or hotspot:H/O: H% of the records (the first ones) take O% of the requests ' +
    '(default 20/80, YCSB\'s)',
  sequential: 'record 0, 1, 2, ... then around again',
});
// hotspot's H/O when not given: YCSB's.
export const HOTSPOT_DEFAULT = Object.freeze({ hotFraction: 0.2, hotShare: 0.8 });

// --value-shape: each value stored as its bytes, or as a hash of HASH_FIELDS fields splitting
// them (driver/workloads/value-shape.js).
export const VALUE_SHAPES = ['bytes', 'hash'];
export const HASH_FIELDS = 10;

// What a store promises about what it acknowledged: a store named here may lose a write it
// acknowledged without anything being wrong, so verification says so instead of failing.
export const WEAKER_PROMISES = Object.freeze({
  memcached: 'memcached is a cache: it may evict a value it acknowledged ' +
    '(memory pressure, or an item over its size limit)',
});

export const DEFAULT_RECORDS = 1000; // YCSB's recordcount default
export const DEFAULT_VALUE_SIZE = 100; // bytes
export const VERIFY_SAMPLE = 1000; // keys read back after a run that wrote
/**
 * Whether written values can be read back after `workers` threads of this mix: not when several
 * write, since writes to one key from two workers can land in any order unseen.
 */
export const canVerify = (workers, mix) => workers <= 1 || mix.every(({ operation }) => operation === 'read');
// The app's limit on one value (its --max-value-size default).
export const APP_MAX_VALUE_BYTES = 16 * 1024 * 1024;
