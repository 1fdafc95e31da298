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
// three steps), `e` uniform reads over those. Run in the order a, b, d, c, e, so phase d reads
// only 100 B values; phase e reads the 10 KB values phase c wrote, and any of records 0 .. 3c-1
// whose 10 KB write failed still holds its 100 B value.
// Phase c's 10 KB values are 1.25x the room the operating system leaves each Redis node this
// run started, at every scale, as the study's 30 GB went into its hosts' 24 GB; like the study's,
// the nodes have no maxmemory ("a memory cap can be set by hand", it says), so a node that runs
// out is killed, and a cluster-node-timeout of a second lets a replica take over meanwhile
// (studies/server-limits.js).
const FILL = 1.25;
const NODE_TIMEOUT_MS = 1000;
// A counter-run's servers held to a twentieth of a core each (all of a server's processes
// together): the load, not the driver, then saturates them, which one Node.js thread cannot do
// to a free server on this machine (a quarter of a core did not bind at --scale tiny).
const SLOW_SERVER_CORES = 0.05;
const cpuDuring = (phases) => ({ kind: { serverCpu: { cores: SLOW_SERVER_CORES, ...(phases ? { phases } : {}) } } });
// saturation's counter-run: a quarter of a core. Held to a twentieth or an eighth, the cluster spent
// less CPU a command the more were waiting, so its throughput kept rising with the load at the same
// CPU (docs/scenarios.md, the default-scale reruns).
const SATURATED_SERVER_CORES = 0.25;
const CPU_HOW = 'a cgroup on the servers this run started; no flag';
// The cluster made slower in one phase: its counter-run when a comparison of two phases came
// out as it did (held to a twentieth of a core then, as a host busy with other work would).
const slowerIn = (phase) => ({
  change: `the cluster held to a twentieth of a core during ${PHASES[phase]} alone`,
  how: CPU_HOW,
  system: cpuDuring([phase]),
});

function phases({ a, b, c, d, e, concurrency }) {
  const small = 1 + a * concurrency.length;
  const bulk = small + b * concurrency.length;
  const large = c * concurrency.length;
  // Values as the study kept its HashMap: a hash where the store has one, JSON elsewhere.
  const common = { concurrency, warmup: 0, valueShape: 'hash' };
  return [
    { id: 'a', label: PHASES.a, options: { workload: 'insert', records: 1, valueSize: 100, requests: a, ...common } },
    {
      id: 'b',
      label: PHASES.b,
      options: { workload: 'insert', records: small, noLoad: true, valueSize: 100, requests: b, ...common },
    },
    {
      id: 'c',
      label: PHASES.c,
      memory: { fill: FILL, bytes: large * 10240 },
      options: {
        workload: 'write',
        records: large,
        distribution: 'sequential',
        noLoad: true,
        valueSize: 10240,
        requests: c,
        ...common,
      },
    },
    {
      id: 'd',
      label: PHASES.d,
      options: { workload: 'read', records: bulk, noLoad: true, requests: d, ...common, warmup: 1000 },
    },
    {
      id: 'e',
      label: PHASES.e,
      // The study's response-time client read 10 KB in this phase too.
      options: {
        workload: 'read', records: large, noLoad: true, requests: e, ...common, warmup: 1000, probeSize: 10240,
      },
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
  clusterNodeTimeoutMs: NODE_TIMEOUT_MS,
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
    'the probe has a key of its own that no phase writes (in the same shape: HSET/HGETALL on the Redis ' +
      'stores), 100 bytes, and 10 KB in phase e; it writes it in the write phases (a, b, c) and reads it in the ' +
      'read phases (d, e), as the study\'s response-time client did',
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
  // Its tables' columns are the phases kind's own (studies/kinds/phases.js).
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
      uses: STORES,
      // The claim is about a loaded server: a row whose step the driver limited says nothing of it.
      counter: {
        change: 'each server this run started held to a twentieth of a core, so that the load saturates it',
        how: CPU_HOW,
        system: cpuDuring(),
      },
      check: {
        type: 'column-above',
        table: 'phases',
        column: 'probeLoadMs',
        over: 'probeIdleMs',
        rows: Object.keys(PHASES).flatMap(rowsOf),
        where: {
          column: 'serverBound',
          atLeast: 1,
          why: 'a server was not the limit of its best step, or the step named none',
        },
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
      uses: ['redis-cluster'],
      // Whichever way it came out: the cluster made slower in one of the two phases.
      counter: {
        ifHolds: slowerIn('a'),
        ifFails: slowerIn('b'),
      },
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
      uses: ['redis-cluster'],
      counter: {
        ifHolds: slowerIn('a'),
        ifFails: slowerIn('b'),
      },
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
        'failover and an out-of-memory kill; judged as: at least 1% of the phase\'s requests failed)',
      uses: ['redis-cluster'],
      // The same nodes, limit and timeout, with the room the phase needs and more.
      counter: {
        change: 'the same memory limits with room to spare: three times the phase\'s values',
        how: 'a cgroup or prlimit on the nodes this run started; no flag',
        system: { kind: { memoryFill: 1 / 3 } },
      },
      // Unstable: failed requests (timeouts, connections lost, writes refused) in at least 1% of
      // the phase's, not one timeout against none. Every failed request counts, a write refused
      // for memory too; the counter-run shows they come from the memory the phase needs.
      check: {
        type: 'ratio',
        table: 'phases',
        column: 'errors',
        row: row('c', 'redis-cluster'),
        over: row('c', 'redis-cluster'),
        overColumn: 'requests',
        atLeast: 0.01,
      },
    },
    {
      id: 'large-writes-slower',
      claim: 'Redis Cluster answers the probe more slowly under 10 KB writes than under 100 B writes (4.27 vs 2.09 ms)',
      uses: ['redis-cluster'],
      counter: {
        ifHolds: slowerIn('a'),
        ifFails: slowerIn('c'),
      },
      check: {
        type: 'order',
        table: 'phases',
        column: 'probeLoadMs',
        rows: [row('a', 'redis-cluster'), row('c', 'redis-cluster')],
      },
    },
    {
      id: 'saturation',
      // In a closed loop a flat rate makes the response time rise with the concurrency (Little's
      // law), so the rise says nothing more: what the claim needs is the server at its limit.
      claim: 'under more pressure OPS stays flat while the response time rises (the study: for both stores; here ' +
        'Redis Cluster, over the two highest concurrencies of each phase before c: throughput within 20%, and the ' +
        'cluster the limit of both steps by its own CPU; the response time then rises by Little\'s law)',
      uses: ['redis-cluster'],
      counter: {
        change: 'each server this run started held to a quarter of a core, so that the load saturates it',
        how: CPU_HOW,
        system: { kind: { serverCpu: { cores: SATURATED_SERVER_CORES } } },
      },
      check: {
        type: 'all-of',
        checks: ['a', 'b', 'd'].flatMap((phase) => [
          {
            type: 'plateau',
            table: 'steps',
            column: 'ops',
            rows: { prefix: `${row(phase, 'redis-cluster')} c=`, last: 2 },
            tolerance: 0.2,
          },
          {
            type: 'at-least',
            table: 'steps',
            column: 'serverBound',
            rows: { prefix: `${row(phase, 'redis-cluster')} c=`, last: 2 },
            atLeast: 1,
            means: 'the cluster, not the driver or the machine, the step\'s limit',
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
      uses: ['redis-cluster'],
      noCounter: 'an idle Redis answers one request in about the same time over 300,000 keys as over one (a ' +
        'hash table), and a limit on its memory or CPU does not slow an idle server\'s single answers (a CPU ' +
        'quota only throttles a server that uses it up), so no change here makes the larger set slower in fact',
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
