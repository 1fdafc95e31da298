// node test --help: the run's usage text, and its sections for the store network, the split
// runs and the scenarios. Written from the options' own limits and defaults (driver/), so the
// text cannot promise what the parser refuses.
import {
  DEFAULT_CONCURRENCY, DEFAULT_DURATION_SECONDS, DEFAULT_TIMEOUT_MS, DEFAULT_WARMUP, LIMITS, QUICK,
} from '../options/normalize.js';
import { TOKEN_ENV } from '../driver/app-process.js';
import { REPORT_COMMANDS_HELP, REPORT_COMMANDS_USAGE, RUN_REPORT_USAGE } from './report-options.js';
import { DEFAULT_RECORDS, DEFAULT_VALUE_SIZE, DISTRIBUTIONS } from '../driver/workloads/definitions.js';
import { availableParallelism } from 'node:os';
import { MAX_WORKERS, autoWorkers } from '../driver/workers.js';
import {
  PROBE_IDLE_REQUESTS, PROBE_IDLE_SECONDS, PROBE_MIN_REQUESTS_PER_CLIENT, PROBE_MIN_SECONDS, PROBE_WARMUP_REQUESTS,
} from '../driver/probe/prober.js';
import { HASH_FIELDS } from '../driver/workloads/value-shape.js';
import { WARMUP_MAX_SECONDS, WARMUP_TOLERANCE, WARMUP_WINDOW_SECONDS } from '../driver/warmup.js';
import { DEFAULT_HTTP_ENGINE, HTTP_ENGINE_NAMES } from '../driver/engines/names.js'; // --engine

const shown = (value) => value.toLocaleString('en-US');
// Values the text quotes, named here so that each line below reads as it prints.
const probeIdle = `${PROBE_IDLE_SECONDS} s or ${PROBE_IDLE_REQUESTS} requests`;
const probeMinPerClient = PROBE_MIN_REQUESTS_PER_CLIENT;
const maxDuration = shown(LIMITS.duration);
const maxTimeout = shown(LIMITS.timeout);
const warmupTolerance = WARMUP_TOLERANCE * 100;
const warmupMax = WARMUP_MAX_SECONDS;
const quick = `--keys ${QUICK.keys.join(',')} -c ${QUICK.concurrency.join(',')} -t ${QUICK.duration}`;
const engines = HTTP_ENGINE_NAMES.join(' or ');

// --store-rtt, --store-jitter, --store-bandwidth (options/store-delay.js).
const STORE_DELAY_USAGE = `Network between the stores and their servers (docs/configuration.md#network-emulation):
  --store-rtt MS         a round trip of MS ms (half each way) through a delaying proxy in front
                         of each store's server, embedded or configured: given to the app this
                         starts, or applied here with --direct (default: 0, none). STORE=MS
                         items give one store its own (redis=40, or 10,redis=40)
  --store-jitter MS      each one-way delay varies at random by up to MS either side
  --store-bandwidth SIZE bytes a second each way to each server (100KB, 10MB)
                         (both also take STORE=value items)`;

// --start-at, --part, --parts --local (options/parts.js).
const PART_USAGE = `Several drivers, one run (docs/merge.md):
  --start-at TIME        prepare (target reachable, priming, load phase), then wait until TIME
                         (ISO with zone, 2025-06-01T12:00:00Z, or +SECS from now) before the
                         first step; not ready by then: exit 1. Records its start and clock
  --part I/N             this driver is part I of N: its share of -c, --rps and -n, loads and
                         inserts only its slice of --records, its own seed drawn from --seed
                         (needed: the same for every part, as is the order of the steps)
  --parts N --local      start N parts here as processes, one --start-at (default +10s), then
                         merge them and print the merged run (--json/--csv/--html write it)`;

// --scenario and its own flags (options/scenario.js).
const SCENARIO_USAGE = `Scenarios (docs/scenarios.md): the published studies, re-run here beside their figures
  --scenario NAME        run a study's scenario: its own stores, steps and workloads, then its
                         table beside the published one and a verdict per conclusion
                         (--scenario list: one line each). Goes with the flags below,
                         --json, --csv, --html and -q only
  --scale S              tiny (seconds, for tests), default (at most 5 minutes on 2 cores) or
                         full (the study's sizes where they fit; the scenario says what not)
  --cloudant-plan P      lite: the embedded CouchDB stand-in enforces Cloudant Lite's 20 lookups/s,
                         10 writes/s, 5 queries/s (429 beyond, retried after 0.5 s by the
                         CouchDB stores); none: no limits. Default: the scenario's
                         (cloudant-vs-redis: lite)
  --client-rtt MS        a round trip of MS ms between the driver and the app (a new connection
                         pays one more for its handshake), for the scenarios over HTTP. Default:
                         the scenario's (cloudant-vs-redis: the study's 300, 0: none)
  --client-bandwidth SIZE
                         bytes a second each way on each connection between the driver and the
                         app (cloudant-vs-redis: the study's 325KB; 0: none)
  --counter              after the run, each verdict's counter-run: the system changed so that
                         its claim comes out the other way in fact; both outcomes side by side
  --verdicts ID,...      judge only these conclusions, and run only what they use
  --store-rtt MS, --store-jitter MS, --store-bandwidth SIZE
                         the network between the app and its stores (STORE=value items too), for
                         the scenarios over HTTP and in direct mode but cluster-vs-document.
                         Default: none`;

export const usage = `Usage: node test [options]
${REPORT_COMMANDS_USAGE}

Sweeps concurrency against the storebench app (or any URLs) with loadtest and prints, per URL,
rps and latency measured per request with sub-millisecond precision, then a comparison.
${REPORT_COMMANDS_HELP}

With neither --url nor --target it starts app.js as a child process on a free port, sweeps every
store that is up x key1..key3, and stops it.

Targets:
  --target URL           sweep a running app: reads URL/stores, sweeps the stores that are up
  -u, --url URL          sweep this URL (repeatable); no /stores listing is read
  --stores LIST          only these stores (comma-separated; embedded default or --target)
  --keys LIST            only these keys (default: every key the store lists, key1..key3)
  --direct               call the store adapters in this process instead of the app over HTTP:
                         the stores (--stores, default all) are opened as app.js opens them
                         (env, VCAP_SERVICES, embedded servers), same workloads and tables;
                         not with --no-keepalive, which is about HTTP (docs/direct.md)
  --probe                a separate prober in its own thread sends one request at a time: for
                         ${probeIdle} before each target's steps (idle, after up
                         to ${PROBE_WARMUP_REQUESTS} untimed warm-up requests: a new connection is slower) and
                         throughout each step (under load); tables show its p50/p99, never counted
                         in the step. -n must be at least ${probeMinPerClient} x the largest -c, or with --rps
                         last ${PROBE_MIN_SECONDS} s at the largest --rps (docs/direct.md)
  --no-server-timing     the app this starts leaves out its Server-Timing header (store;dur=MS),
                         so no step has a store time: the app's CPU without it (default: each
                         step reports the store's own time inside the app beside the latency)
  --probe-size SIZE      with --direct and a key-space workload, the value the probe writes or reads
                         under its own key (default 100 B: 10KB to probe 10 KB values)

${STORE_DELAY_USAGE}

Load:
  -c, --concurrency LIST concurrency steps, comma-separated, each 1 to ${shown(LIMITS.concurrency)}
                         (default: ${DEFAULT_CONCURRENCY.join(',')})
  -n, --requests N       send N requests per step instead, 1 to ${shown(LIMITS.requests)} (the original used 100)
  -t, --duration SECS    run each step for SECS seconds, at most ${maxDuration} (default: ${DEFAULT_DURATION_SECONDS})
  --rps LIST             open model: send at these fixed rates, each ${LIMITS.minRps} to ${shown(LIMITS.rps)} per
                         second (one step each), instead of a concurrency sweep; latency counts
                         from each request's intended send time
  --pipeline N           with --direct: each caller sends N calls at once, the next N when all N
                         are back (redis-benchmark -P N), each call timed and counted; 1 to ${shown(LIMITS.pipeline)}
                         (default: 1). Only stores whose client pipelines (without --stores:
                         those), not with --rps (docs/direct.md)
  --warmup N             requests sent to every URL once before the first step (at most 2 s each:
                         the app's JIT, pools and servers), not counted, 0 to ${shown(LIMITS.warmup)}
                         (default: ${DEFAULT_WARMUP}; 0: no warm-up of any kind)
  --warmup-max SECS      before each step, its load runs in ${WARMUP_WINDOW_SECONDS} s windows until one is no faster
                         than the last (within ${warmupTolerance}%), at most SECS (default: ${warmupMax}; 0: none,
                         and no warm-up of the app as a whole either); a step whose warm-up
                         never settled carries NOT_STEADY. First the app itself warms: its
                         first URL at the highest load in 0.5 s windows, 2 s at least, at most
                         SECS
  --order ORDER          interleaved (default): at each level one step of every URL, shuffled
                         with --seed, then the next level; the first step is measured again at
                         the end (the control). sequential: every level of a URL, then the next
  --no-control           do not measure the first step again after the last (the control); for
                         a workload whose extra writes would matter
  --quick                a one-minute overview: ${quick} unless given
  --no-keepalive         a new connection per request (the original's behaviour;
                         default: keep-alive)
  --engine NAME          what sends the HTTP requests: ${engines} (default: ${DEFAULT_HTTP_ENGINE}).
                         fast writes HTTP/1.1 to sockets itself, at a fraction of loadtest's CPU
                         per request: for targets faster than the driver. Timing and figures
                         are the same either way (docs/measurement.md)
  --timeout MS           per-request deadline in milliseconds, 1 to ${maxTimeout} (default: ${DEFAULT_TIMEOUT_MS})
                         Every request a step starts is waited for, up to this deadline.
  A -c or --rps list has at most ${LIMITS.steps} values.
  --workers N|auto       run each step in N worker threads, 1 to ${MAX_WORKERS} (default: 1; auto: one per
                         core less one, here ${autoWorkers()}), each with its share of the concurrency or
                         rate; their histograms are added, counts summed; with --direct each
                         opens its own connection (memory runs in the main thread). Refuses
                         workloads that insert (insert, ycsb-d); skips the read-back of written
                         values when several workers write (docs/measurement.md)
  --app-workers N|auto   start app.js as N processes (app.js --workers; auto: one per CPU, here
                         ${availableParallelism()}), the embedded servers once for all of them: one Express
                         process is often the limit (docs/measurement.md). Default: 1. Not with
                         --target, --url or --direct. memory then refuses writes (each worker has
                         its own copy), and is left out of key-space workloads

Workload (docs/workloads.md):
  -w, --workload NAME    what each request does: read (default), write, update, insert, append,
                         mixed:R/W (R% reads, W% updates), ycsb-a, ycsb-b, ycsb-c, ycsb-d, ycsb-f;
                         --workload list describes each. Without --records, read is the seeded
                         key1..key3 as always; anything else runs over a key space
  --records N            the key space: records user0000000000 .. user<N-1>, 1 to ${shown(LIMITS.records)}
                         (default with a workload: ${shown(DEFAULT_RECORDS)}). Loaded first through the
                         app's bulk route, measured as its own table
  --value-size SIZE      value bytes: 100, 10KB, 1MB (K = 1024) or a range MIN-MAX drawn per
                         request, 1 byte to 16 MB (default: ${DEFAULT_VALUE_SIZE})
  --distribution NAME    which records the requests pick:
                         ${Object.keys(DISTRIBUTIONS).join(', ')}
                         (hotspot:H/O: H% of records take O% of requests; default: the workload's)
  --seed N               the same order, keys, operations and values again: 0 to ${shown(LIMITS.seed)}
                         (default: a random seed, recorded in the results)
  --value-shape SHAPE    with --direct: bytes (default: each value as it is) or hash: each value
                         as ${HASH_FIELDS} fields f0..f${HASH_FIELDS - 1} splitting its bytes, in the store's own hash
                         type where it has one (Redis HSET), else as JSON of base64 fields;
                         hash needs a key space (--records or a workload) and refuses append
  --no-load              do not load the records first (they are there from an earlier run)
  --no-verify            do not read back a sample of written values after the run
  --token TOKEN          the app's write token (default: $${TOKEN_ENV}); the embedded
                         default makes one up for the app it starts. Never printed

Output:
  --json FILE            write settings, system info and every step (with histograms) as JSON;
                         "-" writes it to stdout and the tables to stderr
  --csv FILE             write one CSV row per step
  -q, --quiet            no progress line and no "starting app.js" line (the progress line is
                         also off when stderr is not a terminal)
  -h, --help             show this help

${RUN_REPORT_USAGE}

${PART_USAGE}

${SCENARIO_USAGE}

Exit codes: 0 done; 1 the run failed (target unreachable, bad /stores, app.js died, a store
named in --stores could not be swept or had a step with no success, a written value read back
different, a results file could not be written at the end) or the report's file cannot be
read; 2 bad flags, a --json/--csv file that cannot be written (checked before any load), a file
that is not a results file of this version, or files merge refuses (they differ in target,
workload or settings); 3 a --assert threshold was missed, or compare --fail-on-regression found
a regression; 130 interrupted (Ctrl-C: the finished steps are still printed and written).`;
