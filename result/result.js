// The Result a benchmark resolves to, and that a results file holds (docs/results-format.md;
// result/fields.js defines each field). `format` names its shape and version.
import { compareStores } from './comparison.js';

export const RESULTS_FORMAT = 'storebench-results/6';

/**
 * Assembles a Result from what a run collected; the comparison is computed from the steps,
 * with the control's drift as the run's noise (result/ranking.js). peakRss (driver/peak-rss.js)
 * is left out when not given (a merged Result: each machine's file has its own).
 */
export function createResult({
  interrupted, appExit, settings, system, targets, skipped, order = [], steps, control = null,
  appWarmup, loads = [], verifications = [], merged = null, peakRss,
}) {
  const comparison = compareStores(steps, { drift: control?.drift ?? null });
  const memory = peakRss ? { peakRss } : {};
  return {
    format: RESULTS_FORMAT,
    interrupted,
    appExit,
    settings,
    system,
    targets,
    skipped,
    loads,
    order,
    steps,
    control,
    ...(appWarmup === undefined ? {} : { appWarmup }),
    verifications,
    comparison,
    merged,
    ...memory,
  };
}
