// Study 004: one listing's locations (a 2,448-byte JSON document) read and written over HTTP
// with ab -c 100 -n 2000, reads with keep-alive (-k), writes without, on four architectures:
// Tarantool (vinyl), PostgreSQL, PostgreSQL behind a Redis cache, and Redis persisted to
// PostgreSQL. Here: the key-space workloads over one record, `read` of a 2,448-byte value and
// `update` with 190-byte values (the study posted about 190 bytes a request).
const STORES = ['tarantool', 'postgres+redis', 'postgres', 'redis+postgres'];
const PERCENTILES = [50, 66, 75, 80, 90, 95, 98, 99, 100];

// The study's app: PostgreSQL reads joined item_locations to locations through two indexes,
// and its writes went one at a time. Runs that differ say so in their own env.
const STUDY_APP = { STOREBENCH_POSTGRES_READS: 'join', STOREBENCH_POSTGRES_WRITES: 'serial' };
const OURS = { STOREBENCH_POSTGRES_READS: 'key', STOREBENCH_POSTGRES_WRITES: 'concurrent' };
// Both sides of each run ran without keep-alive: ab's write command had no -k, and its read
// outputs say "Keep-Alive requests: 0" although the command had -k.
const AB = { noKeepalive: true, warmup: 200, seed: 4 };
// One listing's locations read (2,448 bytes), or written (190 bytes, not read back).
const reads = (stores, { requests, concurrency }) => ({
  stores, workload: 'read', records: 1, valueSize: 2448, requests, concurrency: [concurrency], ...AB,
});
const writes = (stores, { requests, concurrency }, records = 1) => ({
  stores, workload: 'update', records, valueSize: 190, requests, concurrency: [concurrency], ...AB, noVerify: true,
});
const runs = ({ requests, concurrency, pair }) => [
  ...STORES.flatMap((store) => [
    { id: 'read', label: `${store} read`, options: reads(store, { requests, concurrency }) },
    { id: 'write', label: `${store} write`, options: writes(store, { requests, concurrency }) },
  ]),
  // The study's pair on random listings: its app's writes one at a time, then concurrently.
  {
    id: 'single-threaded',
    label: 'postgres writes one at a time, random ids',
    options: writes('postgres', pair, 1000),
  },
  {
    id: 'multi-threaded',
    env: OURS,
    label: 'postgres writes concurrently, random ids',
    options: writes('postgres', pair, 1000),
  },
  // Ours beside the study's: the key lookup, and one-row writes not serialised.
  {
    id: 'read-key',
    env: OURS,
    label: 'postgres read by primary key',
    options: reads('postgres', { requests, concurrency }),
  },
  {
    id: 'write-concurrent',
    env: OURS,
    label: 'postgres write, concurrent',
    options: writes('postgres', { requests, concurrency }),
  },
];

// Counter-runs: a store moved FAR from the app (another region), its every request then paying
// a round trip longer than a whole request here (some 15 to 50 ms at c=100 without keep-alive,
// with the app's own work: 40 ms did not show on a loaded machine), so closed-loop rates fall to
// about concurrency / FAR_MS whatever the machine does.
const FAR_MS = 300;
const far = (store, what) => ({
  change: `${what} ${FAR_MS} ms from the app (another region), the others on loopback`,
  how: `--store-rtt ${store}=${FAR_MS}`,
  system: { storeDelay: { rttMs: { stores: { [store]: FAR_MS } } } },
});
// PostgreSQL alone moved NEAR_MS away: its serial writes then wait a round trip each (50 a
// second) and its reads ten at once (500), well below the others on loopback, while the app's
// queue of writes stays within a request's deadline (300 ms away, 100 queued writes waited 30 s
// and timed out, which says nothing of the store).
const NEAR_MS = 20;
const postgresAway = {
  change: `PostgreSQL alone ${NEAR_MS} ms from the app (its writes one at a time, its reads ten at once), the others ` +
    'on loopback',
  how: `--store-rtt postgres=${NEAR_MS}`,
  system: { storeDelay: { rttMs: { stores: { postgres: NEAR_MS } } } },
};

// The study's ab figures: rps, mean (ab's time per request), then 50% .. 100% in ms.
const ab = {
  'read tarantool': [1892.04, 52.853, 52, 53, 53, 53, 54, 56, 56, 57, 57],
  'write tarantool': [1890.25, 52.903, 52, 53, 54, 54, 55, 55, 56, 56, 56],
  'read postgres+redis': [1850.03, 54.053, 53, 54, 54, 54, 56, 57, 59, 59, 60],
  'write postgres+redis': [240.14, 832.848, 825, 832, 837, 839, 849, 900, 926, 930, 933],
  'read postgres': [1520.82, 65.754, 51, 58, 63, 73, 120, 187, 300, 428, 810],
  'write postgres': [278.07, 719.241, 724, 730, 736, 737, 742, 748, 753, 754, 760],
  'read redis+postgres': [1037.22, 96.412, 80, 109, 126, 135, 160, 183, 229, 262, 372],
  'write redis+postgres': [1904.59, 52.505, 52, 53, 54, 55, 57, 57, 59, 61, 72],
};
const abRows = Object.fromEntries(Object.entries(ab).map(([row, [rps, mean, ...percentiles]]) => [
  row, { rps, mean, ...Object.fromEntries(PERCENTILES.map((p, i) => [`p${p}`, percentiles[i]])) },
]));

export default {
  name: 'tarantool-vs-postgres',
  title: 'Tarantool (vinyl) vs PostgreSQL vs PostgreSQL + Redis cache vs Redis + PostgreSQL: one 2.4 KB ' +
    'document over HTTP, ab -c 100 -n 2000',
  summary: 'study 004: read (keep-alive) and write (no keep-alive) one 2,448 B document at c=100, 2,000 requests, on ' +
    'tarantool, postgres, postgres+redis, redis+postgres',
  study: {
    file: '004_64d6f414339a5b9d.txt',
    hardware: 'one machine, ab against 127.0.0.1:8080 (a web app reading /item/5/locations); CPU and memory not given',
    date: 'not given in the text',
  },
  kind: 'sweep',
  app: { stores: STORES, env: STUDY_APP },
  notes: [
    'ours: the key-space workloads over one record (read of a 2,448-byte value; update with 190-byte values), ' +
      'through the app\'s GET and PUT routes; the study read and posted a listing\'s JSON through its own app',
    'as the study\'s app: PostgreSQL reads join an item_locations row to its locations row through both tables\' ' +
      'indexes (STOREBENCH_POSTGRES_READS=join), and its writes go one at a time ' +
      '(STOREBENCH_POSTGRES_WRITES=serial), in every store that writes PostgreSQL; the ' +
      'write verdicts are judged on these',
    'beside them, ours: postgres read by its primary key (read-key) and written concurrently with row locks ' +
      '(write-concurrent), in the table "postgres here"',
    'no keep-alive on either side: the study\'s writes ran without -k, and its read outputs say "Keep-Alive ' +
      'requests: 0" although ab ran with -k (its server closed every connection); every ' +
      'request here opens a connection',
    'the study\'s pair of multi- and single-threaded writes (712 vs 297 rps) was over random listings: here ' +
      '1,000 records, updated at random, concurrently and one at a time; the study ran 3,000 requests at c=100',
    'each run here starts with 200 requests not counted (a warm-up); ab had none',
    'rps here is ab\'s own definition, responses / elapsed (from the first request\'s start to the last one\'s end); ' +
      'ab\'s mean is concurrency x elapsed / requests, ours the mean of the requests\' own latencies',
  ],
  tables: [
    {
      id: 'summary',
      title: 'the study\'s summary: the slowest request (ab\'s 100%) per architecture, and rps',
      rowHeader: 'architecture',
      row: '{store}',
      rows: STORES,
      columns: [
        { id: 'readMs', label: 'read 100%', unit: 'ms', metric: 'latency.maxMs', run: 'read' },
        { id: 'writeMs', label: 'write 100%', unit: 'ms', metric: 'latency.maxMs', run: 'write' },
        { id: 'readRps', label: 'read rps', unit: 'req/s', metric: 'elapsedRps', run: 'read' },
        { id: 'writeRps', label: 'write rps', unit: 'req/s', metric: 'elapsedRps', run: 'write' },
      ],
    },
    {
      id: 'ab',
      title: 'ab-style figures per run: rps, mean, and the share of requests served within (ms)',
      rowHeader: 'run',
      row: '{run} {store}',
      runs: ['read', 'write'],
      columns: [
        { id: 'rps', label: 'rps', unit: 'req/s', metric: 'elapsedRps' },
        { id: 'mean', label: 'mean', unit: 'ms', metric: 'latency.meanMs' },
        ...PERCENTILES.map((p) => ({ id: `p${p}`, label: `${p}%`, unit: 'ms', metric: `p:${p}` })),
      ],
    },
    {
      id: 'pair',
      title: 'the study\'s pair: PostgreSQL writes to random listings, concurrently and one at a time',
      rowHeader: 'writes',
      row: '{run}',
      rows: ['multi-threaded', 'single-threaded'],
      runs: ['multi-threaded', 'single-threaded'],
      columns: [
        { id: 'rps', label: 'rps', unit: 'req/s', metric: 'elapsedRps' },
        { id: 'mean', label: 'mean', unit: 'ms', metric: 'latency.meanMs' },
        { id: 'p50', label: '50%', unit: 'ms', metric: 'p:50' },
        { id: 'p100', label: '100%', unit: 'ms', metric: 'p:100' },
      ],
    },
    {
      id: 'postgres',
      title: 'postgres here: the study\'s joined reads and serial writes beside a key ' +
        'lookup and concurrent writes (ours)',
      rowHeader: 'run',
      row: '{run}',
      rows: ['read', 'read-key', 'write', 'write-concurrent'],
      columns: [
        { id: 'rps', label: 'rps', unit: 'req/s', metric: 'elapsedRps' },
        { id: 'mean', label: 'mean', unit: 'ms', metric: 'latency.meanMs' },
        { id: 'p100', label: '100%', unit: 'ms', metric: 'p:100' },
      ],
      store: 'postgres',
      runs: ['read', 'read-key', 'write', 'write-concurrent'],
    },
  ],
  scales: {
    tiny: {
      note: '200 requests per run at concurrency 20 (the pair: 300): seconds, for tests',
      runs: runs({ requests: 200, concurrency: 20, pair: { requests: 300, concurrency: 20 } }),
    },
    default: {
      note: 'the study\'s ab settings: 2,000 requests per run at concurrency 100 (the pair: 3,000)',
      runs: runs({ requests: 2000, concurrency: 100, pair: { requests: 3000, concurrency: 100 } }),
    },
    full: {
      note: 'the same as default: the study\'s sizes run whole here',
      runs: runs({ requests: 2000, concurrency: 100, pair: { requests: 3000, concurrency: 100 } }),
    },
  },
  published: [
    {
      id: 'summary',
      title: 'published: the study\'s table (its ms are each run\'s 100% line) and its ab rps',
      rows: {
        tarantool: { readMs: 57, writeMs: 56, readRps: 1892.04, writeRps: 1890.25 },
        'postgres+redis': { readMs: 60, writeMs: 933, readRps: 1850.03, writeRps: 240.14 },
        postgres: { readMs: 810, writeMs: 760, readRps: 1520.82, writeRps: 278.07 },
        'redis+postgres': { readMs: 372, writeMs: 72, readRps: 1037.22, writeRps: 1904.59 },
      },
    },
    {
      id: 'ab',
      title: 'published: the study\'s ab outputs (its postgres and postgres+redis writes ran at concurrency 200)',
      rows: abRows,
    },
    {
      id: 'pair',
      title: 'published: the study\'s two ab outputs of writes to random listings, 3,000 requests at c=100',
      rows: {
        'multi-threaded': { rps: 712.21, mean: 140.408, p50: 45, p100: 3488 },
        'single-threaded': { rps: 297.25, mean: 336.419, p50: 286, p100: 457 },
      },
    },
  ],
  conclusions: [
    {
      id: 'cache-reads-like-tarantool',
      claim: 'behind a Redis cache, PostgreSQL reads as fast as Tarantool (the study: 1,850 vs 1,892 rps)',
      uses: ['read tarantool', 'read postgres+redis'],
      // Over a network every read pays alike, and two stores a few ms apart read level.
      // Level in fact when both pay the same network far larger than what sets them apart; apart in
      // fact with one of them far from the app.
      counter: {
        ifHolds: far('tarantool', 'Tarantool'),
        ifFails: {
          change: `a ${FAR_MS} ms round trip between the driver and the app (study 000's), which every read pays ` +
            'twice (no keep-alive)',
          how: `--client-rtt ${FAR_MS}`,
          system: { clientDelay: { rttMs: FAR_MS } },
        },
      },
      // Level by the one margin every check uses (10%): the study's own pair is 2% apart.
      check: { type: 'level', table: 'summary', column: 'readRps', row: 'postgres+redis', other: 'tarantool' },
    },
    {
      id: 'cache-beats-postgres-reads',
      claim: 'reads through the Redis cache beat PostgreSQL alone (1,850 vs 1,521 rps)',
      uses: ['read postgres+redis', 'read postgres'],
      counter: { ifHolds: far('postgres+redis', 'the cache layer'), ifFails: postgresAway },
      check: { type: 'order', table: 'summary', column: 'readRps', rows: ['postgres+redis', 'postgres'] },
    },
    {
      id: 'tarantool-writes',
      claim: 'Tarantool writes several times faster than PostgreSQL (1,890 vs 278 rps)',
      uses: ['write tarantool', 'write postgres'],
      counter: { ifHolds: far('tarantool', 'Tarantool'), ifFails: postgresAway },
      check: { type: 'ratio', table: 'summary', column: 'writeRps', row: 'tarantool', over: 'postgres', atLeast: 2 },
    },
    {
      id: 'redis-persistence-writes',
      claim: 'Redis in front, persisting to PostgreSQL later, writes several times faster ' +
        'than PostgreSQL (1,905 vs 278 rps)',
      uses: ['write redis+postgres', 'write postgres'],
      counter: {
        ifHolds: far('redis+postgres', 'the write-behind store'),
        ifFails: postgresAway,
      },
      check: {
        type: 'ratio',
        table: 'summary',
        column: 'writeRps',
        row: 'redis+postgres',
        over: 'postgres',
        atLeast: 2,
      },
    },
    {
      id: 'serial-writes-slower',
      claim: 'PostgreSQL writes to random listings go faster concurrently than one at a time (712 vs 297 rps)',
      uses: ['multi-threaded', 'single-threaded'],
      // Through one connection to a PostgreSQL 20 ms away each write waits its round trip either
      // way (a pool of one alone was not enough: the app's serial queue costs a little more than
      // the pool's); through ten, concurrent writes overlap their round trips.
      counter: {
        ifHolds: {
          change: 'one connection to a PostgreSQL 20 ms from the app, so every write waits its round trip in turn',
          how: 'POSTGRES_POOL_SIZE=1 --store-rtt postgres=20',
          system: { env: { POSTGRES_POOL_SIZE: '1' }, storeDelay: { rttMs: { stores: { postgres: 20 } } } },
        },
        ifFails: {
          change: 'PostgreSQL 20 ms from the app, its pool of ten overlapping the concurrent writes\' round trips',
          how: '--store-rtt postgres=20',
          system: { storeDelay: { rttMs: { stores: { postgres: 20 } } } },
        },
      },
      check: { type: 'order', table: 'pair', column: 'rps', rows: ['multi-threaded', 'single-threaded'] },
    },
    {
      id: 'join-reads-slower',
      // The study's reason for its slow PostgreSQL reads; it published no key lookup to test it on.
      claim: 'PostgreSQL reads are slower for walking two indexes: its joined read is slower than a key lookup',
      ours: true,
      uses: ['read postgres', 'read-key'],
      noCounter: 'its second index walk costs PostgreSQL tens of microseconds, beside some 20 ms a request spends ' +
        'on its connection and in the app at c=100; only a PostgreSQL starved of CPU would show it, and the ' +
        'run\'s PostgreSQL is the configured or embedded server, whose CPU this run does not limit',
      check: { type: 'order', table: 'postgres', column: 'rps', rows: ['read-key', 'read'] },
    },
    {
      id: 'postgres-writes-slower',
      claim: 'PostgreSQL writes more slowly than it reads (278 vs 1,521 rps)',
      uses: ['read postgres', 'write postgres'],
      // A read carries the 2,448-byte value back, a write 190 bytes there: on a thin link reads are the slower.
      counter: {
        ifHolds: {
          change: 'PostgreSQL behind a 512 KB/s link from the app, which each read crosses with 2,448 bytes and each ' +
            'write with 190',
          how: '--store-bandwidth postgres=512KB',
          system: { storeDelay: { bandwidth: { stores: { postgres: 512 * 1024 } } } },
        },
        // Its writes go one at a time, its reads ten at a time: a round trip costs the writes ten times more.
        ifFails: postgresAway,
      },
      check: {
        type: 'ratio',
        table: 'summary',
        column: 'readRps',
        row: 'postgres',
        over: 'postgres',
        overColumn: 'writeRps',
        atLeast: 1.5,
      },
    },
  ],
};
