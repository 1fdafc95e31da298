// node test's command line: argv -> the object normalizeOptions (driver/options.js) takes, the
// report/compare/merge/k8s subcommands' parsers, and the usage text.
import { parseFlags } from '../util/flags.js';
import { DEFAULT_CONCURRENCY, DEFAULT_DURATION_SECONDS, DEFAULT_TIMEOUT_MS, DEFAULT_WARMUP, LIMITS, QUICK, RUN_FLAGS as spec, TOKEN_ENV, camelCase, normalizeOptions } from '../driver/options.js';

const shown = (value) => value.toLocaleString('en-US');
import { REPORT_COMMANDS_HELP, REPORT_COMMANDS_USAGE, RUN_REPORT_USAGE, parseCompareArguments, parseMergeArguments, parseReportArguments } from './report-options.js';
import { parseK8sArguments } from './k8s-job.js';
import { DEFAULT_RECORDS, DEFAULT_VALUE_SIZE, DISTRIBUTIONS } from '../driver/workloads/definitions.js';
import { MAX_WORKERS, autoWorkers } from '../driver/workers.js';
import { PROBE_IDLE_REQUESTS, PROBE_IDLE_SECONDS, PROBE_MIN_REQUESTS_PER_CLIENT, PROBE_MIN_SECONDS, PROBE_WARMUP_REQUESTS } from '../driver/probe/prober.js';
import { SCENARIO_USAGE } from '../driver/scenario-options.js';
import { HASH_FIELDS } from '../driver/workloads/value-shape.js';
import { WARMUP_MAX_SECONDS, WARMUP_TOLERANCE, WARMUP_WINDOW_SECONDS } from '../driver/warmup.js';
import { DEFAULT_HTTP_ENGINE, HTTP_ENGINE_NAMES } from '../driver/engines/names.js'; // --engine
import { STORE_DELAY_USAGE } from '../driver/store-delay-options.js';
import { PART_USAGE } from '../driver/part-options.js';

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
                         ${PROBE_IDLE_SECONDS} s or ${PROBE_IDLE_REQUESTS} requests before each target's steps (idle, after up
                         to ${PROBE_WARMUP_REQUESTS} untimed warm-up requests: a new connection is slower) and
                         throughout each step (under load); tables show its p50/p99, never counted
                         in the step. -n must be at least ${PROBE_MIN_REQUESTS_PER_CLIENT} x the largest -c, or with --rps
                         last ${PROBE_MIN_SECONDS} s at the largest --rps (docs/direct.md)

${STORE_DELAY_USAGE}

Load:
  -c, --concurrency LIST concurrency steps, comma-separated, each 1 to ${shown(LIMITS.concurrency)}
                         (default: ${DEFAULT_CONCURRENCY.join(',')})
  -n, --requests N       send N requests per step instead, 1 to ${shown(LIMITS.requests)} (the original used 100)
  -t, --duration SECS    run each step for SECS seconds, at most ${shown(LIMITS.duration)} (default: ${DEFAULT_DURATION_SECONDS})
  --rps LIST             open model: send at these fixed rates, each ${LIMITS.minRps} to ${shown(LIMITS.rps)} per
                         second (one step each), instead of a concurrency sweep; latency counts
                         from each request's intended send time
  --warmup N             requests sent to every URL once before the first step (at most 2 s each:
                         the app's JIT, pools and servers), not counted, 0 to ${shown(LIMITS.warmup)}
                         (default: ${DEFAULT_WARMUP}; 0: no warm-up of any kind)
  --warmup-max SECS      before each step, its load runs in ${WARMUP_WINDOW_SECONDS} s windows until one is no faster
                         than the last (within ${WARMUP_TOLERANCE * 100}%), at most SECS (default: ${WARMUP_MAX_SECONDS}; 0: none);
                         a step whose warm-up never settled carries NOT_STEADY
  --order ORDER          interleaved (default): at each level one step of every URL, shuffled
                         with --seed, then the next level; the first step is measured again at
                         the end (the control). sequential: every level of a URL, then the next
  --no-control           do not measure the first step again after the last (the control); for
                         a workload whose extra writes would matter
  --quick                a one-minute overview: --keys ${QUICK.keys.join(',')} -c ${QUICK.concurrency.join(',')} -t ${QUICK.duration} unless given
  --no-keepalive         a new connection per request (the original's behaviour;
                         default: keep-alive)
  --engine NAME          what sends the HTTP requests: ${HTTP_ENGINE_NAMES.join(' or ')} (default: ${DEFAULT_HTTP_ENGINE}).
                         fast writes HTTP/1.1 to sockets itself, at a fraction of loadtest's CPU
                         per request: for targets faster than the driver. Timing and figures
                         are the same either way (docs/measurement.md)
  --timeout MS           per-request deadline in milliseconds, 1 to ${shown(LIMITS.timeout)} (default: ${DEFAULT_TIMEOUT_MS})
                         Every request a step starts is waited for, up to this deadline.
  A -c or --rps list has at most ${LIMITS.steps} values.
  --workers N|auto       run each step in N worker threads, 1 to ${MAX_WORKERS} (default: 1; auto: one per
                         core less one, here ${autoWorkers()}), each with its share of the concurrency or
                         rate; their histograms are added, counts summed; with --direct each
                         opens its own connection (memory runs in the main thread). Refuses
                         workloads that insert (insert, ycsb-d); skips the read-back of written
                         values when several workers write (docs/measurement.md)

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

/**
 * Parses argv (without node and script). Returns { command, help, options, problems }:
 * command 'run' (a sweep), 'report' (options.file: a saved run to print), 'compare'
 * (options.a, options.b: two saved runs) or 'merge' (options.files: runs of several machines).
 * A run's flags become the object normalizeOptions takes (long names in camelCase), so a run
 * from code and one from the command line are checked by the same rules, in the same words.
 */
export function parseArguments(argv, env = process.env) {
  if (argv[0] === 'report') return parseReportArguments(argv.slice(1));
  if (argv[0] === 'compare') return parseCompareArguments(argv.slice(1));
  if (argv[0] === 'merge') return parseMergeArguments(argv.slice(1));
  if (argv[0] === 'k8s') return { command: 'k8s', ...parseK8sArguments(argv.slice(1), { parseRun: parseArguments }) };
  const { values, problems } = parseFlags(argv, spec);
  // What parseFlags already reported (an unknown flag, a missing value) is left out of the object.
  const given = Object.entries(values).filter(([name, value]) => spec[name] && fitsSpec(spec[name], value));
  const normalized = normalizeOptions(Object.fromEntries(given.map(([name, value]) => [camelCase(name), value])), env);
  return { ...normalized, problems: [...problems, ...normalized.problems] };
}

function fitsSpec(entry, value) {
  if (entry.type === 'boolean') return typeof value === 'boolean';
  return entry.multiple ? Array.isArray(value) : typeof value === 'string';
}
