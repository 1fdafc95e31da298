// node test's options about what each request does: the workload, its key space, values and
// distribution, the seed, and the write token. options/table.js assembles them.
import { TOKEN_ENV } from '../../config/settings.js';
import { DEFAULT_RECORDS, DEFAULT_VALUE_SIZE, DISTRIBUTIONS, HASH_FIELDS } from '../../config/workloads.js';
import { LIMITS } from '../defaults.js';
import { nonNegativeInteger, positiveInteger, shown } from '../values.js';

export const WORKLOAD_OPTIONS = [
  {
    flag: 'workload',
    short: 'w',
    type: 'string',
    arg: 'NAME',
    default: 'read',
    setting: 'workload',
    section: 'workload',
    help: [
      'what each request does: read (default), write, update, insert, append,',
      'mixed:R/W (R% reads, W% updates), ycsb-a, ycsb-b, ycsb-c, ycsb-d, ycsb-f;',
      '--workload list describes each. Without --records, read is the seeded',
      'key1..key3 as always; anything else runs over a key space',
    ],
    docDefault: '`read`',
    doc: 'What each request does: `read`, `write`, `update`, `insert`, `append`, `mixed:R/W` (R% reads, W% ' +
      'updates), `ycsb-a`, `ycsb-b`, `ycsb-c`, `ycsb-d`, `ycsb-f` (`ycsb-e`, range scans, is refused: ' +
      'no store exposes ordered scans over HTTP). `--workload list` describes them. Without ' +
      '`--records`, `read` is the seeded key1..key3, exactly as before; anything else runs over a key ' +
      'space, one target per store ([docs/workloads.md](workloads.md)).',
  },
  {
    flag: 'records',
    type: 'string',
    arg: 'N',
    bounds: [1, LIMITS.records],
    parse: positiveInteger,
    what: 'positive whole number of records',
    default: DEFAULT_RECORDS,
    setting: 'records',
    section: 'workload',
    help: [
      `the key space: records user0000000000 .. user<N-1>, 1 to ${shown(LIMITS.records)}`,
      `(default with a workload: ${shown(DEFAULT_RECORDS)}). Loaded first through the`,
      "app's bulk route, measured as its own table",
    ],
    docDefault: '`1000` with a workload',
    doc: 'The key space: records `user0000000000` .. `user<N-1>`, 1 to 100,000,000. Loaded first through ' +
      'the app\'s bulk route (its own table), unless `--no-load` or the workload is `write`.',
  },
  {
    flag: 'value-size',
    type: 'string',
    number: true,
    arg: 'SIZE',
    default: DEFAULT_VALUE_SIZE,
    setting: 'valueSizeMin',
    section: 'workload',
    help: [
      'value bytes: 100, 10KB, 1MB (K = 1024) or a range MIN-MAX drawn per',
      `request, 1 byte to 16 MB (default: ${DEFAULT_VALUE_SIZE})`,
    ],
    docDefault: '`100`',
    doc: 'Value bytes: `100`, `10KB`, `1MB` (K = 1024) or a range `MIN-MAX` drawn per write; 1 byte to 16 ' +
      'MB, the app\'s limit, and no more than a swept store\'s own (its `maxValueSize` in `/stores`: ' +
      'about 1 MB for memcached and Tarantool unless raised), else exit 2 before any load.',
  },
  {
    flag: 'distribution',
    type: 'string',
    arg: 'NAME',
    setting: 'distribution',
    section: 'workload',
    help: [
      'which records the requests pick:',
      `${Object.keys(DISTRIBUTIONS).join(', ')}`,
      "(hotspot:H/O: H% of records take O% of requests; default: the workload's)",
    ],
    docDefault: 'the workload\'s',
    doc: 'Which records requests pick: `uniform`, `zipfian` (YCSB\'s scrambled Zipfian, 0.99), `latest`, ' +
      '`hotspot` or `hotspot:H/O` (H% of records take O% of requests; 20/80), `sequential`.',
  },
  {
    flag: 'seed',
    type: 'string',
    arg: 'N',
    bounds: [0, LIMITS.seed],
    parse: nonNegativeInteger,
    what: 'whole number',
    setting: 'seed',
    section: 'workload',
    help: [
      `the same order, keys, operations and values again: 0 to ${shown(LIMITS.seed)}`,
      '(default: a random seed, recorded in the results)',
    ],
    docDefault: 'random, recorded',
    doc: '0 to 4,294,967,295: the same order of the stores, and with a workload the same operations, keys ' +
      'and values, again.',
  },
  {
    flag: 'value-shape',
    type: 'string',
    arg: 'SHAPE',
    default: 'bytes',
    setting: 'valueShape',
    section: 'workload',
    help: [
      'with --direct: bytes (default: each value as it is) or hash: each value',
      `as ${HASH_FIELDS} fields f0..f${HASH_FIELDS - 1} splitting its bytes, in the store's own hash`,
      'type where it has one (Redis HSET), else as JSON of base64 fields;',
      'hash needs a key space (--records or a workload) and refuses append',
    ],
    docDefault: '`bytes`',
    doc: 'With `--direct` and a key space: `hash` stores each value as 10 fields `f0`..`f9` splitting its ' +
      'bytes, as the store\'s own hash type where it has one (`redis`, `ioredis`, `redis-cluster`: ' +
      '`HSET`/`HGETALL`), else as the JSON of the fields in base64; loads, steps, verification and ' +
      'probe all use it, and a value reads back to the same bytes. Over HTTP, or with a workload that ' +
      'appends, exit 2. See [docs/direct.md](direct.md#value-shape---value-shape).',
  },
  {
    flag: 'no-load',
    type: 'boolean',
    setting: 'load',
    section: 'workload',
    help: ['do not load the records first (they are there from an earlier run)'],
    docDefault: 'load first',
    doc: 'Do not load the records (they are there from an earlier run).',
  },
  {
    flag: 'no-verify',
    type: 'boolean',
    setting: 'verify',
    section: 'workload',
    help: ['do not read back a sample of written values after the run'],
    docDefault: 'verify after',
    doc: 'Do not read back a sample of the written values after each store\'s steps.',
  },
  {
    flag: 'token',
    type: 'string',
    arg: 'TOKEN',
    setting: null,
    section: 'workload',
    help: [
      `the app's write token (default: $${TOKEN_ENV}); the embedded`,
      'default makes one up for the app it starts. Never printed',
    ],
    docDefault: '`$STOREBENCH_WRITE_TOKEN`',
    doc: 'The app\'s write token, sent on writes as `Authorization: Bearer`; the embedded default makes one ' +
      'up for the app it starts. Never printed or saved.',
  },
];
