// The load of a run, from its options (options/table/load.js): its levels (-c or --rps), each
// step's length, the warm-ups, the order, the deadline, --pipeline and --probe, with the quick
// overview's defaults; and --threads, the driver threads that carry it. Problems pushed.
import {
  MAX_WORKERS, ORDERS, PROBE_MIN_REQUESTS_PER_CLIENT, PROBE_MIN_SECONDS, QUICK, autoWorkers,
} from './defaults.js';
import { defaultOf } from './table.js';
import { positiveInteger } from './values.js';

/**
 * { concurrency, requests, duration, rps, warmup, warmupMaxSeconds, order, control, timeoutMs,
 * pipeline, probe }, every default applied.
 */
export function loadOptions({ text, listOf, single }, values, problems, { direct }) {
  const concurrency = listOf('concurrency');
  const requests = single('requests');
  const duration = single('duration');
  const rps = listOf('rps');
  const warmup = single('warmup');
  const warmupMax = single('warmupMax');
  const order = text('order');
  if (order !== undefined && !ORDERS.includes(order)) {
    problems.push(`--order must be ${ORDERS.join(' or ')}, not "${order}"`);
  }
  const quick = values.quick === true;
  const timeout = single('timeout');
  if (requests !== undefined && duration !== undefined) {
    problems.push('use either -n/--requests or -t/--duration, not both');
  }
  if (rps && concurrency) problems.push('--rps replaces the concurrency sweep: drop -c/--concurrency');
  const pipeline = parsePipeline(single('pipeline'), { direct, rps }, problems);
  const probe = values.probe === true;
  if (probe) {
    const levels = concurrency ?? defaultOf('concurrency');
    problems.push(...probeProblems({ requests, duration, rps, concurrency: levels, pipeline }));
  }
  return {
    concurrency: concurrency ?? (quick && !rps ? QUICK.concurrency : defaultOf('concurrency')),
    requests,
    duration: requests === undefined ? duration ?? (quick ? QUICK.duration : defaultOf('duration')) : undefined,
    rps,
    warmup: warmup ?? defaultOf('warmup'),
    warmupMaxSeconds: warmupMax ?? defaultOf('warmupMax'),
    order: order ?? defaultOf('order'),
    control: values.noControl !== true,
    timeoutMs: timeout ?? defaultOf('timeout'),
    pipeline,
    probe,
  };
}

// --pipeline N: 1 when not given; problems pushed. Direct mode's closed loop only: over HTTP
// each request waits for its answer on its connection, and the open model starts each call at
// its own scheduled time, which a batch of N sent at once would not keep (docs/direct.md).
function parsePipeline(pipeline = defaultOf('pipeline'), { direct, rps }, problems) {
  if (pipeline === 1) return 1;
  if (!direct) {
    problems.push(`--pipeline ${pipeline} needs --direct: over HTTP every request waits for its answer ` +
      'before its connection sends the next');
  } else if (rps) {
    problems.push(`--pipeline ${pipeline} sends ${pipeline} calls at once from each caller of the closed loop (-c); ` +
      'the open model (--rps) starts each call at its own scheduled time: drop one of them');
  }
  return pipeline;
}

// --probe needs steps long enough to probe: a probe request takes about as long as one of the
// step's, so a step of N requests at concurrency C lasts about N / C of them.
function probeProblems({ requests, duration, rps, concurrency, pipeline = 1 }) {
  if (requests !== undefined && requests !== null) {
    if (rps) {
      const fastest = Math.max(...rps.filter(Number.isFinite));
      const least = Math.ceil(fastest * PROBE_MIN_SECONDS);
      if (requests >= least) return [];
      return [`--probe: -n ${requests} at ${fastest} rps lasts under ${PROBE_MIN_SECONDS} s, ` +
        `too short to probe: use -n ${least} or more`];
    }
    // --pipeline N: each client's N calls at a time take about one call's time.
    const clients = Math.max(...concurrency.filter(Number.isFinite));
    const widest = clients * pipeline;
    const least = widest * PROBE_MIN_REQUESTS_PER_CLIENT;
    const lasts = Math.round((requests / widest) * 10) / 10;
    const level = pipeline > 1 ? `concurrency ${clients} x --pipeline ${pipeline}` : `concurrency ${clients}`;
    if (requests >= least) return [];
    return [`--probe: -n ${requests} is too few to probe at ${level} (a step lasts about ${lasts} requests' time; ` +
      `the probe needs ${PROBE_MIN_REQUESTS_PER_CLIENT}): use -n ${least} or more`];
  }
  if (duration !== undefined && duration !== null && duration < PROBE_MIN_SECONDS) {
    return [`--probe: steps of ${duration} s are too short to probe: use -t ${PROBE_MIN_SECONDS} or more`];
  }
  return [];
}

// --threads N|auto: 1 when not given; problems pushed.
export function parseWorkers(raw, problems) {
  if (raw === undefined) return defaultOf('workers');
  if (raw === 'auto') return autoWorkers();
  const value = positiveInteger(raw);
  if (value === null || value > MAX_WORKERS) {
    problems.push(`--threads must be a whole number from 1 to ${MAX_WORKERS} or auto, not "${raw}"`);
    return 1;
  }
  return value;
}

/** --threads N with a workload that inserts: refused, since only one thread can take the next new key. */
export function workerInsertProblems(workers, workload) {
  if (workers <= 1 || !workload.mix.some(({ operation }) => operation === 'insert')) return [];
  return [`--threads ${workers}: ${workload.name} inserts, ` +
    'and each insert takes the next new key in turn, which only one thread can do: use --threads 1'];
}
