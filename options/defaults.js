// The defaults and bounds of node test's options that are the options' own: plain data that the
// table (its help lines), normalizeOptions (its checks) and the tests read. Those the driver runs
// with as well are in config/run-defaults.js.
import os from 'node:os';

// Four levels from the original's six (5 to 30 by 5): the curve's shape at two thirds of the
// time, so a default run of every store (39 URLs) stays under ten minutes on a 2-core machine,
// warm-ups included (docs/measurement.md). `-c 5,10,15,20,25,30` is the original's sweep.
export const DEFAULT_CONCURRENCY = [5, 10, 20, 30];
// Steps are timed by default: a request count finishes in well under a second on a fast
// store (too few samples, flagged as weak) and takes minutes on a slow one.
export const DEFAULT_DURATION_SECONDS = 2;
export const DEFAULT_WARMUP = 500;
export const REPEAT_LIMIT = 100;
// --order: driver/schedule.js plans steps in either.
export const ORDERS = ['interleaved', 'sequential'];
// --quick: a one-minute overview of every store (what it sets unless the flag is given).
export const QUICK = Object.freeze({ keys: ['key1'], concurrency: [5, 20], duration: 1 });

// The largest value each number may take (an unbounded -c grew without end, a
// --timeout past Node's timer limit of 2^31-1 ms fired at once).
export const LIMITS = Object.freeze({
  concurrency: 10_000, // clients in one step (each holds up to two sockets)
  requests: 10_000_000,
  duration: 3600,
  rps: 100_000,
  pipeline: 1000,
  minRps: 0.01, // one request per 100 s
  warmup: 1_000_000, // requests (a warm-up also stops after 2 s)
  warmupMax: 600,
  timeout: 600_000, // ten minutes
  steps: 100, // values in a -c or --rps list
  records: 100_000_000, // ten-digit record numbers
  seed: 2 ** 32 - 1,
});

// --threads: driver threads that send one step's load together.
export const MAX_WORKERS = 256;
/** --threads auto: one per core, less one for the main thread and the rest of the machine, at least 1. */
export const autoWorkers = (cores = os.availableParallelism?.() ?? os.cpus().length) => Math.max(1, cores - 1);

// --probe: a probe request takes about as long as one of the step's, so a step must last
// enough of them.
export const PROBE_MIN_REQUESTS_PER_CLIENT = 10;
export const PROBE_MIN_SECONDS = 0.1;
