// What the kinds that call runBenchmark share (sweep, phases): a run's flags as node test's
// argv, and several runBenchmark Results as one.
import { createResult } from '../result/result.js';
import { largestPeakRss } from '../driver/peak-rss.js';

/**
 * node test's argv for a run's flags:
 * { concurrency: [5, 10], keepalive: false } -> ['--concurrency', '5,10', '--no-keepalive'].
 */
// A scenario's flags ({ 'value-size': 100, verify: false }) as the object normalizeOptions takes
// ({ valueSize: 100, noVerify: true }): the same names a user gives run().
export function flagsToOptions(flags) {
  const camel = (name) => name.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());
  return Object.fromEntries(Object.entries(flags).map(([name, value]) =>
    (value === false ? [camel(`no-${name}`), true] : [camel(name), value])));
}

// The same flags as the command line that would run them, for the Result to show.
export function flagsText(flags) {
  return Object.entries(flags).flatMap(([name, value]) => {
    if (value === false) return [`--no-${name}`];
    if (value === true) return [`--${name}`];
    return [`--${name}`, Array.isArray(value) ? value.join(',') : String(value)];
  }).join(' ');
}

/**
 * One Result of several runBenchmark calls of one driver: their steps, targets, loads and
 * checks, one after another (not result/merge.js's mergeResults, which adds up the same steps
 * of several machines).
 */
export function concatResults(results) {
  const [first] = results;
  const targets = new Map();
  for (const result of results) for (const target of result.targets) targets.set(target.url, target);
  const steps = results.flatMap((result) => result.steps);
  const concurrency = [...new Set(steps.map((step) => step.concurrency).filter((value) => value !== null))];
  return createResult({
    interrupted: results.some((result) => result.interrupted),
    appExit: results.find((result) => result.appExit)?.appExit ?? null,
    settings: { ...first.settings, concurrency: first.settings.concurrency ? concurrency : null },
    system: first.system,
    targets: [...targets.values()],
    skipped: first.skipped,
    steps,
    loads: results.flatMap((result) => result.loads),
    verifications: results.flatMap((result) => result.verifications),
    peakRss: largestPeakRss(results.map((result) => result.peakRss)),
  });
}
