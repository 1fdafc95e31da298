// Study 002: Redis Cluster (12 masters + 12 replicas on three 4-core hosts) against Couchbase
// (one node on each of the three hosts), written and read in phases by many client threads
// while one single-threaded client timed its own requests, idle and under that load. There is
// no Couchbase Server to run here, so its side is published figures only; the study's method
// runs in direct mode with --probe on the embedded Redis Cluster (3 masters + 3 replicas), one
// redis-server, Tarantool memtx and PostgreSQL.
const STORES = ['redis-cluster', 'redis', 'tarantool-memtx', 'postgres'];
const PHASES = {
  a: 'a. 100 B writes',
  b: 'b. 100 B bulk writes',
  c: 'c. 10 KB writes',
  d: 'd. 100 B reads',
  e: 'e. 10 KB reads',
};
const COUCHBASE = 'couchbase';
const NO_COUCHBASE = 'no Couchbase Server runs here (neither npm nor Debian packages one)';

// A scale's five phases. Per step: `a` 100 B inserts past record 0 (the load phase writes it),
// `b` as many again per step past those, `d` uniform reads over every
// 100 B record, `c` 10 KB writes over records 0 .. 3c-1 in order (one pass over them in the
// three steps), `e` uniform reads over those. Run in the order a, b, d, c, e, so each read
// phase finds only its own size of value.
// Phase c's 10 KB values are 1.25x the room Redis's maxmemory leaves them at every scale, as
// the study's 30 GB went into 24 GB (driver/scenarios/kinds/phases.js capRedis).
const FILL = 1.25;

function phases({ a, b, c, d, e, concurrency }) {
  const small = 1 + a * concurrency.length;
  const bulk = small + b * concurrency.length;
  const large = c * concurrency.length;
  // Values as the study kept its HashMap: a hash where the store has one, JSON elsewhere.
  const common = { concurrency, warmup: 0, 'value-shape': 'hash' };
  return [
    { id: 'a', label: PHASES.a, flags: { workload: 'insert', records: 1, 'value-size': 100, requests: a, ...common } },
    {
      id: 'b',
      label: PHASES.b,
      flags: { workload: 'insert', records: small, load: false, 'value-size': 100, requests: b, ...common },
    },
    {
      id: 'c',
      label: PHASES.c,
      maxmemory: { fill: FILL, bytes: large * 10240 },
      flags: {
        workload: 'write',
        records: large,
        distribution: 'sequential',
        load: false,
        'value-size': 10240,
        requests: c,
        ...common,
      },
    },
    {
      id: 'd',
      label: PHASES.d,
      flags: { workload: 'read', records: bulk, load: false, requests: d, ...common, warmup: 1000 },
    },
    {
      id: 'e',
      label: PHASES.e,
      flags: { workload: 'read', records: large, load: false, requests: e, ...common, warmup: 1000 },
    },
  ];
}

const row = (phase, store) => `${PHASES[phase]} / ${store}`;
const rowsOf = (phase) => STORES.map((store) => row(phase, store));

export default {
  name: 'cluster-vs-document',
  title: 'Redis Cluster vs Couchbase: 100 B and 10 KB writes and reads over millions of records, with a ' +
    'single-request probe idle and under load',
  summary: 'study 002: phases of 100 B / 10 KB writes and reads at c=50,200,500, direct mode with --probe, on ' +
    'redis-cluster, redis, tarantool-memtx, postgres (Couchbase: published only)',
  study: {
    file: '002_5175a9f4f4ee6abf.txt',
    author: 'Yang Ting and Song Jiayang (Hundsun)',
    source: 'the authors\' article of 2017-07-11; their test code was published at github.com/yt485212/NoSQLTest',
    hardware: 'three 4-core 8 GB hosts (24 Redis instances, 12 masters + 12 replicas; or one Couchbase node each, ' +
      'one replica), 4 to 6 load clients of 500 to 1,000 threads each (8-core 8 GB), one ' +
      'single-threaded response-time client',
    date: 'tests of 2017-05-08 to 05-19 and 2017-06-28 to 06-30',
  },
  kind: 'phases',
  stores: STORES,
  phaseOrder: ['a', 'b', 'd', 'c', 'e'],
  absentStores: { [COUCHBASE]: NO_COUCHBASE },
  titles: {
    phasesTitle: 'each phase at its best concurrency: ops/s, the load\'s own mean latency, the probe\'s mean idle ' +
      '(before the phase) and under that step\'s load',
    stepsTitle: 'every step of every phase (the table above shows each phase\'s best)',
  },
  notes: [
    `Couchbase is published figures only: ${NO_COUCHBASE}`,
    'values are stored as the study kept its HashMap (--value-shape hash): the study\'s sizes (100 B, 10 KB) of ' +
      'random bytes split into 10 fields f0..f9, a hash on redis and redis-cluster (HSET of the 10 fields, after a ' +
      'DEL in the same MULTI; read with HGETALL), the JSON document of the same fields (each in base64, so about a ' +
      'third larger) on tarantool-memtx and postgres, as Couchbase held JSON',
    'the probe has a 100-byte key of its own that no phase writes (in the same shape: HSET/HGETALL on the Redis ' +
      'stores); it writes it in the write phases (a, b, c) and reads it in the read phases (d, e), as the ' +
      'study\'s response-time client did',
    'the study\'s figures of a phase are its response-time client\'s means (idle before the load, and under it) and ' +
      'the load clients\' OPS; it gives no mean of the load clients\' own requests, so that ' +
      'column has no published figure',
    'the study\'s threads were 2,000 (writes of 100 B), 6,000 (10 KB) and 3,000 (reads) over 300 Redis connections a ' +
      'client; ours: one client in this process, at the scale\'s concurrency steps (50, 200 and 500 at default and ' +
      'full scale) over each store\'s own connection(s)',
    'ours run on one 2-core machine where the stores, the driver and the probe share the cores; the study\'s ' +
      'servers had three hosts to themselves',
    'one Node.js thread drives the whole load here: where it, not the store, is the limit, the load\'s mean latency ' +
      'is mostly its requests waiting in the driver, which the probe (its own thread and ' +
      'connection) does not wait behind',
  ],
  // Its tables' columns are the phases kind's own (driver/scenarios/kinds/phases.js).
  scales: {
    tiny: {
      note: 'seconds, for tests: concurrency 5, 20, 50 (the probe needs 10 requests a client in a step), 1,500 + ' +
        '3,000 records of 100 B, 1,500 of 10 KB, 1,500 reads a phase',
      tarantoolMemtxMb: 128,
      phases: phases({ a: 500, b: 1000, c: 500, d: 500, e: 500, concurrency: [5, 20, 50] }),
    },
    default: {
      note: 'scaled down to finish in minutes on 2 cores: 100,000 + 200,000 records of 100 B (study: 4M + 20M), ' +
        '15,000 of 10 KB (study: 3M), 60,000 reads of 100 B (study: 60M) and 30,000 of 10 KB (study: 12M) a store',
      tarantoolMemtxMb: 1024,
      phases: phases({ a: 33_333, b: 66_667, c: 5_000, d: 20_000, e: 10_000, concurrency: [50, 200, 500] }),
    },
    full: {
      note: 'the issue\'s sizes (the study\'s per load client): 1M + 5M records of 100 B (study: 4M + 20M over four ' +
        'clients), 300,000 of 10 KB (study: 3M, 30 GB, more than this machine\'s 24 GiB), 6M reads of 100 B (study: ' +
        '60M) and 3M of 10 KB (study: 12M) a store',
      tarantoolMemtxMb: 8192,
      phases: phases({ a: 333_333, b: 1_666_667, c: 100_000, d: 2_000_000, e: 1_000_000, concurrency: [50, 200, 500] }),
    },
  },
  published: [
    {
      id: 'phases',
      title: 'published: Redis Cluster (12 + 12) and Couchbase (3 nodes) on the study\'s hosts; probe = its ' +
        'single-threaded client\'s mean, "best at c" = its load threads; "-": not given',
      rows: {
        [row('a', 'redis-cluster')]: { ops: 200_000, probeIdleMs: 0.21, probeLoadMs: 2.09, concurrency: 2000 },
        [row('a', COUCHBASE)]: { ops: 150_000, probeIdleMs: 0.35, probeLoadMs: 1.95, concurrency: 2000 },
        [row('b', 'redis-cluster')]: { ops: 160_000, probeLoadMs: 6.43, concurrency: 2000 },
        [row('b', COUCHBASE)]: { ops: 140_000, probeLoadMs: 3.81, concurrency: 2000 },
        [row('c', 'redis-cluster')]: { probeLoadMs: 4.27, concurrency: 6000 },
        [row('c', COUCHBASE)]: { ops: 6000, probeLoadMs: 1.16, concurrency: 6000 },
        [row('d', 'redis-cluster')]: { ops: 180_000, probeIdleMs: 0.74, probeLoadMs: 9.12, concurrency: 3000 },
        [row('d', COUCHBASE)]: { ops: 510_000, probeIdleMs: 0.35, probeLoadMs: 7.04, concurrency: 3000 },
        [row('e', COUCHBASE)]: { ops: 90_000, probeIdleMs: 0.68, probeLoadMs: 2.79, concurrency: 3000 },
      },
    },
  ],
  conclusions: [
    {
      id: 'probe-slower-under-load',
      claim: 'every store answers one request more slowly under load than idle (Redis Cluster 0.21 -> 2.09 ms, ' +
        'Couchbase 0.35 -> 1.95 ms on 100 B writes)',
      check: {
        type: 'column-above',
        table: 'phases',
        column: 'probeLoadMs',
        over: 'probeIdleMs',
        rows: Object.keys(PHASES).flatMap(rowsOf),
      },
    },
    {
      id: 'small-writes-redis-more-ops',
      claim: 'on 100 B writes Redis Cluster serves more operations than Couchbase (200k vs 150k ops/s)',
      notRunnable: NO_COUCHBASE,
    },
    {
      id: 'idle-redis-faster',
      claim: 'idle, Redis Cluster answers a write about twice as fast as Couchbase (0.21 vs 0.35 ms)',
      notRunnable: NO_COUCHBASE,
    },
    {
      id: 'redis-degrades-faster',
      claim: 'as the load grows, Redis Cluster\'s response time grows faster than Couchbase\'s',
      notRunnable: NO_COUCHBASE,
    },
    {
      id: 'bulk-writes-fewer-ops',
      claim: 'Redis Cluster serves fewer writes a second over the bulk load than over the ' +
        'first one (160k vs 200k ops/s)',
      check: {
        type: 'order',
        table: 'phases',
        column: 'ops',
        rows: [row('a', 'redis-cluster'), row('b', 'redis-cluster')],
      },
    },
    {
      id: 'bulk-writes-slower',
      claim: 'under the bulk load Redis Cluster answers the probe more slowly than under ' +
        'the first one (6.43 vs 2.09 ms)',
      check: {
        type: 'order',
        table: 'phases',
        column: 'probeLoadMs',
        rows: [row('a', 'redis-cluster'), row('b', 'redis-cluster')],
      },
    },
    {
      id: 'bulk-couchbase-faster',
      claim: 'under the bulk load Couchbase answers faster than Redis Cluster (3.81 vs 6.43 ms) at a ' +
        'similar rate (140k vs 160k ops/s)',
      notRunnable: NO_COUCHBASE,
    },
    {
      id: 'large-writes-redis-unstable',
      claim: 'Redis Cluster is unstable under 10 KB writes: timeouts and failed writes (the study also saw a ' +
        'failover and an out-of-memory kill)',
      // Unstable next to the others: more failures in the phase than every other store's (by
      // more than the margin, and so more than none), not merely one timeout on its own. Writes
      // refused at the memory cap the phase overfills are not failures: both Redis servers get
      // the same cap and refuse alike, so counting them would decide the verdict by the setup.
      check: {
        type: 'last',
        table: 'phases',
        column: 'failures',
        direction: 'lower',
        row: row('c', 'redis-cluster'),
        others: STORES.filter((store) => store !== 'redis-cluster').map((store) => row('c', store)),
      },
    },
    {
      id: 'large-writes-slower',
      claim: 'Redis Cluster answers the probe more slowly under 10 KB writes than under 100 B writes (4.27 vs 2.09 ms)',
      check: {
        type: 'order',
        table: 'phases',
        column: 'probeLoadMs',
        rows: [row('a', 'redis-cluster'), row('c', 'redis-cluster')],
      },
    },
    {
      id: 'saturation',
      claim: 'under more pressure OPS stays flat while the response time rises (the study: for both stores; here ' +
        'Redis Cluster, over the two highest concurrencies of each phase but c, which overfills its memory by ' +
        'design: throughput within 20%, mean latency up by 10% or more)',
      check: {
        type: 'all-of',
        checks: Object.keys(PHASES).filter((phase) => phase !== 'c').flatMap((phase) => [
          {
            type: 'plateau',
            table: 'steps',
            column: 'ops',
            rows: { prefix: `${row(phase, 'redis-cluster')} c=`, last: 2 },
            tolerance: 0.2,
          },
          {
            type: 'rises',
            table: 'steps',
            column: 'meanMs',
            rows: { prefix: `${row(phase, 'redis-cluster')} c=`, last: 2 },
            atLeast: 1.1,
          },
        ]),
      },
    },
    {
      id: 'large-writes-couchbase',
      claim: 'Couchbase takes 10 KB writes steadily at 6k+ ops/s and 1.16 ms, faster than Redis Cluster\'s 4.27 ms',
      notRunnable: NO_COUCHBASE,
    },
    {
      id: 'big-set-idle-slower',
      // The study's 0.21 ms was its write probe, its 0.74 ms a read probe: a comparison it did not draw.
      ours: true,
      claim: 'idle, Redis Cluster answers more slowly over the big data set than at the start (0.74 ms before the ' +
        'reads, a read probe, vs 0.21 ms before the first writes, a write probe)',
      check: {
        type: 'order',
        table: 'phases',
        column: 'probeIdleMs',
        rows: [row('a', 'redis-cluster'), row('d', 'redis-cluster')],
      },
    },
    {
      id: 'reads-couchbase-3x',
      claim: 'over 20M records of 100 B Couchbase serves almost three times Redis Cluster\'s reads (510k vs 180k ' +
        'ops/s), and answers faster idle (0.35 vs 0.74 ms)',
      notRunnable: NO_COUCHBASE,
    },
    {
      id: 'large-values-choose-couchbase',
      claim: 'for large values, and for large data sets read more than written, Couchbase is the better choice',
      notRunnable: `a recommendation over Couchbase, which cannot run here: ${NO_COUCHBASE}`,
    },
  ],
};
