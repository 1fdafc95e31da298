// The Result a benchmark resolves to, and that a results file holds (docs/results-format.md;
// report/fields.js defines each field). `format` names its shape and version.
import { compareStores } from './comparison.js';

export const RESULTS_FORMAT = 'storebench-results/5';

/**
 * Assembles a Result from what a run collected; the comparison is computed from the steps.
 * peakRss (driver/peak-rss.js) is left out when not given (a merged Result: each machine's file
 * has its own).
 */
export function createResult({
  interrupted, appExit, settings, system, targets, skipped, steps,
  loads = [], verifications = [], merged = null, peakRss,
}) {
  const comparison = compareStores(steps);
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
    steps,
    verifications,
    comparison,
    merged,
    ...memory,
  };
}
