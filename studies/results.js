// What the sweep and phases kinds share: options as node test's argv, several Results as one.
import { createResult } from '../result/result.js';
import { largestPeakRss } from '../driver/peak-rss.js';

/** The command line that would run a scenario's options: '--value-size 100 --concurrency 5,10'. */
export function commandLine(options) {
  const flag = (name) => `--${name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
  return Object.entries(options).flatMap(([name, value]) => {
    if (value === true) return [flag(name)];
    return [flag(name), Array.isArray(value) ? value.join(',') : String(value)];
  }).join(' ');
}

/** One Result of several run() calls of one driver, one after another (not merged machines). */
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
