// The options of `node test`, one entry each: the flag and its short form, its type (a string
// flag's value name, `arg`), whether it repeats (`multiple`) or takes a comma-separated list
// (`list`), its bounds and default, the Result's `settings` key it becomes (null: none), and its
// --help lines. The argv spec (RUN_FLAGS), the usage text (cli/run-usage.js), docs/cli.md
// (scripts/cli-docs.js) and index.d.ts's RunOptions (test/unit/options-table.test.js) come from it.
import { availableParallelism } from 'node:os';
import {
  DEFAULT_CONCURRENCY, DEFAULT_DURATION_SECONDS, DEFAULT_WARMUP, LIMITS, MAX_WORKERS, PROBE_MIN_REQUESTS_PER_CLIENT,
  PROBE_MIN_SECONDS, QUICK, REPEAT_LIMIT, autoWorkers,
} from './defaults.js';
import { DEFAULT_RECORDS, DEFAULT_VALUE_SIZE, DISTRIBUTIONS, HASH_FIELDS } from '../config/workloads.js';
import {
  DEFAULT_HTTP_ENGINE, DEFAULT_TIMEOUT_MS, HTTP_ENGINE_NAMES, PROBE_IDLE_REQUESTS, PROBE_IDLE_SECONDS,
  PROBE_WARMUP_REQUESTS, WARMUP_MAX_SECONDS, WARMUP_TOLERANCE, WARMUP_WINDOW_SECONDS,
} from '../config/run-defaults.js';
import { nonNegativeInteger, nonNegativeNumber, positiveInteger, positiveNumber } from './values.js';
import { FRAMEWORK_NAMES, TOKEN_ENV } from '../config/settings.js';

const shown = (value) => value.toLocaleString('en-US');
const probeIdle = `${PROBE_IDLE_SECONDS} s or ${PROBE_IDLE_REQUESTS} requests`;
const probeMinPerClient = PROBE_MIN_REQUESTS_PER_CLIENT;
const maxDuration = shown(LIMITS.duration);
const maxTimeout = shown(LIMITS.timeout);
const warmupTolerance = WARMUP_TOLERANCE * 100;
const warmupMax = WARMUP_MAX_SECONDS;
const quick = `--keys ${QUICK.keys.join(',')} -c ${QUICK.concurrency.join(',')} -t ${QUICK.duration}`;
const engines = HTTP_ENGINE_NAMES.join(' or ');

/** The --help sections, in order: a title, and lines after the section's options. */
export const SECTIONS = Object.freeze({
  targets: { title: 'Targets:' },
  storeNetwork: { title: 'Network between the stores and their servers (docs/configuration.md#network-emulation):' },
  load: { title: 'Load:' },
  workload: { title: 'Workload (docs/workloads.md):' },
  output: { title: 'Output:' },
  reports: { title: 'Reports:' },
  parts: { title: 'Several drivers, one run (docs/merge.md):' },
  scenarios: {
    title: 'Scenarios (docs/scenarios.md): the published studies, re-run here beside their figures',
    after: [
      '  --store-rtt MS, --store-jitter MS, --store-bandwidth SIZE',
      '                         the network between the app and its stores (STORE=value items too), for',
      '                         the scenarios over HTTP and in direct mode but cluster-vs-document.',
      '                         Default: none',
    ],
  },
});

// `label`: the usage line's own words where they are not the flag's (null: shown in another's).
// `note`: lines after the option's own, at the section's indent. A number's `parse` reads it, as
// code's number or the command line's text (null: not one), `what` names what it takes and `unit`
// follows its bounds in a problem. `number`: code may give this string option as a number too. `doc` and `docDefault`:
// docs/cli.md's fuller words (the help lines stand in where there are none).
const ENTRIES = [
  {
    flag: 'target',
    type: 'string',
    arg: 'URL',
    setting: null,
    section: 'targets',
    help: ['sweep a running app: reads URL/stores, sweeps the stores that are up'],
    doc: 'Sweep a running app: read `URL/stores`, sweep the stores that are up. A path prefix is kept. The ' +
      'target is another program: a store whose name or keys its listing gives outside the key alphabet ' +
      '(store names may also hold `+`), or any entry that is malformed (not an object; a name, status ' +
      'or reason that is not text; keys that are not a list), is skipped as `refused` with why ' +
      '(`skipped redis: refused (not swept: its "keys" is a string, not a list)`; an entry with no name ' +
      'is `(entry N)`), nothing asked of it; a store that is up but lists no key to read (or none of ' +
      '`--keys`) is skipped as `no keys`. No entry is left out without a skipped line. What else it ' +
      'sends (statuses, reasons, a body quoted in an error) is printed as one line with its control ' +
      'characters removed, so it cannot move the cursor or retitle the terminal; the HTML report ' +
      'escapes it.',
  },
  {
    flag: 'url',
    short: 'u',
    type: 'string',
    arg: 'URL',
    multiple: true,
    setting: null,
    section: 'targets',
    help: ['sweep this URL (repeatable); no /stores listing is read'],
    doc: 'Sweep this URL; repeatable. No `/stores` listing is read; the comparison labels each URL ' +
      '`store/key` from its last two path segments.',
  },
  {
    flag: 'stores',
    type: 'string',
    arg: 'LIST',
    list: true,
    setting: 'stores',
    section: 'targets',
    help: ['only these stores (comma-separated; embedded default or --target)'],
    docDefault: 'all that are up',
    doc: 'Only these stores (embedded default or `--target`). In the embedded default the app then starts ' +
      'servers only for them.',
  },
  {
    flag: 'framework',
    type: 'string',
    arg: 'LIST',
    list: true,
    setting: 'framework',
    section: 'targets',
    help: [
      `what serves the app node test starts: ${FRAMEWORK_NAMES.join(', ')} (node: bare node:http, no`,
      'framework); several, comma-separated, are swept side by side like stores',
      '(default: express, the app the studies describe). Not with --target, --url',
      'or --direct',
    ],
    docDefault: '`express`',
    doc: 'What serves the app node test starts (`app.js --framework`): `express` (Express 5, the app the studies ' +
      'describe), `fastify` (fastify 5) or `node` (bare `node:http`: the floor, what a store costs with no ' +
      'framework). The same routes, payloads, errors and limits on each ([docs/app.md](app.md#frameworks)). ' +
      'Several, comma-separated, are served by one app process on a port each and swept side by side like ' +
      'stores, in the same fair order: each step, table and comparison row names its `framework`. Not with ' +
      '`--target` (its app serves on its own framework, which the tables name), `--url` or `--direct` (exit 2).',
  },
  {
    flag: 'keys',
    type: 'string',
    arg: 'LIST',
    list: true,
    setting: 'keys',
    section: 'targets',
    help: ['only these keys (default: every key the store lists, key1..key3)'],
    docDefault: 'every key a store lists',
    doc: 'Only these keys.',
  },
  {
    flag: 'direct',
    type: 'boolean',
    setting: 'engine',
    section: 'targets',
    help: [
      'call the store adapters in this process instead of the app over HTTP:',
      'the stores (--stores, default all) are opened as app.js opens them',
      '(env, VCAP_SERVICES, embedded servers), same workloads and tables;',
      'not with --no-keepalive, which is about HTTP (docs/direct.md)',
    ],
    docDefault: 'over HTTP',
    doc: '**Direct mode**: no app and no HTTP: the driver opens the stores (`--stores`, default all) in ' +
      'its own process as `app.js` would (env, `VCAP_SERVICES`, embedded servers started and stopped) ' +
      'and calls their adapters: the same workloads, sweep, tables, comparison, checks and files, each ' +
      'step marked `mode: "direct"`, targets named `direct://redis/key1`. Not with `--url`, `--target` ' +
      'or `--no-keepalive` (exit 2). See [docs/direct.md](direct.md).',
  },
  {
    flag: 'profile',
    type: 'boolean',
    setting: 'profile',
    section: 'targets',
    help: [
      'after each step, run it again with a CPU profile of every app process and',
      'print where the app\'s CPU went per response: framework, client library,',
      'node http, json, gc, storebench, other. The measured step is never the',
      'profiled one. Keeps each .cpuprofile (and pprof) with the results. With',
      '--target, only on an app started with --allow-profiling',
    ],
    docDefault: 'off',
    doc: 'After each measured step, the same step again with a V8 CPU profile of every app process (Node\'s ' +
      'inspector, inside the app: `POST /_profile/start` and `/stop`), so the figures people compare are never ' +
      'the profiled ones. Each step gets `profile` in the JSON: CPU µs per response of each part of the app ' +
      '(the framework, the store\'s client library, Node\'s HTTP and net core, JSON, garbage collection, ' +
      'storebench\'s own code, the rest), the profiled run\'s rps against the step\'s (the profiler\'s cost) ' +
      'and a flame graph\'s tree; a line under each table; a flame graph per step in the HTML. The raw ' +
      '`.cpuprofile` files (Chrome DevTools, speedscope) and pprof files are kept beside the results. With ' +
      '`--target`, only an app started with `--allow-profiling`, from loopback or with `--token`; refused ' +
      'before any load otherwise. Not with `--url` or `--direct` (exit 2). ' +
      '[docs/measurement.md](measurement.md#what-the-app-costs).',
  },
  {
    flag: 'probe',
    type: 'boolean',
    setting: null,
    section: 'targets',
    help: [
      'a separate prober in its own thread sends one request at a time: for',
      `${probeIdle} before each target's steps (idle, after up`,
      `to ${PROBE_WARMUP_REQUESTS} untimed warm-up requests: a new connection is slower) and`,
      'throughout each step (under load); tables show its p50/p99, never counted',
      `in the step. -n must be at least ${probeMinPerClient} x the largest -c, or with --rps`,
      `last ${PROBE_MIN_SECONDS} s at the largest --rps (docs/direct.md)`,
    ],
    docDefault: 'off',
    doc: 'A separate prober in its own worker thread sends one request at a time (the same GET the steps ' +
      'send, over its own connection; in direct mode a `get` through a connection of its own): for 1 s ' +
      'or 200 requests before each target\'s steps (idle, after up to 50 untimed ones: a new ' +
      'connection\'s first requests are slower), and throughout each step (under load). Tables get ' +
      '`probeIdleP50`, `probeIdleP99`, `probeLoadP50`, `probeLoadP99`; each step\'s `probe` in the JSON. ' +
      'Its requests are never counted in a step. With `-n`, at least 10 x the largest `-c` (or 0.1 s at ' +
      'the largest `--rps`), else exit 2. HTTP and direct mode; in direct mode the memory store is ' +
      'probed from the driver\'s own thread (it exists only there). See ' +
      '[docs/direct.md](direct.md#the-probe---probe).',
  },
  {
    flag: 'no-server-timing',
    type: 'boolean',
    setting: null,
    section: 'targets',
    help: [
      'the app this starts leaves out its Server-Timing header (store;dur=MS),',
      "so no step has a store time: the app's CPU without it (default: each",
      "step reports the store's own time inside the app beside the latency)",
    ],
    docDefault: 'off (the header is sent)',
    doc: 'The app `node test` starts leaves out its `Server-Timing` header, so no step has a store time ' +
      '(`storeTime` null; the tables show no store columns): for measuring the app without it. With ' +
      '`--target` or `--url` (a running app has its own `--no-server-timing`) or `--direct` (no app: ' +
      'the store time is the latency), exit 2. See ' +
      '[docs/measurement.md](measurement.md#the-stores-own-time-server-timing).',
  },
  {
    flag: 'probe-size',
    type: 'string',
    number: true,
    arg: 'SIZE',
    default: '100 B',
    setting: 'probeSize',
    section: 'targets',
    help: [
      'with --direct and a key-space workload, the value the probe writes or reads',
      'under its own key (default 100 B: 10KB to probe 10 KB values)',
    ],
    docDefault: '`100`',
    doc: 'With `--probe`, `--direct` and a key-space workload: the value the probe writes or reads under ' +
      'its own key (`storebench-probe`), e.g. `10KB` to probe the 10 KB values a load reads (study ' +
      '002\'s phase e). Recorded as `settings.probeSize`.',
  },
  {
    flag: 'store-rtt',
    type: 'string',
    number: true,
    arg: 'MS',
    default: 0,
    setting: 'storeDelay',
    section: 'storeNetwork',
    help: [
      'a round trip of MS ms (half each way) through a delaying proxy in front',
      "of each store's server, embedded or configured: given to the app this",
      'starts, or applied here with --direct (default: 0, none). STORE=MS',
      'items give one store its own (redis=40, or 10,redis=40)',
    ],
    docDefault: '`0` (none)',
    doc: 'Emulate a network between the stores and their servers: a round trip of MS milliseconds, half ' +
      'each way, through a delaying TCP proxy in front of each server, embedded or configured; ' +
      '`STORE=MS` items give one store its own (`--store-rtt redis=40`, or `10,redis=40`: redis 40, the ' +
      'others 10). Given to the app `node test` starts (as its `--store-rtt`), or applied in the driver ' +
      'with `--direct`; with `--target` or `--url`, exit 2 (a running app has its own). `--store-jitter ' +
      'MS` varies each one-way delay at random by up to MS; `--store-bandwidth SIZE` limits each ' +
      'server\'s link to SIZE a second each way. TLS, Unix sockets and a Redis Cluster cannot be proxied ' +
      '(the store is then unavailable, `DELAY_UNSUPPORTED`). The results file records it as ' +
      '`settings.storeDelay`. See [docs/configuration.md](configuration.md#network-emulation).',
  },
  {
    flag: 'store-jitter',
    type: 'string',
    number: true,
    arg: 'MS',
    default: 0,
    setting: 'storeDelay',
    section: 'storeNetwork',
    help: ['each one-way delay varies at random by up to MS either side'],
  },
  {
    flag: 'store-bandwidth',
    type: 'string',
    number: true,
    arg: 'SIZE',
    setting: 'storeDelay',
    section: 'storeNetwork',
    help: [
      'bytes a second each way to each server (100KB, 10MB)',
      '(both also take STORE=value items)',
    ],
  },
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
      'error kinds, workloads, `--no-keepalive`, `--workers` and `--probe`; the `System:` line says which ran and ' +
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
    flag: 'workers',
    type: 'string',
    number: true,
    arg: 'N|auto',
    bounds: [1, MAX_WORKERS],
    default: 1,
    setting: 'workers',
    section: 'load',
    help: [
      `run each step in N worker threads, 1 to ${MAX_WORKERS} (default: 1; auto: one per`,
      `core less one, here ${autoWorkers()}), each with its share of the concurrency or`,
      'rate; their histograms are added, counts summed; with --direct each',
      'opens its own connection (memory runs in the main thread). Refuses',
      'workloads that insert (insert, ycsb-d); skips the read-back of written',
      'values when several workers write (docs/measurement.md)',
    ],
    docDefault: '`1`',
    doc: 'Run each step (and warm-up) in N worker threads, 1 to 256 (`auto`: one per core less one, at ' +
      'least 1), each with its share of the concurrency, `-n` or rate (fewer when there is not enough ' +
      'to share: the run says so). Their HDR histograms are added and counts summed into one step (rps: ' +
      'all responses over the workers\' clients-weighted mean wallSeconds), whose `workers` list keeps ' +
      'each thread\'s requests, rps and CPU; `DRIVER_CPU` is checked per worker. With `--direct` each ' +
      'thread opens its own connection to the store (`memory` runs in the main thread). Workloads that ' +
      'insert are refused (exit 2), and the read-back of written values is skipped with several workers ' +
      '([docs/measurement.md](measurement.md#several-workers-several-machines---workers-and-node-test-merge)).',
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
  {
    flag: 'json',
    type: 'string',
    arg: 'FILE',
    setting: null,
    section: 'output',
    help: [
      'write settings, system info and every step (with histograms) as JSON;',
      '"-" writes it to stdout and the tables to stderr',
    ],
    doc: 'Write the run as a `storebench-results/6` JSON file: settings (the workload\'s too), system info, ' +
      'the targets, the skipped stores, each store\'s load phase, every step (with its start and finish ' +
      'time, repeat, p99.9, the machine\'s load, warnings by code, the encoded HDR histogram, and the ' +
      'same per operation), the verifications and the comparison; every field is described in ' +
      '[docs/results-format.md](results-format.md) and in a JSON Schema, ' +
      '[docs/results.schema.json](results.schema.json). `--json -` writes it to stdout and the ' +
      'tables to stderr. Checked before any load: a path that cannot be written exits 2 at once.',
  },
  {
    flag: 'csv',
    type: 'string',
    arg: 'FILE',
    setting: null,
    section: 'output',
    help: ['write one CSV row per step'],
    doc: 'One CSV row per step, with the same figures under the table\'s column names (and, for a workload ' +
      'of several operations, a row per operation); the last column, `interrupted`, is `true` on every ' +
      'row of a run stopped early. Checked before any load, as `--json`.',
  },
  {
    flag: 'quiet',
    short: 'q',
    type: 'boolean',
    setting: null,
    section: 'output',
    help: [
      'no progress line and no "starting app.js" line (the progress line is',
      'also off when stderr is not a terminal)',
    ],
    doc: 'No progress line and no "starting app.js" line (the progress line is also off when stderr is not ' +
      'a terminal).',
  },
  {
    flag: 'verbose',
    type: 'boolean',
    setting: null,
    section: 'output',
    help: [
      'under each table also its legends, machine warnings, the evidence of each',
      "step's bottleneck and its seconds as sparklines; the comparison with a",
      'row per store and level (node test report FILE --verbose: a saved run)',
    ],
    docDefault: 'off',
    doc: 'Print everything the run knows: under each URL\'s table its legends, the machine\'s warnings, one ' +
      'line per step with the evidence of its bottleneck and each tier\'s CPU per response, and its seconds ' +
      'as sparklines; the comparison as a row per store and level, with latency, `rps/fastest` and a note ' +
      'per shared rank. Without it each table keeps the bottleneck in a word, the legends come once and the ' +
      'comparison has a row per store (see [docs/reports.md](reports.md)). `node test report FILE --verbose` ' +
      'prints a saved run this way.',
  },
  {
    flag: 'no-save',
    type: 'boolean',
    setting: null,
    section: 'output',
    help: [
      'do not keep the run: by default its results JSON and HTML page go to',
      './storebench-results/<UTC time>-<id>/ ($STOREBENCH_RESULTS_DIR), named',
      'in the last line',
    ],
    docDefault: 'saved',
    doc: 'Do not keep the run. By default every sweep writes its `results.json` and `report.html` to a ' +
      'folder of its own, `./storebench-results/<UTC time>-<id>/` (or under `$STOREBENCH_RESULTS_DIR`), ' +
      'and names it in its last line; an interrupted or failed run is kept too, marked as such (its folder ' +
      'ends in `-interrupted` or `-failed`). A folder that cannot be written is a one-line warning: the run ' +
      'prints and exits as it would have. `--json`/`--html` still write where they are told. ' +
      '`node test runs` lists the saved runs, `node test compare` with no files compares the last two (see ' +
      '[docs/reports.md](reports.md#every-run-kept)).',
  },
  {
    flag: 'help',
    short: 'h',
    type: 'boolean',
    setting: null,
    section: 'output',
    help: ['show this help'],
    doc: 'Usage.',
  },
  {
    flag: 'html',
    type: 'string',
    arg: 'FILE',
    setting: null,
    section: 'reports',
    help: [
      'also write the run as one self-contained HTML page (charts, tables, no',
      'network); made from the saved Result, as node test report --html makes it',
    ],
    doc: 'Also write the run as one self-contained HTML page (see [The HTML report](reports.md#the-html-report)), ' +
      'made from the saved Result. Checked before any load, as `--json`.',
  },
  {
    flag: 'repeat',
    type: 'string',
    number: true,
    arg: 'N',
    bounds: [1, REPEAT_LIMIT],
    default: 1,
    setting: 'repeat',
    section: 'reports',
    help: [
      `run each step N times, 1 to ${REPEAT_LIMIT} (default 1), interleaved across the URLs`,
      'at each load level; tables show the median, the min-max and, from 5',
      'repeats, the 95% interval of the mean',
    ],
    docDefault: '`1`',
    doc: 'Run each step N times (1 to 100), interleaved across the URLs at each load level (A B C, A B C), ' +
      'so a slow moment of a shared machine falls on all of them. Tables show the median, the min-max ' +
      'and, from 5 repeats, the 95% interval of the mean of rps, mean latency and p99; the comparison ' +
      'says which stores\' rps ranges overlap ("not distinguishable here"). Every repeat\'s step is in ' +
      'the JSON. See [docs/measurement.md](measurement.md#repeats---repeat-n).',
  },
  {
    flag: 'assert',
    type: 'string',
    arg: 'EXPR',
    multiple: true,
    setting: 'assert',
    section: 'reports',
    help: [
      'a threshold, checked per store after the run (repeatable):',
      '[store:]p50|p90|p99|p999|mean|max <|<= N ms|us, rps >|>= N,',
      "errors =|<= N or N%  (e.g. 'p99<5ms', 'redis:rps>=1000', 'errors=0');",
      'a missed one exits 3; one naming a store the run will not sweep',
      'exits 2 before any load',
    ],
    doc: 'A threshold, repeatable: `[store:]p50|p90|p99|p999|mean|max <|<= N ms|us`, `rps >|>= N`, `errors ' +
      '=|<= N` or `N%` (`\'p99<5ms\'`, `\'redis:rps>=1000\'`, `\'errors<=0.1%\'`). After the run a table ' +
      'shows each threshold per store, checked against every step of that store (with repeats, the ' +
      'medians the tables show; errors summed over them): `pass`, or `FAIL` with the worst step. A ' +
      'missed threshold exits **3**; a bad expression, or one naming a store the run will not sweep ' +
      '(not in `--stores` or the `--url` list, or not up in `/stores`), exits **2** before any load.',
  },
  {
    flag: 'hdr-log',
    type: 'string',
    arg: 'DIR',
    setting: null,
    section: 'reports',
    help: [
      "also write each target's seconds as HdrHistogram interval logs, one",
      'file per target and operation (<store>-<key>-<operation>.hlog, values',
      'in µs), for HistogramLogProcessor and the HdrHistogram plotter',
    ],
    doc: 'Also write each target\'s seconds as HdrHistogram interval logs (log format 1.3), one file per ' +
      'target and operation, `DIR/<store>-<key>-<operation>.hlog` (a second URL with the same store and ' +
      'key, on another host say, `<store>-<key>-2-<operation>.hlog`; made if missing; a file there ' +
      'exits **2** before any load): one interval a second, values in µs, start times from the run\'s ' +
      'first step. HdrHistogram\'s `HistogramLogProcessor` (with `-outputValueUnitRatio 1000` for ms) ' +
      'and plotter read them; see ' +
      '[docs/measurement.md](measurement.md#second-by-second-the-timeline).',
  },
  {
    flag: 'metrics-port',
    type: 'string',
    number: true,
    arg: 'N',
    bounds: [0, 65535],
    setting: null,
    section: 'reports',
    help: [
      "serve the run's requests, errors, latency histograms and machine figures",
      'in Prometheus text on 127.0.0.1:N/metrics while it runs (0: a free port,',
      'printed); after the run, waits up to 5 s for one last scrape',
      '(docs/observability.md)',
    ],
    doc: 'Serve the run\'s figures in Prometheus text at `http://127.0.0.1:N/metrics` while it runs (`0`: a ' +
      'free port, printed on stderr): requests, errors by kind and a latency histogram per target, ' +
      'operation and step, added as each step ends, and the last step\'s steal and busy figures. After ' +
      'the run the driver waits up to 5 s for one last scrape. See ' +
      '[docs/observability.md](observability.md).',
  },
  {
    flag: 'start-at',
    type: 'string',
    arg: 'TIME',
    setting: 'startAt',
    section: 'parts',
    help: [
      'prepare (target reachable, priming, load phase), then wait until TIME',
      '(ISO with zone, 2025-06-01T12:00:00Z, or +SECS from now) before the',
      'first step; not ready by then: exit 1. Records its start and clock',
    ],
    doc: 'Prepare (target reachable, priming, load phase), then wait until TIME (ISO with zone, or ' +
      '`+SECS`) before the first step; each step\'s steady warm-up runs after it. Ready too late: exit ' +
      '**1** (`NOT_READY`). The Result\'s `start` keeps the start and the target\'s clock from its `Date` ' +
      'header ([docs/merge.md](merge.md#one-run-split-over-several-drivers---part---start-at' +
      '---parts-n---local-node-test-k8s)).',
  },
  {
    flag: 'part',
    type: 'string',
    arg: 'I/N',
    setting: 'part',
    section: 'parts',
    help: [
      'this driver is part I of N: its share of -c, --rps and -n, loads and',
      'inserts only its slice of --records, its own seed drawn from --seed',
      '(needed: the same for every part, as is the order of the steps)',
    ],
    doc: 'This driver is part I of N of one run (needs `--seed`, the same in every part): its share of ' +
      'each `-c`, `--rps` and `-n`, its slice of `--records` to load and its own insert keys, its own ' +
      'seed drawn from the run\'s, the run\'s order of steps. `merge` checks parts 1..N are all there and ' +
      'none twice.',
  },
  {
    flag: 'parts',
    type: 'string',
    number: true,
    arg: 'N',
    setting: null,
    section: 'parts',
    label: '--parts N --local',
    help: [
      'start N parts here as processes, one --start-at (default +10s), then',
      'merge them and print the merged run (--json/--csv/--html write it)',
    ],
    doc: 'Start N parts on this machine as processes, with one app.js (unless ' +
      '`--target`/`--url`/`--direct`), one `--start-at` (default `+10s`) and one seed; merge them, ' +
      'print the merged run, write `--json`/`--csv`/`--html`.',
  },
  {
    flag: 'local',
    type: 'boolean',
    setting: null,
    section: 'parts',
    label: null,
    help: ['with --parts N: start the N parts on this machine'],
  },
  {
    flag: 'scenario',
    type: 'string',
    arg: 'NAME',
    setting: null,
    section: 'scenarios',
    help: [
      "run a study's scenario: its own stores, steps and workloads, then its",
      'table beside the published one and a verdict per conclusion',
      '(--scenario list: one line each). Goes with the flags below,',
      '--json, --csv, --html and -q only',
    ],
    doc: 'Re-run a published study ([docs/scenarios.md](scenarios.md)): its own stores, steps and ' +
      'workloads, then its table in the study\'s shape with the published figure beside each of ours ' +
      '(`ours | published`) and one verdict per conclusion (`holds here`, `does not hold here`, `set by ' +
      'the emulation`, `not proven here` where no counter-run can turn it, `not runnable here: ' +
      '<reason>`). `--scenario list` prints one line each. Goes ' +
      'only with `--scale`, `--cloudant-plan`, `--client-rtt`, `--client-bandwidth`, `--store-rtt`, ' +
      '`--store-jitter`, `--store-bandwidth`, `--counter`, `--verdicts`, `--json`, `--csv`, `--html` ' +
      'and `-q` (any other flag exits 2).',
  },
  {
    flag: 'scale',
    type: 'string',
    arg: 'S',
    default: 'default',
    setting: null,
    section: 'scenarios',
    help: [
      'tiny (seconds, for tests), default (at most 5 minutes on 2 cores) or',
      "full (the study's sizes where they fit; the scenario says what not)",
    ],
    docDefault: '`default`',
    doc: 'With `--scenario`: `tiny` (seconds, for tests), `default` (a few minutes on 2 cores: 25 s to ' +
      'about 9 min, cloudant-vs-redis the longest) or `full` (the study\'s sizes where they fit; the ' +
      'scenario says what it scaled down).',
  },
  {
    flag: 'cloudant-plan',
    type: 'string',
    arg: 'P',
    setting: null,
    section: 'scenarios',
    help: [
      "lite: the embedded CouchDB stand-in enforces Cloudant Lite's 20 lookups/s,",
      '10 writes/s, 5 queries/s (429 beyond, retried after 0.5 s by the',
      "CouchDB stores); none: no limits. Default: the scenario's",
      '(cloudant-vs-redis: lite)',
    ],
    docDefault: 'the scenario\'s',
    doc: 'With `--scenario`: `lite` makes the embedded CouchDB stand-in enforce Cloudant Lite\'s 20 ' +
      'lookups/s, 10 writes/s and 5 queries/s (`429` beyond, retried after 0.5 s by the CouchDB stores, ' +
      'counted per step); `none` turns it off. `cloudant-vs-redis` runs with `lite`. For the app: `node ' +
      'app.js --cloudant-plan lite` or `STOREBENCH_CLOUDANT_PLAN=lite`.',
  },
  {
    flag: 'client-rtt',
    type: 'string',
    number: true,
    arg: 'MS',
    setting: null,
    section: 'scenarios',
    help: [
      'a round trip of MS ms between the driver and the app (a new connection',
      'pays one more for its handshake), for the scenarios over HTTP. Default:',
      "the scenario's (cloudant-vs-redis: the study's 300, 0: none)",
    ],
  },
  {
    flag: 'client-bandwidth',
    type: 'string',
    number: true,
    arg: 'SIZE',
    setting: null,
    section: 'scenarios',
    help: [
      'bytes a second each way on each connection between the driver and the',
      "app (cloudant-vs-redis: the study's 325KB; 0: none)",
    ],
  },
  {
    flag: 'counter',
    type: 'boolean',
    setting: null,
    section: 'scenarios',
    help: [
      "after the run, each verdict's counter-run: the system changed so that",
      'its claim comes out the other way in fact; both outcomes side by side',
    ],
    docDefault: 'off',
    doc: 'With `--scenario`: after the run, each verdict\'s counter-run, the same scenario with the system ' +
      'changed so that its claim comes out the other way in fact (a store\'s own network, Cloudant ' +
      'without Lite\'s cap, a memory or CPU limit on a server the run started, ...), both outcomes side ' +
      'by side and in the results file ([docs/scenarios.md](scenarios.md#counter-runs)). ' +
      '`--verdicts ID,...` judges only those conclusions and runs only what they use.',
  },
  {
    flag: 'verdicts',
    type: 'string',
    arg: 'ID,...',
    setting: null,
    section: 'scenarios',
    help: ['judge only these conclusions, and run only what they use'],
  },
];

export const OPTIONS = Object.freeze(ENTRIES.map((entry) => Object.freeze(entry)));

export const camelCase = (flag) => flag.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());

/** The option of each long flag. */
export const OPTION = Object.freeze(Object.fromEntries(OPTIONS.map((option) => [option.flag, option])));

/** The option named by its long flag in camelCase, as run() takes it ({ warmupMax: 5 }). */
export const OPTION_NAMED = new Map(OPTIONS.map((option) => [camelCase(option.flag), option]));

/** Whether code may give the option as a number (index.d.ts: `number | string`). */
export const takesNumber = (option) => Boolean(option.parse || option.number);

/** The default of the option named (camelCase), as the table gives it. */
export const defaultOf = (name) => OPTION_NAMED.get(name).default;

/** node:util parseArgs' spec of the run's flags. */
export const RUN_FLAGS = Object.freeze(Object.fromEntries(OPTIONS.map(({ flag, short, type, multiple }) => [
  flag, { type, ...(short ? { short } : {}), ...(multiple ? { multiple } : {}) },
])));

/** The parseArgs spec of the flags named. */
export const flagSpec = (...flags) => Object.fromEntries(flags.map((flag) => [flag, RUN_FLAGS[flag]]));
