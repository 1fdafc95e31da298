// How long a sweep will take, said before it starts: a default `node test` runs for minutes,
// and a large --records load for longer than its steps.
import { WARMUP_WINDOW_SECONDS } from '../config/run-defaults.js';
import { keySlice } from './parts.js';

// A warm-up is about three windows per step (2.9 in a 36-step run: docs/measurement.md).
const STEADY_WINDOWS = 3;
const FIRST_STEP_EXTRA_WINDOWS = 2;
const PRIMING_SECONDS = 0.5;
const APP_WARMUP_SECONDS = 2.5;

// The load phase's pace per store through app.js, from `npm run perf:load-rate` on 2 shared
// vCPUs at load average 2 (2026-11-27); at load average 4 some stores were up to 3x slower.
export const LOAD_RATES = Object.freeze({
  memory: { recordsPerSecond: 100_000, bytesPerSecond: 130_000_000 },
  redis: { recordsPerSecond: 81_000, bytesPerSecond: 140_000_000 },
  ioredis: { recordsPerSecond: 100_000, bytesPerSecond: 140_000_000 },
  'redis-cluster': { recordsPerSecond: 14_000, bytesPerSecond: 37_000_000 },
  memcached: { recordsPerSecond: 26_000, bytesPerSecond: 260_000_000 },
  cloudant: { recordsPerSecond: 6_700, bytesPerSecond: 17_000_000 },
  'cloudant-legacy': { recordsPerSecond: 6_400, bytesPerSecond: 20_000_000 },
  'couchdb-nano': { recordsPerSecond: 7_100, bytesPerSecond: 28_000_000 },
  postgres: { recordsPerSecond: 72_000, bytesPerSecond: 78_000_000 },
  'postgres+redis': { recordsPerSecond: 28_000, bytesPerSecond: 57_000_000 },
  // Larger values cost it next to nothing more: PostgreSQL gets them after the load, written behind.
  'redis+postgres': { recordsPerSecond: 19_000, bytesPerSecond: 4_600_000_000 },
  tarantool: { recordsPerSecond: 29_000, bytesPerSecond: 13_000_000 },
  'tarantool-memtx': { recordsPerSecond: 30_000, bytesPerSecond: 170_000_000 },
});

/**
 * The seconds the load phase should take, or null when the run loads nothing.
 * @param {object} settings  the Result's
 * @param {string[]} stores  each target's store, once per target
 */
export function estimateLoadSeconds(settings, stores) {
  if (!settings.records || !settings.load || !stores.length) return null;
  const slice = settings.part?.count > 1 ? keySlice(settings.records, settings.part) : null;
  const records = slice ? slice.loadTo - slice.loadFrom : settings.records;
  const meanBytes = ((settings.valueSizeMin ?? 0) + (settings.valueSizeMax ?? 0)) / 2;
  let seconds = 0;
  const unknown = [];
  for (const store of stores) {
    const rate = LOAD_RATES[store];
    if (!rate) {
      if (!unknown.includes(store)) unknown.push(store);
      continue;
    }
    seconds += records / rate.recordsPerSecond + (records * meanBytes) / rate.bytesPerSecond;
  }
  return { seconds, records, targets: stores.length, unknown };
}

/** The seconds a sweep should take; null when its steps are counted (-n), not timed. */
export function estimateRunSeconds({ settings, targets, levels, load = null }) {
  if (!settings.duration) return null;
  const warming = settings.warmup > 0;
  const steadyWarmup = warming && settings.warmupMaxSeconds > 0 ? STEADY_WINDOWS * WARMUP_WINDOW_SECONDS : 0;
  const steps = targets * levels * (settings.repeat ?? 1);
  const control = settings.control !== false && (settings.repeat ?? 1) === 1 && steps > 1 ? 1 : 0;
  const perStep = settings.duration + steadyWarmup;
  const perTarget = (warming ? PRIMING_SECONDS : 0) +
    (steadyWarmup ? FIRST_STEP_EXTRA_WINDOWS * WARMUP_WINDOW_SECONDS : 0);
  const app = steadyWarmup ? APP_WARMUP_SECONDS : 0;
  return app + (steps + control) * perStep + targets * perTarget + (load?.seconds ?? 0);
}
