// Every field of a Result, defined once: where it sits, its type, what it means, and (for
// steps) its CSV column. The JSON writer and reader (format.js), the CSV writer (csv.js) and
// docs/results-format.md (fields-doc.js) all come from these lists, so they cannot drift apart.
//
// path: dotted, inside its record. type: string, integer, number, boolean, object (free-form,
// JSON values only), number[], string[], list (records described by `of`) or record (one record
// described by `of`, which with "|null" may be null as a whole); "|null" allows null.
// csv (steps): the column name; csvValue(step) when the cell is not the JSON value.

import { RESULTS_FORMAT } from './result.js';

export { RESULTS_FORMAT };

const field = (path, type, description, extra = {}) => ({ path, type, description, ...extra });

const WARNING_FIELDS = [
  field('code', 'string', 'what the warning is about, one of the warning codes below; reports decide by it'),
  field('message', 'string', 'the warning for people, as the table prints it'),
  field('data', 'object', 'the figures behind it, by code (see the warning codes below)'),
];

// What each warning code's `data` holds (result/honesty.js builds it; a test keeps the two in step).
export const WARNING_DATA = {
  WEAK_SAMPLE: {
    responses: 'samples in the step',
    wallSeconds: 'its length',
    minSamples: 'the samples wanted',
    minSeconds: 'the seconds wanted',
  },
  LITTLES_LAW: {
    meanMs: 'measured mean latency',
    expectedMs: 'concurrency / rps, in ms',
    apart: 'how far apart, as a fraction of expectedMs',
    tolerance: 'the fraction allowed',
  },
  OPEN_MODEL_SHORT: {
    rps: 'rate achieved',
    targetRps: 'rate asked',
    minRatio: 'the fraction of targetRps below which this warns',
  },
  DRIVER_CPU: { cpuPercent: 'the driver\'s CPU in % of a core', threshold: 'the % from which this warns' },
  REQUEST_ERRORS: {
    failed: 'failed requests',
    total: 'requests that ended (responses plus timeouts and connection errors)',
  },
  CPU_STEAL: {
    stealPercent: 'steal in % of all CPU time during the step',
    stealOfBusyPercent: 'steal in % of the CPU time that was wanted (the step\'s machine.stealOfBusyPercent): ' +
      'what this warns on',
    threshold: 'the % from which this warns',
  },
  BUSY_MACHINE: {
    othersCpuPercent: 'CPU used by processes outside this run, in % of one core',
    threshold: 'the % of a core from which this warns: 50 (half a core), or half the cores this run left over ' +
      '(the machine\'s cores less treeCpuPercent) when that is more',
  },
  FASTER_THAN_BASELINE: {}, // a comparison row carries the code alone
  NOT_STEADY: { seconds: 'how long the warm-up ran', windows: 'its windows' },
  DRIFT: {
    rpsBefore: 'the control step\'s rps at the start',
    rpsAfter: 'its rps measured again at the end',
    drift: '(after - before) / before',
    tolerance: 'the |drift| from which this warns',
  },
  STEP_FAILED: {
    failed: 'failed requests',
    total: 'requests that ended (responses plus timeouts and connection errors)',
  },
  LOAD_ERRORS: {
    records: 'records the load was to write',
    loaded: 'records the app confirmed',
    failedBatches: 'batches that failed',
  },
  VERIFY_MISMATCH: { mismatched: 'keys whose value read back different', sampled: 'keys read back' },
  WEAKER_PROMISE: { mismatched: 'keys whose value read back different', sampled: 'keys read back' },
  NO_OVERLAP: {
    files: 'the results files whose windows do not overlap',
    gapSeconds: 'from the latest start to the earliest finish, in seconds (positive: that long ' +
      'with not every driver running)',
  },
  START_SKEW: {
    spreadMs: 'from the earliest part\'s start to the latest, by their own clocks, in ms',
    toleranceMs: 'the spread allowed',
    clockSpreadMs: 'how far apart the parts\' clocks were by the target\'s Date header, in ms; ' +
      'null unless every part read it',
  },
  UNVERIFIED: {
    overlap: 'keys left out for writes in flight at once',
    failed: 'keys left out for a write that failed without saying whether it landed',
    unknownBase: 'keys appended to without a known value before',
  },
};

// Latency figures, as a step, an operation and a load phase's batches carry them.
const latencyFields = (what) => [
  field('latency.count', 'integer', `latencies recorded (= ${what})`),
  field('latency.meanMs', 'number|null', 'mean latency in ms, exact (from the ' +
    'nanosecond sum); null with no response', { csv: 'meanLatencyMs' }),
  field('latency.maxMs', 'number|null', 'slowest response in ms, exact', { csv: 'maxLatencyMs' }),
  field('latency.minMs', 'number|null', 'fastest response in ms, exact', { csv: 'minLatencyMs' }),
  field('latency.p50Ms', 'number|null', 'median latency in ms, from the histogram ' +
    '(3 significant digits, 1 µs resolution)', { csv: 'p50' }),
  field('latency.p90Ms', 'number|null', '90th percentile in ms', { csv: 'p90' }),
  field('latency.p99Ms', 'number|null', '99th percentile in ms', { csv: 'p99' }),
  field('latency.p999Ms', 'number|null', '99.9th percentile in ms', { csv: 'p999' }),
];
const histogramFields = (what) => [
  field('histogram.unit', 'string', '`us`: the histogram holds microseconds'),
  field('histogram.encoding', 'string', '`HdrHistogram compressed base64`'),
  field('histogram.data', 'string', `${what} as an HDR histogram, decodable by any HdrHistogram implementation ` +
    '(hdr-histogram-js `decodeFromCompressedBase64`); histograms of the same unit add exactly'),
];
const ERRORS_BY_KIND = 'count per kind: `http <status>` (any status outside 200-299; `http 409` is a write conflict, ' +
  '`WRITE_CONFLICT`: another writer of the key got in between, the store was up), `timeout`, `conn <code>`';

// The store's own time, where the target says it (result/store-time.js): a step's, an operation's.
const STORE_TIME_FIELDS = [
  field('source', 'string', '`server-timing`: the target said it for each response, in the `store` metric of its ' +
    '`Server-Timing` header (`store;dur=0.042`; storebench\'s app sends it: from its call of the store to the ' +
    'result, docs/measurement.md); `direct` (--direct): each call of the step is the store\'s own, so its store ' +
    'time is its latency by definition, the same figures and histogram'),
  field('count', 'integer', 'store times recorded: the 2xx responses whose Server-Timing header carried the ' +
    '`store` metric\'s `dur` (direct: every response, as latency.count)'),
  field('meanMs', 'number', 'mean store time in ms, exact (from the nanosecond sum of the times as the target sent ' +
    'them: the app sends whole µs)', { csv: 'storeMeanMs' }),
  field('minMs', 'number', 'shortest store time in ms'),
  field('maxMs', 'number', 'longest store time in ms', { csv: 'storeMaxMs' }),
  field('p50Ms', 'number', 'median store time in ms, from the histogram (3 significant digits, 1 µs ' +
    'resolution)', { csv: 'storeP50Ms' }),
  field('p90Ms', 'number', '90th percentile in ms'),
  field('p99Ms', 'number', '99th percentile in ms', { csv: 'storeP99Ms' }),
  ...histogramFields('every store time of the step (--workers and merge add them, never their percentiles)'),
];
const STORE_TIME_DESCRIPTION = 'the store\'s own time inside the target, apart from the app and the network: ' +
  'never more than a response\'s latency, and what is left of the latency is the app\'s and the network\'s ' +
  '(docs/measurement.md). null when no 2xx response carried a Server-Timing `store` metric (a target other than ' +
  'storebench\'s app, or one started with --no-server-timing); absent from files written before it';

// The CSV has one row per step (operation `all`), then, for a step of several operations, one
// row per operation with that operation's figures in the columns they have.
export const CSV_OPERATION_COLUMN = { name: 'operation', after: 'workload' };
// Result fields repeated on every CSV row, after the step's columns: a CSV file (or a row of it
// pasted elsewhere) says by itself whether its run stopped early.
export const CSV_RESULT_COLUMNS = [{ name: 'interrupted', path: 'interrupted' }];

// One second of a step (result/timeline.js): what ended in it, and its own histogram.
const TIMELINE_FIELDS = [
  field('second', 'integer', 'which second of the step, from 0 at its first request\'s start ' +
    '(step.startedAt is a few ms before)'),
  field('seconds', 'number', 'how much of this second the step covered: 1, except the last ' +
    '(which ends at the last response)'),
  field('responses', 'integer', 'responses that ended in this second, error statuses included'),
  field('errors', 'object', 'failed requests that ended in this second, per kind (as errors.byKind); `{}` with none'),
  field('latency.p50Ms', 'number|null', 'the median of this second\'s responses in ms, from its histogram ' +
    '(2 significant digits); null with no response'),
  field('latency.p90Ms', 'number|null', 'its 90th percentile in ms'),
  field('latency.p99Ms', 'number|null', 'its 99th percentile in ms'),
  field('latency.maxMs', 'number|null', 'its slowest response in ms (µs resolution)'),
  ...histogramFields('this second\'s latencies (2 significant digits: 1% buckets); the seconds of side-by-side parts ' +
    '(--workers, merge) add by histogram'),
  field('storeTime', 'record|null', 'the store time of this second\'s responses (see the step\'s storeTime; direct ' +
    'mode: its latency); null when none carried one; absent from files written before it', {
    optional: true,
    of: [
      field('p50Ms', 'number', 'its median in ms, from its histogram (2 significant digits)'),
      field('p99Ms', 'number', 'its 99th percentile in ms'),
      ...histogramFields('this second\'s store times'),
    ],
  }),
];
const TIMELINE_DESCRIPTION = 'the step second by second (the text report draws it as one line of sparklines ' +
  'per step, the HTML report charts it, `--hdr-log` writes it)';

const OPERATION_FIELDS = [
  field('operation', 'string', 'what the requests did: `read`, `write`, `update`, `insert`, `append` or ' +
    '`read-modify-write` (docs/workloads.md)'),
  field('requests', 'integer', 'requests of this operation started during the step (= responses ' +
    '+ timeouts + connection errors)'),
  field('responses', 'integer', 'its complete responses, error statuses included'),
  field('rps', 'number', 'its responses / the step\'s wallSeconds (so the operations\' rps add up to the step\'s)'),
  ...latencyFields('responses').map((entry) => ({ ...entry, csv: undefined })),
  field('storeTime', 'record|null', `this operation's store time (as the step's): ${STORE_TIME_DESCRIPTION}`, {
    of: STORE_TIME_FIELDS, optional: true,
  }),
  field('errors.total', 'integer', 'its failed requests'),
  field('errors.byKind', 'object', ERRORS_BY_KIND),
  field('errors.samples', 'object', 'per error kind, the first such answer as one line (as the step\'s)'),
  ...histogramFields('every latency of this operation in the step'),
  field('timeline', 'list', 'with several operations: this operation\'s seconds (they add up to the step\'s); absent ' +
    'with one operation, whose seconds are the step\'s', { of: TIMELINE_FIELDS, optional: true }),
];

// The worker threads of --workers N, one entry each.
const WORKER_FIELDS = [
  field('requests', 'integer', 'requests this worker started during the step'),
  field('responses', 'integer', 'its complete responses'),
  field('rps', 'number', 'its responses / its own wallSeconds; the step\'s rps is all responses over the workers\' ' +
    'wallSeconds averaged by their clients (or rate), which is their sum when they take the same time'),
  field('cpuPercent', 'number', 'this worker thread\'s CPU during the step, in % of one core (the ' +
    'DRIVER_CPU check applies to each worker)'),
  field('cpuSeconds', 'number|null', 'this worker thread\'s CPU time during the step (user + system; 10 ms ' +
    'resolution from /proc on Linux); null where a thread\'s own CPU cannot be read'),
];

// node test merge keeps each machine's figures of a merged step beside the total.
const MACHINE_ROW_FIELDS = [
  field('hostname', 'string', 'the machine (its results file\'s system.hostname)'),
  field('file', 'string', 'the results file it came from'),
  field('requests', 'integer', 'its requests'),
  field('responses', 'integer', 'its responses'),
  field('rps', 'number', 'its rps; the merged step\'s rps is their sum'),
  field('latency.meanMs', 'number|null', 'its mean latency in ms'),
  field('latency.p50Ms', 'number|null', 'its median in ms'),
  field('latency.p99Ms', 'number|null', 'its p99 in ms'),
  field('errors.total', 'integer', 'its failed requests'),
  field('cpuPercent', 'number', 'its driver\'s CPU in % of one core'),
  field('startedAt', 'string', 'when its step began'),
  field('finishedAt', 'string', 'when its step ended'),
];

const MERGED_FROM_FIELDS = [
  field('file', 'string', 'a results file node test merge read'),
  field('hostname', 'string', 'the machine that wrote it'),
  field('date', 'string', 'when that run started (its system.date)'),
  field('cpuModel', 'string', 'that machine\'s CPU model'),
  field('cpuCount', 'integer', 'its logical CPUs'),
];

// One process of a tier (tiers.app.detail, tiers.servers[].detail), as driver/tier-cpu.js reads it.
const PROCESS_TIER_FIELDS = (roles, extra) => [
  field('pid', 'integer', 'its process id'),
  field('role', 'string', roles),
  field('cpuPercent', 'number', 'its CPU during the step (all its threads), in % of ONE core'),
  ...extra,
];
const BUSIEST_DESCRIPTION = 'in % of ONE core: the part of it that can use one core at most and used the most, which ' +
  'the bottleneck rule holds against a core (docs/measurement.md)';

// The app's CPU (tiers.app), as driver/tier-cpu.js reads it.
const APP_TIER_FIELDS = [
  field('cpuPercent', 'number|null', 'its CPU during the step in % of ONE core, all its processes together (the ' +
    'embedded app.js\'s process tree, or a loopback target\'s listening process\'s, less the store servers in it; ' +
    'a node:cluster primary and the delaying proxy of a global --store-rtt it runs are counted)'),
  field('microsPerResponse', 'number|null', 'its CPU µs per response of the step'),
  field('processes', 'integer|null', 'its processes: those running the app\'s executable, a node:cluster primary ' +
    'among them; through /metrics, what storebench\'s app says it added up (storebench_app_processes), else 1'),
  field('cores', 'number|null', 'the cores they can use: min(processes, the machine\'s cpus); through /metrics ' +
    'the cpus its machine says it has (storebench_app_cpus), else 1'),
  field('busiestPercent', 'number|null', `its busiest process, ${BUSIEST_DESCRIPTION}; null through /metrics, which ` +
    'adds its processes up; absent from files written before it', { optional: true }),
  field('detail', 'list|null', 'each of its processes; null through /metrics; absent from files written before it', {
    optional: true,
    of: PROCESS_TIER_FIELDS('`app` (the one process), `primary` (of node:cluster workers: it hands them their ' +
      'connections, and relays their store traffic through a global --store-rtt\'s proxy), `worker`, or `other` ' +
      '(a process of its tree running another executable)', [
      field('connections', 'integer|null', 'the established connections on the app\'s port it held a quarter ' +
        'of a second into the step; null where not counted (one process, a step shorter than that, a target ' +
        'elsewhere)'),
    ]),
  }),
  field('source', 'string|null', 'where the figures came from: `proc` (read from /proc) or `metrics` (a target\'s ' +
    '/metrics: process_cpu_seconds_total, before and after the step, added up over the processes it serves). ' +
    'Any figure null where not measured (source null)'),
];

// A store server behind a step (tiers.servers), as driver/tier-cpu.js reads it.
const SERVER_TIER_FIELDS = [
  field('name', 'string', 'the server: its service (`redis`, `postgres`, `tarantool`, `memcached`, `couchdb`, ' +
    '`redis-cluster`), or `service@host:port` for one node of several (a Redis Cluster\'s)'),
  field('stores', 'string[]', 'the stores of the run it serves'),
  field('cpuPercent', 'number|null', 'its CPU during the step, in % of ONE core (a server\'s process tree: ' +
    'PostgreSQL\'s postmaster and its backends); null where not measured'),
  field('microsPerResponse', 'number|null', 'its CPU µs per response of the step (its CPU time over the step\'s ' +
    'responses); null where not measured or with no response'),
  field('cores', 'number', 'the cores it can use: 1 for Redis (each node of a cluster), tarantool (its tx thread) ' +
    'and the CouchDB stand-in; up to 4 for memcached (its threads); the machine\'s cpus for PostgreSQL; less where ' +
    'a cgroup CPU quota holds its processes (0.05 for a server held to a twentieth of a core), read as the step ' +
    'ends; for PostgreSQL at most its processes'),
  field('processes', 'integer', 'the processes of its tree (proc only; absent otherwise and from files written ' +
    'before it)', { optional: true }),
  field('busiestPercent', 'number|null', 'its command thread (Redis, tarantool) or its busiest process (PostgreSQL, ' +
    `the CouchDB stand-in), ${BUSIEST_DESCRIPTION}; null for memcached (its threads share its cores); proc only`,
  { optional: true }),
  field('detail', 'list', 'each process of its tree (proc only)', {
    optional: true,
    of: PROCESS_TIER_FIELDS('`server` (a process listening on its port) or `child` (below one: a PostgreSQL ' +
      'backend)', [
      field('mainThreadPercent', 'number|null', 'its main thread\'s own CPU in % of one core ' +
        '(/proc/<pid>/task/<pid>/stat): the command thread of Redis and tarantool; null for other servers'),
    ]),
  }),
  field('source', 'string|null', 'where the figure came from: `proc` (its processes on this machine, found by ' +
    'the port it listens on), `redis-info` (INFO cpu of a configured Redis, before and after the step); null where ' +
    'not measured (a server elsewhere that says nothing of its CPU)'),
];

// What limited a step (result/bottleneck.js); docs/measurement.md gives the rule.
const BOTTLENECK_DESCRIPTION = 'what limited the step, by the rule of docs/measurement.md ("Where the time goes")';

const PROFILE_PROCESS_FIELDS = [
  field('pid', 'integer', 'the process'),
  field('role', 'string', '`app` (one process), `primary` or `worker` (app.js --workers N)'),
  field('samples', 'integer', 'its profile\'s samples of CPU (idle ones left out)'),
  field('microsPerResponse', 'number|null', 'its profiled CPU µs per response of the profiled run'),
];

const PROFILE_FIELDS = [
  field('responses', 'integer', 'responses in the profiled run (the step run again, right after it, with the app ' +
    'profiled: the step\'s own figures are never the profiled ones)'),
  field('rps', 'number', 'the profiled run\'s rps'),
  field('intervalUs', 'integer', 'the profiler\'s sampling interval, µs'),
  field('microsPerResponse', 'number|null', 'the app\'s CPU µs per response in the profiled run: the sum of its ' +
    'parts, which is the /proc figure (procMicrosPerResponse) where /proc was read'),
  field('parts', 'object', 'CPU µs per response by part: `framework` (Express, fastify and what only they use), ' +
    '`client` (the store\'s client library and what it pulls in), `node` (Node\'s own HTTP, net, streams, ' +
    'timers), `json` (JSON.parse and stringify), `gc`, `storebench` (app/, routes/, stores/ and its --metrics ' +
    'library), `other`; each main-thread sample goes to the part of its frame nearest the leaf that has one ' +
    '(result/profile-parts.js PART_RULES), and `threads` is the CPU off the main threads (parallel GC, V8\'s ' +
    'compilers, libuv\'s pool: null where /proc was not read)'),
  field('scaledTo', 'string', '`proc`: the samples\' shares of the main threads\' CPU as /proc read it (the app ' +
    'runs on this machine); `samples`: the samples\' own times (a remote app)'),
  field('sampledMicrosPerResponse', 'number|null', 'the main threads\' time per response as the samples alone ' +
    'tell it (each sample\'s gap, at most twice the usual one: a longer gap is a thread waiting for a core)'),
  field('mainThreadMicrosPerResponse', 'number|null', 'the app\'s main threads\' CPU per response from /proc ' +
    'over the profiled run; null for a remote app'),
  field('processes', 'list', 'each app process profiled', { of: PROFILE_PROCESS_FIELDS }),
  field('procMicrosPerResponse', 'number|null', 'the app\'s CPU µs per response in the same run as /proc read it ' +
    '(every thread of its processes, the profiler\'s own work included); null where not read'),
  field('rpsCost', 'number|null', 'the profiler\'s cost: the profiled run\'s rps against the step\'s, as a ' +
    'fraction (-0.08: 8% slower)'),
  field('files', 'string[]', 'the .cpuprofile of each process, relative to the results file (profiles/...); ' +
    'Chrome DevTools and speedscope open them, and a .pb.gz beside each is the same profile for pprof'),
  field('flame', 'object', 'the profiles as one flame graph\'s tree ({ name, value: µs with callees, part, ' +
    'children }), frames under 0.5% of the whole left out: what the HTML page draws'),
];

export const STEP_FIELDS = [
  field('url', 'string', 'the URL measured, any password shown as `***`; in direct mode (--direct) ' +
    '`direct://<store>/<key>` (or `direct://<store>` for a key-space workload)', { csv: 'url' }),
  field('store', 'string', 'store name (from /stores, or the second-last path segment of a --url)', { csv: 'store' }),
  field('key', 'string', 'key (the last path segment); for a key-space workload, where each request picks ' +
    'its own key, the workload\'s name', { csv: 'key' }),
  field('framework', 'string', 'what served the app (--framework): `express`, `fastify` or `node`; absent where ' +
    'no app said (--url, --direct)', { optional: true, csv: 'framework', csvValue: (step) => step.framework ?? '' }),
  field('workload', 'string|null', 'the key-space workload the step ran (`ycsb-a`, `mixed:95/5`...); ' +
    'null for the reads of a seeded key', { csv: 'workload' }),
  field('mode', 'string', '`http` (requests to the app) or `direct` (calls of the store ' +
    'adapter in the driver, --direct)', { csv: 'mode' }),
  field('model', 'string', '`closed` (a concurrency step) or `open` (an --rps step)', { csv: 'model' }),
  field('startedAt', 'string', 'when the step\'s load began (ISO ' +
    '8601); its warm-up is not part of it', { csv: 'startedAt' }),
  field('finishedAt', 'string', 'when the step\'s last request ended (ISO 8601): every request started during the ' +
    'step is waited for (up to its deadline) and counted', { csv: 'finishedAt' }),
  field('maxRequests', 'integer|null', 'requests asked for by -n; null for timed steps. CSV: the requests ' +
    'sent when null, as the table shows', {
    csv: 'maxRequests',
    csvValue: (step) => step.maxRequests ?? step.requests,
  }),
  field('durationSeconds', 'number|null', 'the step\'s length ' +
    'asked for by -t; null for -n steps', { csv: 'durationSeconds' }),
  field('concurrency', 'integer|null', 'closed loop: the clients, each sending its next request when its last one ' +
    'ends; null in the open model. CSV: peakInFlight for open-model steps, as the table shows', {
    csv: 'concurrency',
    csvValue: (step) => (step.model === 'open' ? step.peakInFlight : step.concurrency),
  }),
  field('targetRps', 'number|null', 'open model: the rate asked for; null in a closed loop', { csv: 'targetRps' }),
  field('peakInFlight', 'integer', 'the most requests in flight at once, as measured', { csv: 'peakInFlight' }),
  field('requests', 'integer', 'requests started during the step: its sample, each one counted however long it took ' +
    '(= responses + timeouts + connection errors)', { csv: 'requests' }),
  field('responses', 'integer', 'complete responses, error statuses included', { csv: 'responses' }),
  field('wallSeconds', 'number', 'the time the step\'s requests took, rps\'s denominator. Closed loop: the clients\' ' +
    'mean busy time, from the first start to each client\'s last completion; open model: requests / targetRps, ' +
    'stretched by how much latency grew over the step (docs/measurement.md)', { csv: 'wallSeconds' }),
  field('elapsedSeconds', 'number', 'from the first request\'s start (or intended start) to the last one\'s end: the ' +
    'denominator of loadtest\'s and ab\'s rps (requests / elapsed), which scenarios use where a study did; 0 when ' +
    'nothing was sent. Longer than wallSeconds when clients finish at ' +
    'different times (a -n step\'s tail)', { csv: 'elapsedSeconds' }),
  field('rps', 'number', 'responses / wallSeconds', { csv: 'rps' }),
  ...latencyFields('responses'),
  field('storeTime', 'record|null', `${STORE_TIME_DESCRIPTION}. CSV: the columns below`, {
    of: STORE_TIME_FIELDS, optional: true,
  }),
  field('errors.total', 'integer', 'failed requests: error statuses, ' +
    'timeouts and connection errors', { csv: 'errors' }),
  field('errors.byKind', 'object', `${ERRORS_BY_KIND}. CSV: \`kind=n\` joined by \`;\``, {
    csv: 'errorKinds',
    csvValue: (step) => Object.entries(step.errors.byKind).map(([kind, n]) => `${kind}=${n}`).join(';'),
  }),
  field('errors.samples', 'object', 'per error kind, the first such answer as one line of text (the app\'s JSON ' +
    'error as `CODE: message`, a connection error\'s message), any secret masked; `{}` with no error ' +
    'or where the engine saw no text'),
  field('intervals.seconds', 'number', 'the length of each interval below: 0.25'),
  field('intervals.responses', 'number[]', 'responses counted in each whole interval from the step\'s first start to ' +
    'its last (the tail of clients finishing is left out): their spread is the step\'s ' +
    'noise estimate (result/ranking.js)'),
  field('timeline', 'list', `${TIMELINE_DESCRIPTION}: one entry per second from the first request's start to the ` +
    'last response; absent from files written before it', { of: TIMELINE_FIELDS, optional: true }),
  field('warmup', 'object|null', 'the steady-state warm-up just before this step, not part of it: `seconds` it ran, ' +
    '`windows` of 0.25 s, `steady` (false: it reached the cap while still getting faster, or had no response, and ' +
    'the step carries NOT_STEADY); null when no warm-up ran (--warmup 0, or --warmup-max 0) and in a merged step ' +
    '(each machine\'s warm-up is in its own file)'),
  field('cpuPercent', 'number', 'the driver\'s CPU (user + system) during the step, in % of one core: the thread ' +
    'that sent the load (a step under 0.5 s: the whole process, as thread clocks tick in 10 ms on Linux); with ' +
    '--workers the sum over its threads (may pass 100); for a merged step, the machines\' sum', { csv: 'cpuPercent' }),
  field('cpuSeconds', 'number', 'the driver\'s CPU seconds over the step, as cpuPercent measured them (with ' +
    '--workers the whole driver process\'s); absent from files written before it', { optional: true }),
  field('engineReported', 'object|null', 'the load engine\'s own figures for the step, only to show how far off they ' +
    'are; loadtest\'s: `meanLatencyMs`, `rps` (null when it computed none), `totalRequests`'),
  field('profile', 'record', '--profile: where the app\'s CPU went in a run of this step made just for the ' +
    'profiler (the first repeat of each step); absent without --profile', { optional: true, of: PROFILE_FIELDS }),
  field('warnings', 'list', 'why these numbers deserve less trust, if they do. CSV: the messages joined by ` | `', {
    of: WARNING_FIELDS,
    csv: 'warnings',
    csvValue: (step) => step.warnings.map((warning) => warning.message).join(' | '),
  }),
  ...histogramFields('every latency of the step'),
  field('operations', 'list', 'the step\'s figures per operation, in the workload\'s order (one entry, `read`, for ' +
    'the seeded reads): requests, responses, errors and ' +
    'histograms add up exactly to the step\'s', { of: OPERATION_FIELDS }),
  // Repeats and the machine's load
  field('repeat', 'integer', 'which repeat of its URL and load this step is, from 1 (--repeat N runs each step N ' +
    'times, interleaved across the URLs)', { csv: 'repeat' }),
  field('machine.stealPercent', 'number|null', 'CPU steal during the step: time the hypervisor gave to other ' +
    'machines, in % of all CPU time (as vmstat\'s `st`), from /proc/stat; null where not measured (no /proc, or a ' +
    'step shorter than 20 clock ticks of wall time, 0.2 s, which /proc\'s ticks cannot time)', { csv: 'stealPercent' }),
  field('machine.stealOfBusyPercent', 'number|null', 'the same steal in % of the CPU time that was wanted (busy, ' +
    'interrupts and steal): what a running process lost (an idle CPU is stolen nothing, so over all CPU time steal ' +
    'of one busy core of 16 reads a sixteenth). CPU_STEAL warns on it, and the bottleneck takes it off the cores ' +
    'of every tier on this machine; null where not measured; absent from files written before it', { optional: true }),
  field('machine.othersCpuPercent', 'number|null', 'CPU used during the step by processes outside this run (the ' +
    'driver, the app it started and a target app on this machine\'s loopback, with their children), in % of ' +
    'one core; null where not measured', { csv: 'othersCpuPercent' }),
  field('machine.treeCpuPercent', 'number|null', 'CPU used during the step by this run\'s processes (see ' +
    'othersCpuPercent), in % of one core; null where not measured', { csv: 'treeCpuPercent' }),
  field('machine.irqCpuPercent', 'number|null', 'the kernel\'s interrupt work during the step (irq and softirq of ' +
    '/proc/stat: the network stack\'s, this run\'s loopback traffic among it), in % of one core: in neither ' +
    'treeCpuPercent nor othersCpuPercent, as no process\'s ticks hold it; null where not measured; absent from ' +
    'files written before it', { optional: true }),
  field('machine.cpuWaitPercent', 'number|null', 'the most any thread of this run (the driver\'s, the app\'s, ' +
    'a server\'s it measures) waited for a CPU during the step, runnable but not running (its run-queue wait in ' +
    '/proc/<pid>/task/<tid>/schedstat), in % of the step\'s wall time: what a neighbour that wakes in bursts takes ' +
    'while /proc/stat still shows idle time. 10% or more makes the bottleneck `machine` where no tier saturated; ' +
    'null where not measured (no /proc, or a kernel without scheduler statistics); absent from files written ' +
    'before it', { optional: true }),
  // --probe
  field('probe', 'object|null', 'with --probe, what a separate prober sending one request at a time measured: `idle` ' +
    '(before the target\'s first step, for 1 s or 200 requests, after `idle.warmup` untimed ones: at most 50 or ' +
    '0.25 s, since a new connection\'s first requests are slower) and `underLoad` (throughout this step), each `{ ' +
    'count, errors, meanMs, p50Ms, p99Ms, noiseMs }` (noiseMs: how far the mean could be off, two standard ' +
    'errors by batch means: 2 x the spread of the means of its answers in batches of 20, over the root of their ' +
    'number; null under 2 batches; absent from files written before it), `underLoad` also `timeline`: per ' +
    'second of the probe\'s sampling (which starts a few ms before the step\'s first request) ' +
    '`{ second, count, errors, p50Ms, p90Ms, p99Ms, maxMs }` ' +
    '(`errors`: requests that failed, timed out or answered other than 2xx, in direct mode a get that found no ' +
    'value: never latencies; latencies in ms, null when nothing answered; the whole of it null when the probe ' +
    'could not reach the target, `error` saying why, else null), and `thread`: `worker` (its own thread and ' +
    'connection) or `main` (the driver\'s thread: the memory store in direct mode). Its requests are not in the ' +
    'step\'s counts. null without --probe'),
  field('machine.loadAverage', 'number|null', 'the one-minute load average (/proc/loadavg) when the step ' +
    'ended; null where not measured', { csv: 'loadAverage' }),
  // Several workers, several machines
  field('workers', 'list|null', 'with --workers N (N > 1): each worker thread\'s share of the step, in order; null ' +
    'with one worker. Fewer entries than N when the load could not be shared ' +
    'by N (concurrency or -n below N)', { of: WORKER_FIELDS }),
  field('runLoad', 'number', 'only in a part of a split run (--part I/N): the run\'s concurrency or rate this step ' +
    'is a share of (its own is in concurrency or targetRps); node test merge ' +
    'matches the parts\' steps by it', { optional: true }),
  field('machines', 'list|null', 'a step of node test merge: each machine\'s figures, the step\'s own being their ' +
    'total; null for a step one driver measured', { of: MACHINE_ROW_FIELDS }),
  // Where the time goes: each tier's CPU, and the bottleneck. Absent from files written before
  // them and from a merged step (each machine's are in its own file).
  field('tiers.driver.cpuPercent', 'number', 'the driver\'s CPU during the step in % of one core (as cpuPercent)',
    { optional: true }),
  field('tiers.driver.microsPerResponse', 'number|null', 'the driver\'s CPU µs per response: its CPU seconds ' +
    '(cpuSeconds) over its responses; null with no response', { optional: true }),
  field('tiers.driver.threads', 'integer', 'the driver threads that sent the load (--workers; 1 by default)',
    { optional: true }),
  field('tiers.app', 'record|null', 'the app\'s CPU during the step; null in direct mode: no app',
    { optional: true, of: APP_TIER_FIELDS }),
  field('tiers.servers', 'list', 'the store servers behind this step\'s store, each with its CPU; empty for a store ' +
    'with no server (memory)', { of: SERVER_TIER_FIELDS, optional: true }),
  field('bottleneck.tier', 'string|null', `${BOTTLENECK_DESCRIPTION}: \`driver\` (a driver thread at 90% of a ` +
    'core or more), `app` (its busiest process at 90% of a core or more, or its processes at 90% or more of the ' +
    'cores they can use), `server` (a store server\'s command thread or busiest process at 90% of a core, or the ' +
    'server at 90% or more of its cores), each less the steal of stealOfBusyPercent, `machine` (CPU_STEAL or ' +
    'BUSY_MACHINE, every core busy, or a thread of this run waiting for a CPU 10% of the step: cpuWaitPercent), ' +
    '`latency` (nothing ' +
    'saturated: the closed loop waited on the store or the network); null when it cannot be told (a tier that could ' +
    'be the limit was not measured)', { optional: true }),
  field('bottleneck.server', 'string|null', 'the server\'s name (tiers.servers) when tier is `server`; null otherwise',
    { optional: true }),
  field('bottleneck.evidence', 'string', 'one line with the figures that decided it', { optional: true }),
];

// The step fields with a CSV column, in column order: a record's own fields (storeTime's) at its place.
export const STEP_CSV_FIELDS = STEP_FIELDS
  .flatMap((field) => (field.type.startsWith('record')
    ? field.of.map((inner) => ({ ...inner, path: `${field.path}.${inner.path}` }))
    : [field]))
  .filter((field) => field.csv);

const COMPARISON_ROW_FIELDS = [
  field('store', 'string', 'the store'),
  field('framework', 'string', 'what served the app (--framework); a row per store and framework where several ' +
    'did, each against `memory` on its own framework. Absent where no app said', { optional: true }),
  field('repeats', 'integer', 'how many steps (repeats) the row stands for'),
  field('rps', 'number', 'its rps at this load; with repeats, their median'),
  field('latency.meanMs', 'number|null', 'its mean latency in ms (the median over repeats)'),
  field('latency.p99Ms', 'number|null', 'its p99 in ms (the median over repeats)'),
  field('storeTime', 'record|null', 'its store time (the steps\' storeTime), each figure the median over the repeats ' +
    'that have one; null when none has; absent from files written before it', {
    optional: true,
    of: [
      field('p50Ms', 'number', 'its store time\'s median in ms'),
      field('p99Ms', 'number', 'its p99 in ms'),
      field('meanMs', 'number', 'its mean in ms'),
      field('p50MinMs', 'number', 'the lowest of its repeats\' p50s (with one repeat, p50Ms); absent from files ' +
        'written before it', { optional: true }),
      field('p50MaxMs', 'number', 'the highest of them', { optional: true }),
      field('noise', 'number|null', 'with one repeat: the relative standard error of its p50, from its seconds\' ' +
        'p50s (timeline); null with repeats (their range decides) or under 3 seconds', { optional: true }),
    ],
  }),
  field('errors.total', 'integer', 'its failed requests, over all repeats'),
  field('errors.byKind', 'object', `${ERRORS_BY_KIND}, over all repeats`),
  field('errors.samples', 'object', 'per error kind, its first answer as one line (the step field ' +
    'of that name, over the repeats)'),
  field('failed', 'boolean', 'true when none of its steps had a successful (2xx) response: its figures are not a ' +
    'store\'s speed, it has no rank and no ratio, and the text shows `failed` and the answers instead'),
  field('noise', 'number|null', 'with one repeat: the relative standard error of its rps, from the step\'s intervals ' +
    '(0.02 = 2%); null with repeats (their ranges decide) or under 3 intervals'),
  field('rank', 'integer|null', 'its place at this key and load, in groups: sorted by rps, a new rank begins at the ' +
    'first store told apart from the fastest of the rank before, so stores that cannot be told apart share a rank ' +
    '(1, 1, 3) and ranks never go down then up in rps order; null for a failed row. The noise: the repeats\' ' +
    'ranges with --repeat, else the larger of 5%, the control\'s drift and twice the two steps\' combined ' +
    'standard error (docs/measurement.md)'),
  field('ratio', 'number|null', 'its rps / the fastest store\'s rps at this load; null for a failed row and ' +
    'when no store completed a request'),
  field('spread.rps.min', 'number|null', 'the lowest rps of the repeats'),
  field('spread.rps.max', 'number|null', 'the highest'),
  field('spread.rps.mean', 'number|null', 'the mean of the repeats'),
  field('spread.rps.ciLow', 'number|null', 'the 95% interval of that mean, low end (Student\'s t over the ' +
    'repeats); null under 5 repeats'),
  field('spread.rps.ciHigh', 'number|null', 'its high end; null under 5 repeats'),
  field('spread.latency.meanMs.min', 'number|null', 'the lowest mean latency of the repeats'),
  field('spread.latency.meanMs.max', 'number|null', 'the highest'),
  field('spread.latency.meanMs.mean', 'number|null', 'the mean of the repeats'),
  field('spread.latency.meanMs.ciLow', 'number|null', 'the 95% interval of that mean, low end (Student\'s t over the ' +
    'repeats); null under 5 repeats'),
  field('spread.latency.meanMs.ciHigh', 'number|null', 'its high end; null under 5 repeats'),
  field('spread.latency.p99Ms.min', 'number|null', 'the lowest p99 of the repeats'),
  field('spread.latency.p99Ms.max', 'number|null', 'the highest'),
  field('spread.latency.p99Ms.mean', 'number|null', 'the mean of the repeats'),
  field('spread.latency.p99Ms.ciLow', 'number|null', 'the 95% interval of that mean, low end (Student\'s t over the ' +
    'repeats); null under 5 repeats'),
  field('spread.latency.p99Ms.ciHigh', 'number|null', 'its high end; null under 5 repeats'),
  field('overlaps', 'string[]', 'the other stores (`redis on fastify` where several frameworks served the run) at ' +
    'this key and load whose rps range over the repeats (min to max) ' +
    'overlaps this one\'s: not distinguishable here. Empty with one repeat'),
  field('warnings', 'string[]', 'the codes of its steps\' warnings, each once (empty when none), and ' +
    '`FASTER_THAN_BASELINE` when it measured faster than `memory` by more than 10% and beyond the noise; the ' +
    'table marks such a row with `!`'),
  field('bottleneck', 'object|null', 'what limited it: its step\'s bottleneck `{ tier, server, evidence }`; with ' +
    '--repeat the repeats\' most common (tier and server), its evidence saying in how many; null when its steps ' +
    'have none (a merged run, a file written before them)', { optional: true }),
  field('storeRank', 'integer|null', 'its place by store time inside the app (storeTime.p50Ms, lower first), in ' +
    'groups as `rank`: a new rank where a store\'s p50 is more than 0.02 ms above the fastest of the rank before ' +
    'and, as for rps, past the noise: the repeats\' p50 ranges with --repeat, else the larger of 10%, the ' +
    'control\'s drift and twice the two p50s\' combined standard error (docs/measurement.md). A row whose store ' +
    'answered under 99% of its requests (storeAnswered) ranks after every row that answered them, all such rows ' +
    'sharing that rank: its store time is its answers\' only. null for a failed row or one without store time',
  { optional: true }),
  field('storeAnswered', 'number|null', 'the share of its requests the store answered (a 2xx, or a 409 write ' +
    'conflict) of those that ended (responses, timeouts, connection errors), over all repeats: the requests its ' +
    'store time stands for; null without store time; absent from files written before it', { optional: true }),
];

export const COMPARISON_FIELDS = [
  field('key', 'string', 'the key compared (for a key-space workload, its name)'),
  field('model', 'string', '`closed` or `open`'),
  field('load', 'number', 'the concurrency (closed) or targetRps (open) compared at'),
  field('operation', 'string|null', 'null: the steps\' totals; an operation (`read`, `update`...): that operation\'s ' +
    'figures alone, for a workload that mixes several'),
  field('rows', 'list', 'one row per store, fastest first, failed rows last', { of: COMPARISON_ROW_FIELDS }),
  field('bottleneck', 'string|null', 'the bottleneck tier every ranked row shares (`app`, `driver`, `server`, ' +
    '`machine`, `latency`), or null when they differ: when it is `app` or `driver`, the rps ranks that tier\'s cost ' +
    'per request, not the stores', { optional: true }),
];

const ORDER_FIELDS = [
  field('load', 'number', 'the concurrency (closed) or targetRps (open) of this round'),
  field('repeat', 'integer', 'which repeat, from 1'),
  field('urls', 'string[]', 'the URLs in the order their steps ran, any password shown as `***`'),
];

const TARGET_FIELDS = [
  field('url', 'string', 'the URL swept, any password shown as `***`'),
  field('store', 'string', 'its store'),
  field('key', 'string', 'its key'),
  field('framework', 'string', 'what serves the app at this URL, as the app says (`express`, `fastify`, `node`); ' +
    'absent where no app said (--url, --direct, an app older than --framework)', { optional: true }),
  field('named', 'boolean', 'whether the user chose it (every --url; a store named in --stores): a step of it in ' +
    'which no request succeeded makes the run exit 1'),
  field('servers', 'object', 'direct mode only: the servers its store reached, by service, as `"source: address"` ' +
    '(`REDIS_URL: redis://10.0.0.5:6379`, `embedded: redis://127.0.0.1:40411`; passwords as `***`), `{}` for a store ' +
    'inside the driver\'s process (memory). `node test merge` adds direct runs only ' +
    'when they name one shared server', { optional: true }),
];

const SKIPPED_FIELDS = [
  field('store', 'string', 'a store the listing showed but the sweep left out (`(entry N)` for an entry with no name)'),
  field('status', 'string', 'its status in /stores: `unavailable` or `down` (or whatever else the listing said); ' +
    '`refused` for an entry the driver cannot use (a name or key outside the alphabets, anything malformed), ' +
    '`no keys` for an up store listing no key to read, `no append` for a store a workload that appends skips'),
  field('reason', 'string|null', 'why, as /stores said (null when it gave no reason), or why the driver left it out'),
];

export const LOAD_FIELDS = [
  field('url', 'string', 'the store\'s base URL the records were posted to (POST <url>), any password shown as ' +
    '`***`; in direct mode `direct://<store>`, written through the store\'s bulk path'),
  field('store', 'string', 'the store'),
  field('records', 'integer', 'records to load (--records): user0000000000 up'),
  field('loaded', 'integer', 'records the app confirmed written (its `{"written": N}` matched the batch)'),
  field('bytes', 'integer', 'bytes of the request bodies sent (keys, values and their lengths)'),
  field('batches', 'integer', 'requests sent, each a batch of records'),
  field('startedAt', 'string', 'when the load began (ISO 8601)'),
  field('finishedAt', 'string', 'when its last batch ended (ISO 8601)'),
  field('seconds', 'number', 'how long it took'),
  field('rps', 'number', 'records loaded per second: loaded / seconds'),
  ...latencyFields('batches answered').map((entry) => ({
    ...entry,
    csv: undefined,
    description: entry.description.replace('latency', 'batch latency'),
  })),
  field('errors.total', 'integer', 'batches that failed'),
  field('errors.byKind', 'object',
    `${ERRORS_BY_KIND}, and \`short write\` (the app wrote fewer records than the batch held)`),
  field('errors.samples', 'object', 'per error kind, its first answer as one line (as a step\'s); absent in ' +
    'results written before it was kept', { optional: true }),
  field('warnings', 'list', 'why the load deserves attention (LOAD_ERRORS), if it does', { of: WARNING_FIELDS }),
  ...histogramFields('every batch\'s latency'),
];

const EXAMPLE_FIELDS = [
  field('key', 'string', 'the key read back'),
  field('expected', 'string', 'what it should hold, in words: its version (or its loaded value, or appends) and size'),
  field('got', 'string', 'what it held instead: `missing (404)`, `http <status>`, the value of the write ' +
    'before, or bytes that are not it'),
];

export const VERIFICATION_FIELDS = [
  field('url', 'string', 'the store\'s base URL read back from, any password shown as `***`; in direct mode ' +
    '`direct://<store>`, read with the store\'s get'),
  field('store', 'string', 'the store'),
  field('sampled', 'integer', 'keys read back: the written keys followed (the first 1,000 distinct keys the run ' +
    'wrote), topped up with loaded keys it never wrote'),
  field('verified', 'integer', 'keys that held exactly the value last acknowledged'),
  field('mismatched', 'integer', 'keys that did not (sampled = verified + mismatched)'),
  field('examples', 'list', 'the first 10 mismatched keys, in key order', { of: EXAMPLE_FIELDS }),
  field('leftOut.overlap', 'integer', 'written keys not checked because writes to them were in flight at once (their ' +
    'order at the store is unknown)'),
  field('leftOut.failed', 'integer', 'written keys not checked because a write to them failed without saying whether ' +
    'it landed (a timeout, a 5xx), with no clean write after it'),
  field('leftOut.unknownBase', 'integer', 'keys appended to without a known value before (not loaded by this run)'),
  field('promise', 'string|null', 'why this store may lose a value it acknowledged (memcached may evict), so a ' +
    'mismatch is a warning, not a failure; null for the others'),
  field('warnings', 'list', 'VERIFY_MISMATCH (the run exits 1), WEAKER_PROMISE, UNVERIFIED', { of: WARNING_FIELDS }),
];

export const RESULT_FIELDS = [
  field('format', 'string', `the format and its version: \`${RESULTS_FORMAT}\``),
  field('interrupted', 'boolean', 'true when the sweep stopped early (Ctrl-C, or the embedded app died): the step in ' +
    'progress was dropped, the finished ones are here'),
  field('appExit', 'string|null', 'how the embedded app.js ended when it died mid-sweep (`SIGKILL`, `code 1`); null ' +
    'otherwise. A run with it exits 1'),
  field('settings.concurrency', 'number[]|null', 'the concurrency steps (-c); null with --rps'),
  field('settings.rps', 'number[]|null', 'the open model\'s rates (--rps); null for a concurrency sweep'),
  field('settings.requests', 'integer|null', 'requests per step (-n); null for timed steps'),
  field('settings.duration', 'number|null', 'seconds per step (-t); null with -n'),
  field('settings.warmup', 'integer', 'requests sent to each URL once before the first measured step, warming the ' +
    'app and its stores, not counted (--warmup); 0: no warm-up of any kind'),
  field('settings.warmupMaxSeconds', 'number', 'the cap of the steady-state warm-up before each step (--warmup-max; ' +
    '0: none): windows of the step\'s load until one is no faster than the last (docs/measurement.md)'),
  field('settings.order', 'string', '`interleaved` (the default: at each load level one step of every URL, shuffled ' +
    'with orderSeed, then the next level) or `sequential` (--order sequential: every ' +
    'level of a URL, then the next URL)'),
  field('settings.control', 'boolean', 'whether the first step was to be measured again after the last (the control; ' +
    'false with --no-control, and unused with --repeat)'),
  field('settings.orderSeed', 'integer', 'the seed of the interleaved order\'s shuffles (--seed, or one the run ' +
    'picked): the same seed and URLs give the same order'),
  field('settings.keepAlive', 'boolean', 'whether connections were reused (false with --no-keepalive)'),
  field('settings.timeoutMs', 'integer', 'the deadline for each request (--timeout)'),
  field('settings.stores', 'string[]|null', 'the stores asked for by --stores; null when not given. A store named ' +
    'here that could not be swept makes the run exit 1'),
  field('settings.keys', 'string[]|null', 'the keys asked for by --keys; null when not given'),
  field('settings.repeat', 'integer', 'how many times each step ran (--repeat; 1 by ' +
    'default), interleaved across the URLs'),
  field('settings.assert', 'string[]', 'the thresholds given with --assert, as written (empty when none); ' +
    'node test report checks them again'),
  field('settings.workload', 'string', 'the workload (--workload): `read` (the default), `write`, `update`, ' +
    '`insert`, `append`, `mixed:R/W`, `ycsb-a`... (docs/workloads.md)'),
  field('settings.mix', 'object', 'its operations and their shares, adding up to 1: `{"read": 0.5, "update": 0.5}`'),
  field('settings.records', 'integer|null', 'the key space (--records); null for the seeded keys key1..key3'),
  field('settings.valueSizeMin', 'integer|null', 'the smallest value written, in bytes ' +
    '(--value-size); null for the seeded keys'),
  field('settings.valueSizeMax', 'integer|null', 'the largest (equal to valueSizeMin for a fixed size)'),
  field('settings.distribution', 'string|null', 'how requests picked their records (--distribution): `uniform`, ' +
    '`zipfian`, `latest`, `hotspot:H/O`, `sequential`; null for the seeded keys and for insert'),
  field('settings.seed', 'integer|null', 'the seed of the keys, operations and values (--seed, or the one the run ' +
    'picked): `--seed` with it repeats them; null for the seeded keys'),
  field('settings.load', 'boolean', 'whether each store\'s records were loaded before its steps (false with ' +
    '--no-load, for `write`, and for the seeded keys)'),
  field('settings.verify', 'boolean', 'whether written values were read back after each store\'s steps (false with ' +
    '--no-verify, for the seeded keys, and with --workers over 1 for a workload that writes)'),
  field('settings.valueShape', 'string', 'how each value of a key-space workload was stored (--value-shape, direct ' +
    'mode): `bytes` (as it is) or `hash` (10 fields f0..f9 splitting its bytes: the store\'s own hash type where it ' +
    'has one, Redis HSET; else the JSON of the fields, each in base64). `bytes` for the seeded keys and over HTTP; ' +
    'absent from files written before it', { optional: true }),
  field('settings.workers', 'integer', 'worker threads each step ran in (--workers; 1 by default)'),
  field('settings.appWorkers', 'integer|null', 'the processes of the app.js the run started (--app-workers, ' +
    'app.js --workers: 1 by default), each serving the port with its own store clients; null where the run ' +
    'started no app (--target, --url, --direct). Absent from files written before it', { optional: true }),
  field('settings.framework', 'string[]|null', 'what served the app.js the run started (--framework): `express` ' +
    '(the default), `fastify` or `node` (bare node:http), several swept side by side; null where the run started ' +
    'no app (--target, --url, --direct: each step\'s `framework` says what served it where the app said). Absent ' +
    'from files written before it', { optional: true }),
  field('settings.profile', 'boolean', '--profile: each step was run again with a CPU profile of every app ' +
    'process (its `profile`). Absent when off', { optional: true }),
  field('settings.engine', 'string', 'what sent the load (--engine): `fast` (HTTP/1.1 written to sockets by ' +
    'storebench itself; the default) or `loadtest`, or `direct` with --direct (the stores\' clients called in the ' +
    'driver\'s process). The figures mean the same whichever it was; absent from files written before it (those ' +
    'were sent by loadtest, then the default, or direct)', { optional: true }),
  field('settings.engineChoice', 'string', 'why settings.engine sent the load: `default` (no --engine: fast over ' +
    'HTTP, direct with --direct) or `option` (--engine, or run()\'s `engine`, named it). Absent from files written ' +
    'before it', { optional: true }),
  field('settings.pipeline', 'integer', 'calls each caller of the closed loop sent at once, the next batch when all ' +
    'had settled (--pipeline, direct mode; redis-benchmark -P); each call timed and counted on its own, so a step ' +
    'keeps concurrency x pipeline calls in flight. 1 without it; absent from files written before it',
  { optional: true }),
  field('settings.probeSize', 'integer', 'only with --probe-size: the bytes of the value the probe writes or reads ' +
    'under its own key (100 without it)', { optional: true }),
  field('settings.storeDelay', 'object', 'the network emulated between the stores and their servers (--store-rtt, ' +
    '--store-jitter, --store-bandwidth, or their STOREBENCH_STORE_* variables): `{ rttMs, jitterMs, bandwidth }` ' +
    '(bandwidth in bytes a second each way, 0 for unlimited), every store\'s; with STORE=value items also ' +
    '`stores`: `{ name: { rttMs, jitterMs, bandwidth } }`, each named store\'s own. Only in a run that set up its ' +
    'stores (the app it started, or --direct) with a delay', { optional: true }),
  field('settings.part', 'object', 'only in a part of a split run (--part I/N): `{ index, count }`, part I of N. Its ' +
    'concurrency, rate and -n shares are in its steps; the settings above stay ' +
    'the whole run\'s (docs/merge.md)', { optional: true }),
  field('settings.startAt', 'string', 'only with --start-at: the instant (ISO 8601) the run waited for after ' +
    'preparing and before its first step', { optional: true }),
  field('system.node', 'string', 'Node.js version of the driver'),
  field('system.platform', 'string', 'OS, kernel release and architecture'),
  field('system.cpuModel', 'string', 'the driver machine\'s CPU model'),
  field('system.cpuCount', 'integer', 'its logical CPUs'),
  field('system.loadtest', 'string', 'the version of loadtest, only when it sent the load (settings.engine ' +
    '`loadtest`); absent when another engine did (`fast`, `direct`). Files written before settings.engine have it ' +
    'whatever sent the load', { optional: true }),
  field('system.target', 'string', 'what was swept: the --target, the --url list, the embedded app.js and its ' +
    'address, or (--direct) the stores called in the driver\'s process'),
  field('system.date', 'string', 'when the run started (ISO 8601)'),
  field('system.hostname', 'string', 'the driver machine\'s host name (node test merge shows ' +
    'each machine\'s rows under it)'),
  field('targets', 'list', 'every URL the sweep was to measure, in order (an ' +
    'interrupted run has steps for only some)', { of: TARGET_FIELDS }),
  field('skipped', 'list', 'stores left out, with the reason', { of: SKIPPED_FIELDS }),
  field('loads', 'list', 'the load phase of each store, in the order run (empty unless a ' +
    'key-space workload loaded its records)', { of: LOAD_FIELDS }),
  field('order', 'list', 'the order the steps ran in, per load level and repeat: `load` (concurrency or rate), ' +
    '`repeat`, `urls` (in the order run)', { of: ORDER_FIELDS }),
  field('steps', 'list', 'one per measured step, in the order run', { of: STEP_FIELDS }),
  field('control', 'object|null', 'the first step measured again after the last one, so a drift of the machine ' +
    'shows: `url`, `store`, `key`, `load`, `rpsBefore`, `rpsAfter`, `drift` ((after - before) / before, null when ' +
    'either step had no successful request), `tolerance` ' +
    '(the |drift| from which the run warns DRIFT), `warnings` (DRIFT, as a step\'s warnings) and `step` (the whole ' +
    'step, as in steps); null with --repeat (the repeats are the control), an interrupted run, or none to measure'),
  field('appWarmup', 'object|null', 'the warm-up of the app as a whole before anything else (a fresh app.js needs ' +
    'about 2 s of load before its request path runs at speed; in direct mode, the stores\' clients): `url` (the ' +
    'first target, whose load it was), `concurrency` (the run\'s highest), `seconds` it ran, `windows` of 0.5 s, ' +
    '`steady` (false: it reached --warmup-max while still getting faster) and `speeds` (each window\'s rps); ' +
    'nothing of it is in any figure. null when none ran (--warmup 0 or --warmup-max 0, or a run stopped before ' +
    'it ended); absent from files written before it and from merged Results', { optional: true }),
  field('verifications', 'list', 'per store, the written values read back after its steps (empty ' +
    'unless a key-space workload wrote)', { of: VERIFICATION_FIELDS }),
  field('comparison', 'list', 'per key and load level, the stores side by ' +
    'side (computed from the steps)', { of: COMPARISON_FIELDS }),
  field('merged', 'list|null', 'node test merge: the results files (and machines) this Result adds up, in the order ' +
    'given; null for a run of one driver', { of: MERGED_FROM_FIELDS }),
  // Peak memory: added within version 5, so absent from files written before it (and from merged Results).
  field('peakRss.driverBytes', 'integer|null', 'the driver process\'s peak resident memory (RSS) over the run, in ' +
    'bytes: process.resourceUsage().maxRSS, its worker threads included and, with --direct, the stores\' clients; ' +
    'null where not measured. Absent from files written before it and from node test merge\'s (each machine\'s ' +
    'file has its own)', { optional: true }),
  field('peakRss.appBytes', 'integer|null', 'the embedded app.js child\'s peak RSS in bytes: VmHWM from ' +
    '/proc/<pid>/status, read at the end of the run before the app is stopped (app.js alone, not the servers it ' +
    'started; with --app-workers N the sum of its primary\'s and its workers\' peaks, each process\'s own, as ' +
    'they would need memory side by side); null unless `app` is `measured`', { optional: true }),
  field('peakRss.app', 'string', 'whether appBytes was measured: `measured`; `unknown` (the driver started app.js ' +
    'but could not read its /proc/<pid>/status: not Linux, or the app had died); `none` (no app.js child: --url, ' +
    '--target, --direct)', { optional: true }),
  field('start', 'object', 'only with --start-at. A run: `at` (the instant asked), `readyAt` (when it had prepared), ' +
    '`began` (when it went on, its first step\'s warm-up or step), `lateMs` (began - at), `clock` (`{ offsetMs, ' +
    'uncertaintyMs, source }`: the target\'s clock minus this machine\'s, from the target\'s Date header, `source` ' +
    '`date-header`; null in direct mode or without the header). node test merge of parts: `at`, `began` (the ' +
    'earliest), `spreadMs` (latest began - earliest), `toleranceMs`, `clockSpreadMs` (how far apart the parts\' ' +
    'clocks were by the target\'s; null unless every part read it), `clockUncertaintyMs`, `parts` (each part\'s ' +
    'start, with `file` and `hostname`), `warnings` (START_SKEW)', { optional: true }),
  // A run of node test --scenario NAME (absent from other runs)
  field('scenario', 'object', 'only in a `--scenario` run: `name`, `title`, `summary`, `study` (file, source, ' +
    'author, hardware, ' +
    'date), `scale`, `scaleNote`, `cloudantPlan`, `storeDelay` and `clientDelay` (the networks emulated ' +
    'between the app and its stores, and between the driver and the app: `{ rttMs, jitterMs?, bandwidth? ' +
    '}` or null), `measured` and `published` (tables: `id`, `title`, `rowHeader`, `rows`, `columns` [{id, ' +
    'label, unit}], `cells` {row: {column: number or null}}, measured tables also `sources` {row: [index ' +
    'in steps]} and, where a kind gives it, `noise` {row: {column: figure}}: how far each figure could be ' +
    'off, two figures no further apart than their noises together too small to judge), `verdicts` [{id, ' +
    'claim, verdict, explanation, figures [{table, row}], and where they apply: `setBy` (the emulation\'s ' +
    'constant that decides it; its verdict is then `set by the emulation`), `noCounter` (why no change of ' +
    'the system here can make it come out the other way; its verdict is then `not proven here`, with ' +
    '`outcome` the measured `holds here` or `does not hold here`), `counter` (with --counter: {change, how?, ' +
    'verdict, explanation, figures, doubts [{code, steps, of}]}, its counter-run: the system changed so ' +
    'that the claim comes out the other way in fact)}], `notes`, `runs`, and with --counter `counterRuns` ' +
    '[{change, how?, verdicts [id], measured, notes, runs, interrupted}], with --verdicts `only` [id] ' +
    '(docs/scenarios.md)', { optional: true }),
];
