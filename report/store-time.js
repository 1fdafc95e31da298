// How the reports show a step's store time (result/store-time.js): columns beside the latency
// when the target said it (Server-Timing), and one line saying what it is; in direct mode, where
// it is the latency itself, only that line.
import { failedStep } from '../result/ranking.js';

export const STORE_TIME_HEADERS = ['storeP50', 'storeP99', 'storeMean'];

// A store's own time is often a few µs (the memory store): under 1 ms it keeps three decimals.
export const formatStoreMs = (value) => {
  if (value === null || value === undefined) return '-';
  return value.toFixed(value < 1 ? 3 : 2);
};

/** Whether any of `steps` (or their operations) carries a store time from the target's header. */
export const hasServerStoreTime = (steps) => steps.some((step) =>
  step.storeTime?.source === 'server-timing' ||
  step.operations?.some((operation) => operation.storeTime?.source === 'server-timing'));

/** The store-time cells of a step or an operation: p50, p99, mean; '-' where it has none, or failed. */
export function storeTimeCells(figures) {
  const { storeTime } = figures;
  if (!storeTime || failedStep(figures)) return STORE_TIME_HEADERS.map(() => '-');
  return [formatStoreMs(storeTime.p50Ms), formatStoreMs(storeTime.p99Ms), formatStoreMs(storeTime.meanMs)];
}

/** The line under a table that says what its store time is, or null when it has none. */
export function storeTimeNote(steps) {
  if (steps.some((step) => step.mode === 'direct')) {
    return 'store time = latency here (--direct: each call is the store\'s own, with no app and no network)';
  }
  if (!hasServerStoreTime(steps)) return null;
  const missing = steps.some((step) => !failedStep(step) && !step.storeTime);
  return 'store: the store\'s own time inside the app (Server-Timing), ms; the rest of the latency is the app\'s ' +
    `and the network's${missing ? '; - where the target sent none' : ''}`;
}
