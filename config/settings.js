// Every setting storebench reads, declared once; config/precedence.js answers each, and
// test/unit/configuration-doc.test.js keeps docs/configuration.md in step. A declaration:
//   scope         who reads it: app, http, writes, service, store, cf-scripts, tools
//   flag, env     the command-line option; environment variables, the first one set wins
//   cloudFoundry  env -> { value, source } | { problem } | undefined; varsFile: (cf-scripts) its default
//   default, parse (config/setting-values.js), secret (never quoted in a problem), about (--help)
//   cfText, defaultText   words for --help and the doc where that tier is code, not a value
//   namesStores   its value may name stores (STORE=VALUE): each name is checked against the registry
// app.js's flags are these declarations' flags (cli/app-options.js reads them): '--port N' takes a
// value; a flag with none is a switch, '--metrics' turning its setting on and '--no-embedded' off.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { services } from './services.js';
import { resolveFromVcap } from './cf-binding.js';
import { cloudFoundryApplication, cloudFoundryPort } from './cf-env.js';
import {
  address, bearerToken, byteSize, connection, deadlineMs, delayMs, httpUrl, jsonText, listOf, onOff, onOrOff, oneOf,
  perStore, port, positiveInteger, positiveNumber, serverLimit, text, workerCount,
} from './setting-values.js';

// The frameworks the app can be served by (app/frameworks/ has an adapter for each).
export const FRAMEWORK_NAMES = ['express', 'fastify', 'node'];

const frameworkList = (raw) => [...new Set(listOf('framework')(raw).map(oneOf(FRAMEWORK_NAMES)))];

const boundService = (name) => (env) => {
  const bound = resolveFromVcap(name, services[name].vcap, env);
  if (!bound) return undefined;
  if (bound.unavailable) return { problem: bound.unavailable };
  return { value: bound.connection, source: bound.source };
};

const serviceLocation = ({ service, env, about }) => ({
  scope: 'service',
  env,
  ...(services[service].vcap
    ? { cloudFoundry: boundService(service), cfText: `a bound service matched as ${service} (label, tag or name)` }
    : {}),
  defaultText: 'the embedded default starts one here (not with --no-embedded)',
  parse: connection,
  secret: true,
  about,
});

export const settings = {
  // The app ------------------------------------------------------------------------------
  port: {
    scope: 'app',
    flag: '--port N',
    env: ['PORT'],
    cloudFoundry: cloudFoundryPort,
    cfText: 'CF_INSTANCE_PORT, else VCAP_APP_PORT, else VCAP_APPLICATION\'s port',
    default: 3000,
    parse: port,
    about: 'port to listen on; 0 picks a free one',
  },
  host: {
    scope: 'app',
    flag: '--host H',
    env: ['HOST'],
    // The platform's router reaches the container over IPv4.
    cloudFoundry: (env) => (cloudFoundryApplication(env) ? { value: '0.0.0.0', source: 'Cloud Foundry' } : undefined),
    cfText: '0.0.0.0',
    defaultText: 'all interfaces',
    parse: address,
    about: 'address to bind',
  },
  logRequests: {
    scope: 'app',
    flag: '--log',
    env: ['STOREBENCH_LOG'],
    default: false,
    defaultText: 'off: logging distorts benchmarks',
    parse: onOff,
    about: 'log every request (the variable: 1, true or yes)',
  },
  metrics: {
    scope: 'app',
    flag: '--metrics',
    env: ['STOREBENCH_METRICS'],
    default: false,
    defaultText: 'off: nothing is recorded and /metrics answers 404',
    parse: onOff,
    about: 'serve GET /metrics in Prometheus text: requests and latency per store and route, store operations, queue ' +
      'and pool sizes, event loop delay (the variable: 1, true or yes)',
  },
  allowProfiling: {
    scope: 'app',
    flag: '--allow-profiling',
    env: ['STOREBENCH_ALLOW_PROFILING'],
    default: false,
    defaultText: 'off: POST /_profile/* answers 403 PROFILING_OFF',
    parse: onOff,
    about: 'let node test --profile take a CPU profile of every app process around each step (POST /_profile/start ' +
      'and /_profile/stop, from loopback or with the write token; the variable: 1, true or yes)',
  },
  serverTiming: {
    scope: 'app',
    flag: '--no-server-timing',
    env: ['STOREBENCH_SERVER_TIMING'],
    default: true,
    defaultText: 'on: every answer from a store carries it',
    parse: onOrOff,
    about: 'leave out the Server-Timing header of the store routes\' answers (store;dur=MS, app;dur=MS: how long ' +
      'the store took inside the app; the variable: 0, false, no or off leave it out, 1, true, yes or on keep it)',
  },
  // WEB_CONCURRENCY: the common convention (Heroku's buildpacks set it), below our own variable.
  workers: {
    scope: 'app',
    flag: '--workers N',
    env: ['STOREBENCH_WORKERS', 'WEB_CONCURRENCY'],
    default: 1,
    parse: workerCount,
    about: 'N app processes serving the port (node:cluster), each with its own store clients, 1 to 256, or auto: ' +
      'one per CPU this process may use. The embedded servers start once, for all of them; memory then refuses ' +
      'writes (405 PER_WORKER_STORE: each worker has its own copy), and a worker that dies stops the app (exit 1)',
  },
  framework: {
    scope: 'app',
    flag: '--framework LIST',
    env: ['STOREBENCH_FRAMEWORK'],
    default: ['express'],
    defaultText: 'express',
    parse: frameworkList,
    about: `what serves the routes: ${FRAMEWORK_NAMES.join(', ')} (node: bare node:http, no framework). ` +
      'Several, comma-separated: each on its own port (the first on the port, the next on the ports after it, ' +
      'or each a free one with port 0), over the same stores',
  },
  stores: {
    scope: 'app',
    flag: '--stores LIST',
    env: [],
    defaultText: 'all',
    parse: listOf('store name'),
    about: 'comma-separated stores to open',
  },
  embedded: {
    scope: 'app',
    flag: '--no-embedded',
    env: [],
    default: true,
    defaultText: 'on: a store with nothing configured gets a server started here',
    parse: onOff,
    about: 'never start local servers: a store with nothing configured is then unavailable',
  },

  // The app's HTTP server: a benchmark target needs seconds, not Node's minutes (app/http-server.js).
  // No flags: tuned rarely, and the environment carries them to app.js children as well.
  headersTimeoutMs: {
    scope: 'http',
    env: ['STOREBENCH_HEADERS_TIMEOUT_MS'],
    default: 10_000,
    parse: deadlineMs,
    about: 'deadline for a request\'s headers to arrive whole, from its first byte: past it the app answers ' +
      '408 REQUEST_TIMEOUT and closes the connection',
  },
  requestTimeoutMs: {
    scope: 'http',
    env: ['STOREBENCH_REQUEST_TIMEOUT_MS'],
    default: 30_000,
    parse: deadlineMs,
    about: 'deadline for a whole request (headers and body) to arrive: past it 408 REQUEST_TIMEOUT and the ' +
      'connection closes; at least the headers deadline',
  },
  bodyIdleTimeoutMs: {
    scope: 'http',
    env: ['STOREBENCH_BODY_IDLE_TIMEOUT_MS'],
    default: 10_000,
    parse: deadlineMs,
    about: 'longest pause between two pieces of a write\'s body: past it 408 REQUEST_TIMEOUT and the connection closes',
  },
  keepAliveTimeoutMs: {
    scope: 'http',
    env: ['STOREBENCH_KEEP_ALIVE_TIMEOUT_MS'],
    // Longer than common load balancers' idle timeouts (60 s), so the app never closes a
    // connection one of them is about to reuse.
    default: 65_000,
    parse: deadlineMs,
    about: 'how long an idle keep-alive connection (no request under way) is kept open: past it the app closes it ' +
      'quietly (no answer is owed)',
  },

  // The write routes (PUT, DELETE, append, bulk load) ----------------------------------------
  maxValueSize: {
    scope: 'writes',
    flag: '--max-value-size N',
    env: ['STOREBENCH_MAX_VALUE_SIZE'],
    default: 16 * 1024 ** 2,
    parse: byteSize,
    about: 'largest value a write may carry (bytes, or with KB, MB, GB; 16 MB): a larger one gets ' +
      '413 VALUE_TOO_LARGE before any store sees it',
  },
  maxBulkSize: {
    scope: 'writes',
    env: ['STOREBENCH_MAX_BULK_SIZE'],
    default: 64 * 1024 ** 2,
    parse: byteSize,
    about: 'largest bulk-load body, POST /<store> (bytes, or with KB, MB, GB; 64 MB): a ' +
      'larger one gets 413 BULK_TOO_LARGE',
  },
  // No flag: a token on a command line is in the process list.
  writeToken: {
    scope: 'writes',
    env: ['STOREBENCH_WRITE_TOKEN'],
    defaultText: 'none: writes only while the app listens on loopback',
    parse: bearerToken,
    secret: true,
    about: 'the bearer token every write must carry (Authorization: Bearer <token>); unset, writes are allowed only ' +
      'when the app listens on loopback',
  },

  // Where each backing server is ------------------------------------------------------------
  redisUrl: serviceLocation({
    service: 'redis',
    env: ['REDIS_URL'],
    about: 'the Redis of redis, ioredis, postgres+redis and redis+postgres',
  }),
  redisClusterUrls: serviceLocation({
    service: 'redis-cluster',
    env: ['REDIS_CLUSTER_URLS'],
    about: 'the Redis Cluster of redis-cluster',
  }),
  memcachedUrl: serviceLocation({
    service: 'memcached',
    env: ['MEMCACHED_URL', 'MEMCACHED_SERVERS'],
    about: 'the memcached of memcached',
  }),
  couchdbUrl: serviceLocation({
    service: 'couchdb',
    env: ['CLOUDANT_URL', 'COUCHDB_URL'],
    about: 'the Cloudant or CouchDB of cloudant, cloudant-legacy and couchdb-nano',
  }),
  cloudantApikey: {
    scope: 'service',
    env: ['CLOUDANT_APIKEY'],
    // A binding's apikey comes only with that binding's URL (config/cf-credentials.js).
    cfText: 'the bound Cloudant\'s apikey, with that binding\'s URL',
    defaultText: 'none: basic auth from the URL',
    parse: text,
    secret: true,
    about: 'an IBM Cloud IAM API key for the CouchDB stores (couchdb-nano has no IAM: it is then unavailable)',
  },
  postgresUrl: serviceLocation({
    service: 'postgres',
    env: ['POSTGRES_URL', 'DATABASE_URL'],
    about: 'the PostgreSQL of postgres, postgres+redis and redis+postgres',
  }),
  tarantoolUrl: serviceLocation({
    service: 'tarantool',
    env: ['TARANTOOL_URL'],
    about: 'the Tarantool of tarantool and tarantool-memtx (spaces storebench_vinyl and storebench_memtx, or ' +
      'a user allowed to create them)',
  }),

  // How the stores use their servers ----------------------------------------------------------
  couchdbDatabase: {
    scope: 'store',
    env: ['CLOUDANT_DB'],
    default: 'storebench',
    parse: text,
    about: 'database of cloudant; cloudant-legacy and couchdb-nano append -legacy and -nano (each created if missing)',
  },
  cloudantIamUrl: {
    scope: 'store',
    env: ['CLOUDANT_IAM_URL'],
    default: 'https://iam.cloud.ibm.com',
    parse: httpUrl,
    about: 'the IBM Cloud IAM token service an API key is exchanged at, for cloudant and cloudant-legacy ' +
      '(a private or staging endpoint)',
  },
  // The embedded CouchDB stand-in as a Cloudant Lite instance (study 000 ran on one).
  cloudantPlan: {
    scope: 'store',
    flag: '--cloudant-plan PLAN',
    env: ['STOREBENCH_CLOUDANT_PLAN'],
    default: 'none',
    parse: oneOf(['lite', 'none']),
    about: 'lite: the embedded CouchDB stand-in answers 429 past Cloudant Lite\'s 20 lookups/s, 10 writes/s and ' +
      '5 queries/s (each a sliding one-second window), and the CouchDB stores retry a 429 after 0.5 s; none: no ' +
      'limits. Only the embedded stand-in: a real Cloudant has its own plan',
  },
  // The embedded servers' own value limits, raised (the driver refuses a larger --value-size up front).
  memcachedItemSize: {
    scope: 'store',
    flag: '--memcached-item-size SIZE',
    env: ['STOREBENCH_MEMCACHED_ITEM_SIZE'],
    default: 1024 ** 2,
    // 512 KB: memcached's own chunk size for large items, which -I must be a multiple of.
    parse: serverLimit({ min: 1024 ** 2, step: 512 * 1024, what: 'memcached -I' }),
    about: 'the embedded memcached\'s item size limit, memcached -I (a multiple of 512 KB, from 1 MB to 1 GB): ' +
      'it takes values up to this less 309 bytes (item header, CAS, the longest key). ' +
      'Only the embedded server: a configured one keeps its own -I',
  },
  tarantoolTupleSize: {
    scope: 'store',
    flag: '--tarantool-tuple-size SIZE',
    env: ['STOREBENCH_TARANTOOL_TUPLE_SIZE'],
    default: 1024 ** 2,
    parse: serverLimit({ min: 1024 ** 2, step: 1, what: 'box.cfg memtx_max_tuple_size and vinyl_max_tuple_size' }),
    about: 'the embedded Tarantool\'s largest tuple, box.cfg memtx_max_tuple_size and vinyl_max_tuple_size ' +
      '(from 1 MB to 1 GB): it takes values up to this less 272 bytes (memtx) or 290 (vinyl). ' +
      'Only the embedded server: a configured one keeps its own box.cfg',
  },
  // A network between the stores and their servers, emulated by a delaying proxy (embedded/delay-proxy.js).
  storeRtt: {
    scope: 'store',
    namesStores: true, // STORE=VALUE items
    flag: '--store-rtt MS',
    env: ['STOREBENCH_STORE_RTT_MS'],
    default: 0,
    defaultText: '0: no delay',
    parse: perStore(delayMs),
    about: 'emulate a network between the stores and their servers: a round trip of MS milliseconds, half each way, ' +
      'through a delaying TCP proxy in front of each server (not TLS, Unix sockets or a Redis Cluster: those stores ' +
      'are then unavailable, DELAY_UNSUPPORTED); STORE=MS items (redis=40,postgres=5) give named stores their own, ' +
      'a plain MS beside them every other store\'s',
  },
  storeJitter: {
    scope: 'store',
    namesStores: true, // STORE=VALUE items
    flag: '--store-jitter MS',
    env: ['STOREBENCH_STORE_JITTER_MS'],
    default: 0,
    defaultText: '0: none',
    parse: perStore(delayMs),
    about: 'with the emulated network: each one-way delay varies at random by up to MS ' +
      'either side (never reordering bytes); STORE=MS items as --store-rtt',
  },
  storeBandwidth: {
    scope: 'store',
    namesStores: true, // STORE=VALUE items
    flag: '--store-bandwidth SIZE',
    env: ['STOREBENCH_STORE_BANDWIDTH'],
    defaultText: 'unlimited',
    parse: perStore(byteSize),
    about: 'with the emulated network: bytes a second each way to each server (100KB, 10MB: powers of ' +
      '1024), shared by all its connections; STORE=SIZE items as --store-rtt',
  },
  postgresPoolSize: {
    scope: 'store',
    env: ['POSTGRES_POOL_SIZE'],
    default: 10,
    parse: positiveInteger,
    about: 'connections in each PostgreSQL pool',
  },
  postgresWrites: {
    scope: 'store',
    env: ['STOREBENCH_POSTGRES_WRITES'],
    default: 'concurrent',
    parse: oneOf(['concurrent', 'serial']),
    about: 'concurrent (each write on its own pooled connection, row locks ordering them) or serial (one write at a ' +
      'time per table, as study 004\'s app did)',
  },
  postgresReads: {
    scope: 'store',
    env: ['STOREBENCH_POSTGRES_READS'],
    default: 'key',
    parse: oneOf(['key', 'join']),
    about: 'key (one primary-key lookup) or join (study 004\'s schema: an item_locations row joined to its ' +
      'locations row, through two indexes)',
  },
  flushIntervalMs: {
    scope: 'store',
    env: ['STOREBENCH_FLUSH_INTERVAL_MS'],
    default: 200,
    parse: positiveInteger,
    about: 'milliseconds redis+postgres lets writes gather before flushing them to PostgreSQL',
  },
  writeBehindQueue: {
    scope: 'store',
    env: ['STOREBENCH_WRITE_BEHIND_QUEUE'],
    default: 'redis',
    parse: oneOf(['redis', 'memory']),
    about: 'where redis+postgres keeps the writes PostgreSQL has not got yet: redis (a journal written in the same ' +
      'MULTI as each value, replayed at start: a kill -9 of the app loses nothing Redis keeps) or memory (no journal ' +
      'entry per write; a kill -9 of the app loses from PostgreSQL the writes not yet flushed, ' +
      'up to a flush interval of them)',
  },
  // The operation deadline bounds every request's latency: a store slow enough under load to pass it
  // gets 503s counted instead of slow answers; raise it to benchmark one.
  openTimeoutMs: {
    scope: 'store',
    env: ['STOREBENCH_OPEN_TIMEOUT_MS'],
    default: 5000,
    parse: deadlineMs,
    about: 'deadline to open a store (connect and seed): past it the app listens without it ' +
      '(OPEN_TIMEOUT) and retries in the background',
  },
  opTimeoutMs: {
    scope: 'store',
    env: ['STOREBENCH_OP_TIMEOUT_MS'],
    default: 2000,
    parse: deadlineMs,
    about: 'deadline for one store operation (get, set, delete, ping): past it the request gets 503 STORE_TIMEOUT',
  },

  // The Cloud Foundry scripts (npm run login, service_create, ...) ------------------------------
  cfApi: {
    scope: 'cf-scripts',
    env: ['CF_API'],
    defaultText: 'none: npm run login needs it',
    parse: text,
    about: 'the platform\'s API endpoint, for cf login -a',
  },
  cfOrg: { scope: 'cf-scripts', env: ['CF_ORG'], defaultText: 'cf login asks', parse: text, about: 'org for cf login' },
  cfSpace: {
    scope: 'cf-scripts',
    env: ['CF_SPACE'],
    defaultText: 'cf login asks',
    parse: text,
    about: 'space for cf login',
  },
  cfVarsFile: {
    scope: 'cf-scripts',
    env: ['CF_VARS_FILE'],
    default: 'vars.yml',
    parse: text,
    about: 'the vars file with the manifest\'s variables',
  },
  cfApp: {
    scope: 'cf-scripts',
    env: ['CF_APP'],
    varsFile: 'app_name',
    parse: text,
    about: 'the app whose bindings npm run vcap_services shows',
  },
  cfRoute: {
    scope: 'cf-scripts',
    env: ['CF_ROUTE'],
    varsFile: 'route',
    parse: text,
    about: 'the app\'s route, for npm run page',
  },
  appUrl: {
    scope: 'cf-scripts',
    env: ['STOREBENCH_URL'],
    defaultText: 'https://<route>',
    parse: text,
    about: 'the deployed app\'s URL, for npm run page',
  },
  cloudantService: {
    scope: 'cf-scripts',
    env: [],
    varsFile: 'cloudant_service',
    parse: text,
    about: 'the Cloudant service instance service_create/service_delete make and remove',
  },
  cloudantOffering: {
    scope: 'cf-scripts',
    env: ['CLOUDANT_OFFERING'],
    default: 'cloudantnosqldb',
    parse: text,
    about: 'marketplace offering for the Cloudant instance (IBM Cloudant)',
  },
  cloudantServicePlan: { scope: 'cf-scripts', env: ['CLOUDANT_PLAN'], default: 'lite', parse: text, about: 'its plan' },
  cloudantServiceParams: {
    scope: 'cf-scripts',
    env: ['CLOUDANT_SERVICE_PARAMS'],
    defaultText: 'none',
    parse: jsonText,
    secret: true,
    about: 'JSON for cf create-service -c, e.g. {"legacyCredentials": false}',
  },
  redisService: {
    scope: 'cf-scripts',
    env: [],
    varsFile: 'redis_service',
    parse: text,
    about: 'the Redis service instance service_create/service_delete make and remove',
  },
  redisOffering: {
    scope: 'cf-scripts',
    env: ['REDIS_OFFERING'],
    default: 'rediscloud',
    parse: text,
    about: 'marketplace offering for the Redis instance (Redis Cloud; p.redis on Tanzu)',
  },
  redisPlan: { scope: 'cf-scripts', env: ['REDIS_PLAN'], default: '30mb', parse: text, about: 'its plan' },
  redisServiceParams: {
    scope: 'cf-scripts',
    env: ['REDIS_SERVICE_PARAMS'],
    defaultText: 'none',
    parse: jsonText,
    secret: true,
    about: 'JSON for cf create-service -c',
  },

  // Other tools ---------------------------------------------------------------------------------
  clusterStateFile: {
    scope: 'tools',
    env: ['STOREBENCH_CLUSTER_STATE'],
    default: join(tmpdir(), 'storebench-redis-cluster.json'),
    defaultText: '<temp dir>/storebench-redis-cluster.json',
    parse: text,
    about: 'where npm run cluster:start leaves its pid and URLs for cluster:stop',
  },
  resultsDir: {
    scope: 'tools',
    env: ['STOREBENCH_RESULTS_DIR'],
    default: 'storebench-results',
    parse: text,
    about: 'the folder node test keeps each run in, a folder per run',
  },
  perfSeconds: {
    scope: 'tools',
    env: ['PERF_SECONDS'],
    default: 10,
    parse: positiveNumber,
    about: 'seconds npm run perf measures each URL for',
  },
};

/** The write token's variable: node test hands the app it starts its token there. */
export const TOKEN_ENV = settings.writeToken.env[0];

export const defaults = Object.freeze(Object.fromEntries(Object.entries(settings)
  .map(([key, setting]) => [key, setting.default])));

/** The settings whose values may name stores, by key: [key, flag] (--store-rtt redis=40). */
export const storeNamingSettings = () => Object.entries(settings)
  .filter(([, setting]) => setting.namesStores)
  .map(([key, setting]) => [key, setting.flag.split(' ')[0]]);
