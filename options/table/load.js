// node test's options about the load: its levels (-c, --rps), each step's length, the warm-ups,
// the order, the engine and deadline, and the threads and app processes that carry it.
// options/table.js assembles them.
import { availableParallelism } from 'node:os';
import {
  DEFAULT_HTTP_ENGINE, DEFAULT_TIMEOUT_MS, HTTP_ENGINE_NAMES, WARMUP_MAX_SECONDS, WARMUP_TOLERANCE,
  WARMUP_WINDOW_SECONDS,
} from '../../config/run-defaults.js';
import {
  DEFAULT_CONCURRENCY, DEFAULT_DURATION_SECONDS, DEFAULT_WARMUP, LIMITS, MAX_WORKERS, QUICK, autoWorkers,
} from '../defaults.js';
import { nonNegativeInteger, nonNegativeNumber, positiveInteger, positiveNumber, shown } from '../values.js';

const maxDuration = shown(LIMITS.duration);
const maxTimeout = shown(LIMITS.timeout);
const warmupTolerance = WARMUP_TOLERANCE * 100;
const warmupMax = WARMUP_MAX_SECONDS;
const quick = `--keys ${QUICK.keys.join(',')} -c ${QUICK.concurrency.join(',')} -t ${QUICK.duration}`;
const engines = HTTP_ENGINE_NAMES.join(' or ');

export const LOAD_OPTIONS = [
  {
    flag: 'concurrency',
    short: 'c',
    type: 'string',
    arg: 'LIST',
    list: true,
    bounds: [1, LIMITS.concurrency],
    parse: positiveInteger,
    what: 'positive whole number',
    default: DEFAULT_CONCURRENCY,
    setting: 'concurrency',
    section: 'load',
    help: [
      `concurrency steps, comma-separated, each 1 to ${shown(LIMITS.concurrency)}`,
      `(default: ${DEFAULT_CONCURRENCY.join(',')})`,
    ],
    docDefault: '`5,10,20,30`',
    doc: 'Concurrency steps: a closed loop of that many clients, each sending its next request when its ' +
      'last one ends. Each 1 to 10,000. The original\'s six are `-c 5,10,15,20,25,30` (and `--scenario ' +
      'cloudant-vs-redis`); four keep a default run of every store under ten minutes.',
  },
  {
    flag: 'requests',
    short: 'n',
    type: 'string',
    arg: 'N',
    bounds: [1, LIMITS.requests],
    parse: positiveInteger,
    what: 'positive whole number',
    setting: 'requests',
    section: 'load',
    help: [`send N requests per step instead, 1 to ${shown(LIMITS.requests)} (the original used 100)`],
    doc: 'Send N requests per step instead of a duration, 1 to 10,000,000. The original used 100: at 100 ' +
      'samples the p99 is a single request.',
  },
  {
    flag: 'duration',
    short: 't',
    type: 'string',
    arg: 'SECS',
    bounds: [0, LIMITS.duration],
    parse: positiveNumber,
    what: 'positive number of seconds',
    unit: ' s',
    default: DEFAULT_DURATION_SECONDS,
    setting: 'duration',
    section: 'load',
    help: [`run each step for SECS seconds, at most ${maxDuration} (default: ${DEFAULT_DURATION_SECONDS})`],
    docDefault: '`2`',
    doc: 'Run each step for SECS seconds, at most 3,600 (the table\'s `maxRequests` column then shows the ' +
      'requests sent). Every request started in those seconds is counted, however long it takes to end.',
  },
  {
    flag: 'rps',
    type: 'string',
    arg: 'LIST',
    list: true,
    bounds: [LIMITS.minRps, LIMITS.rps],
    parse: positiveNumber,
    what: 'positive rate (requests per second)',
    unit: ' per second',
    setting: 'rps',
    section: 'load',
    help: [
      `open model: send at these fixed rates, each ${LIMITS.minRps} to ${shown(LIMITS.rps)} per`,
      'second (one step each), instead of a concurrency sweep; latency counts',
      "from each request's intended send time",
    ],
    doc: '**Open model**: send at these fixed rates (each 0.01 to 100,000 per second), one step per rate, ' +
      'instead of the concurrency sweep. Latency counts from each request\'s *intended* send time, so a ' +
      'stall of the server or of the driver shows as latency instead of being hidden (no coordinated ' +
      'omission, as in wrk2). The table gets a `targetRps` column; its `concurrency` column shows the ' +
      'most requests in flight at once (`peakInFlight` in the JSON).',
  },
  {
    flag: 'pipeline',
    type: 'string',
    arg: 'N',
    bounds: [1, LIMITS.pipeline],
    parse: positiveInteger,
    what: 'positive whole number',
    default: 1,
    setting: 'pipeline',
    section: 'load',
    help: [
      'with --direct: each caller sends N calls at once, the next N when all N',
      `are back (redis-benchmark -P N), each call timed and counted; 1 to ${shown(LIMITS.pipeline)}`,
      '(default: 1). Only stores whose client pipelines (without --stores:',
      'those), not with --rps (docs/direct.md)',
    ],
    docDefault: '`1`',
    doc: 'With `--direct`: each of `-c`\'s callers sends N calls at once and its next N when all N are ' +
      'back, as `redis-benchmark -P N` does; every call is timed from its own start and counted, `-n` ' +
      'exactly. Only for stores whose client pipelines (redis, ioredis, redis-cluster, memcached, ' +
      'postgres through node-postgres\'s pipeline mode, tarantool, tarantool-memtx; without `--stores`, ' +
      'those); refused with the reason for the others, over HTTP and with `--rps` (exit 2). 1 to 1,000 ' +
      '([docs/direct.md](direct.md#pipelining---pipeline-n)).',
  },
  {
    flag: 'warmup',
    type: 'string',
    arg: 'N',
    bounds: [0, LIMITS.warmup],
    parse: nonNegativeInteger,
    what: 'whole number (0 for none)',
    default: DEFAULT_WARMUP,
    setting: 'warmup',
    section: 'load',
    help: [
      'requests sent to every URL once before the first step (at most 2 s each:',
      `the app's JIT, pools and servers), not counted, 0 to ${shown(LIMITS.warmup)}`,
      `(default: ${DEFAULT_WARMUP}; 0: no warm-up of any kind)`,
    ],
    docDefault: '`500`',
    doc: 'Requests sent to every URL once before the first measured step (at most 2 s each: the app\'s JIT, ' +
      'its pools, the servers it started), not counted. `0`: no warm-up of any kind; at most 1,000,000.',
  },
  {
    flag: 'warmup-max',
    type: 'string',
    arg: 'SECS',
    bounds: [0, LIMITS.warmupMax],
    parse: nonNegativeNumber,
    what: 'number of seconds (0 for none)',
    unit: ' s',
    default: WARMUP_MAX_SECONDS,
    setting: 'warmupMaxSeconds',
    section: 'load',
    help: [
      `before each step, its load runs in ${WARMUP_WINDOW_SECONDS} s windows until one is no faster`,
      `than the last (within ${warmupTolerance}%), at most SECS (default: ${warmupMax}; 0: none,`,
      'and no warm-up of the app as a whole either); a step whose warm-up',
      'never settled carries NOT_STEADY. First the app itself warms: its',
      'first URL at the highest load in 0.5 s windows, 2 s at least, at most',
      'SECS',
    ],
    docDefault: '`10`',
    doc: 'Before each step, its own load runs in 0.25 s windows until a window is no faster than the one ' +
      'before (by more than 5%), at most SECS; a step whose warm-up never settled carries `NOT_STEADY`. ' +
      'Before all of it, the app as a whole warms: its first URL at the highest load in 0.5 s windows ' +
      'until steady, 2 s at least, at most SECS (a fresh app.js needs about that). `0`: none of either. ' +
      '([docs/measurement.md](measurement.md#fair-comparisons-order-warm-up-control-noise))',
  },
  {
    flag: 'order',
    type: 'string',
    arg: 'ORDER',
    default: 'interleaved',
    setting: 'order',
    section: 'load',
    help: [
      'interleaved (default): at each level one step of every URL, shuffled',
      'with --seed, then the next level; the first step is measured again at',
      'the end (the control). sequential: every level of a URL, then the next',
    ],
    docDefault: '`interleaved`',
    doc: '`interleaved`: at each load level one step of every URL, in an order shuffled with `--seed` ' +
      '(recorded in the results), then the next level; the first step is measured again at the end (the ' +
      'control, `DRIFT` when it moved over 10%). `sequential`: every level of a URL, then the next URL.',
  },
  {
    flag: 'no-control',
    type: 'boolean',
    setting: 'control',
    section: 'load',
    help: [
      'do not measure the first step again after the last (the control); for',
      'a workload whose extra writes would matter',
    ],
  },
  {
    flag: 'quick',
    type: 'boolean',
    setting: null,
    section: 'load',
    help: [`a one-minute overview: ${quick} unless given`],
    doc: 'A one-minute overview: `--keys key1 -c 5,20 -t 1` unless those flags are given.',
  },
  {
    flag: 'no-keepalive',
    type: 'boolean',
    setting: 'keepAlive',
    section: 'load',
    help: [
      "a new connection per request (the original's behaviour;",
      'default: keep-alive)',
    ],
    docDefault: 'keep-alive on',
    doc: 'A new connection per request, as the original ran.',
  },
  {
    flag: 'engine',
    type: 'string',
    arg: 'NAME',
    default: DEFAULT_HTTP_ENGINE,
    setting: 'engine',
    section: 'load',
    help: [
      `what sends the HTTP requests: ${engines} (default: ${DEFAULT_HTTP_ENGINE}).`,
      'fast writes HTTP/1.1 to sockets itself, at a third of loadtest\'s CPU',
      'per response; loadtest re-runs a study made with loadtest. Timing and',
      'figures are the same either way; the System line says which ran',
      'and why (docs/measurement.md)',
    ],
    docDefault: `\`${DEFAULT_HTTP_ENGINE}\``,
    doc: 'What sends the HTTP requests: `fast` (the default: HTTP/1.1 written to raw sockets by the driver, a ' +
      'prebuilt request, one keep-alive connection per client, responses parsed in place) or `loadtest` (the ' +
      'loadtest package through its `requestGenerator` hook: the tool study 000 ran with, which its scenario ' +
      'keeps). fast is the default because it costs the driver a third of loadtest\'s CPU per response and reads ' +
      'a 20 ms server\'s mean latency within 1% of wrk, where loadtest reads 2-10% high. Both are timed by the same ' +
      'meter (latency from each request\'s start, or intended start, to its last byte), with the same deadlines, ' +
      'error kinds, workloads, `--no-keepalive`, `--threads` and `--probe`; the `System:` line says which ran and ' +
      'why (`engine fast (default)`, `engine loadtest 8.2.1 (--engine loadtest)`), as do `settings.engine` and ' +
      '`settings.engineChoice`. Not with `--direct` (exit 2). Figures: ' +
      '[docs/measurement.md](measurement.md#the-default-engine-fast).',
  },
  {
    flag: 'timeout',
    type: 'string',
    arg: 'MS',
    bounds: [1, LIMITS.timeout],
    parse: positiveInteger,
    what: 'positive whole number of milliseconds',
    unit: ' ms',
    default: DEFAULT_TIMEOUT_MS,
    setting: 'timeoutMs',
    section: 'load',
    help: [
      `per-request deadline in milliseconds, 1 to ${maxTimeout} (default: ${DEFAULT_TIMEOUT_MS})`,
      'Every request a step starts is waited for, up to this deadline.',
    ],
    note: [`A -c or --rps list has at most ${LIMITS.steps} values.`],
    docDefault: '`10000`',
    doc: 'Deadline for each whole request, 1 to 600,000; a request over it is destroyed and counted as a ' +
      '`timeout` error. It also bounds how long a step waits for its last requests.',
  },
  {
    flag: 'threads',
    // Its name until app.js's --workers (the app's processes) made the word mean two things: still
    // taken, with a one-line note. The Result keeps `settings.workers`.
    alias: 'workers',
    aliasNote: 'the driver\'s threads (app.js --workers is the app\'s processes: --app-workers here)',
    type: 'string',
    number: true,
    arg: 'N|auto',
    bounds: [1, MAX_WORKERS],
    default: 1,
    setting: 'workers',
    section: 'load',
    help: [
      `run each step in N driver threads, 1 to ${MAX_WORKERS} (default: 1; auto: one per`,
      `core less one, here ${autoWorkers()}), each with its share of the concurrency or`,
      'rate; their histograms are added, counts summed; with --direct each',
      'opens its own connection (memory runs in the main thread). Refuses',
      'workloads that insert (insert, ycsb-d); skips the read-back of written',
      'values when several workers write (docs/measurement.md)',
    ],
    docDefault: '`1`',
    doc: 'Run each step (and warm-up) in N driver threads (worker threads), 1 to 256 (`auto`: one per core ' +
      'less one, at ' +
      'least 1), each with its share of the concurrency, `-n` or rate (fewer when there is not enough ' +
      'to share: the run says so). Their HDR histograms are added and counts summed into one step (rps: ' +
      'all responses over the workers\' clients-weighted mean wallSeconds), whose `workers` list keeps ' +
      'each thread\'s requests, rps and CPU; `DRIVER_CPU` is checked per worker. With `--direct` each ' +
      'thread opens its own connection to the store (`memory` runs in the main thread). Workloads that ' +
      'insert are refused (exit 2), and the read-back of written values is skipped with several workers ' +
      '([docs/measurement.md](measurement.md#several-threads-several-machines---threads-and-node-test-merge)). ' +
      'Its old name `--workers` (`workers` from code) is still taken, with a one-line note: `app.js --workers` ' +
      'is the app\'s processes, which node test sets with `--app-workers`.',
  },
  {
    flag: 'app-workers',
    type: 'string',
    number: true,
    arg: 'N|auto',
    default: 1,
    setting: 'appWorkers',
    section: 'load',
    help: [
      'start app.js as N processes (app.js --workers; auto: one per CPU, here',
      `${availableParallelism()}), the embedded servers once for all of them: one Express`,
      'process is often the limit (docs/measurement.md). Default: 1. Not with',
      '--target, --url or --direct. memory then refuses writes (each worker has',
      'its own copy), and is left out of key-space workloads',
    ],
    docDefault: '`1`',
    doc: 'Start app.js as N processes (`app.js --workers N`; `auto`: one per CPU): one Express process is ' +
      'often the limit of every store behind it ' +
      '([docs/measurement.md](measurement.md#one-app-process)). The embedded servers start once, ' +
      'for all of them; `settings.appWorkers` and the `Settings:` line record it. `memory` refuses ' +
      'writes then, so a key-space workload leaves it out (named in `--stores`: exit 2). Not with ' +
      '`--target`, `--url` or `--direct` (exit 2): start that app with `--workers` yourself.',
  },
];
