// node test's options about what it measures: the targets (the app it starts, a running one, URLs
// or the stores in this process), what it sees beside the load (--profile, --probe, Server-Timing)
// and the network emulated between the stores and their servers. options/table.js assembles them.
import { FRAMEWORK_NAMES } from '../../config/settings.js';
import { PROBE_IDLE_REQUESTS, PROBE_IDLE_SECONDS, PROBE_WARMUP_REQUESTS } from '../../config/run-defaults.js';
import { PROBE_MIN_REQUESTS_PER_CLIENT, PROBE_MIN_SECONDS } from '../defaults.js';

const probeIdle = `${PROBE_IDLE_SECONDS} s or ${PROBE_IDLE_REQUESTS} requests`;
const probeMinPerClient = PROBE_MIN_REQUESTS_PER_CLIENT;

export const TARGET_OPTIONS = [
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
      `what serves the app node test starts: ${FRAMEWORK_NAMES.join(', ')} (node: bare`,
      'node:http, no framework); several, comma-separated, are swept side by side',
      'like stores (default: express, the app the studies describe). Not with',
      '--target, --url or --direct',
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
];
