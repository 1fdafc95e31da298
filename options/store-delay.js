// --store-rtt, --store-jitter, --store-bandwidth on node test. Each takes one value for every
// store, or STORE=value items for some (--store-rtt 10,redis=40); a running app (--target, --url)
// has its own settings, so they do not apply to it (config/network-delay.js hands them on).
import { byteSize, delayMs, perStore, SettingValueError, storesNamed } from '../config/setting-values.js';
import { unknownStoreProblems } from '../config/store-names.js';
import { camelCase, flagSpec } from './table.js';

export const STORE_DELAY_FLAGS = flagSpec('store-rtt', 'store-jitter', 'store-bandwidth');

/**
 * { rttMs?, jitterMs?, bandwidth? }: the flags given (each left out when not; each a number for
 * every store, or { all?, stores: { [name]: number } }), or null when none was; problems pushed.
 */
export function parseStoreDelay(values, problems, { overRunningApp = false } = {}) {
  const given = Object.keys(STORE_DELAY_FLAGS).filter((flag) => values[camelCase(flag)] !== undefined);
  if (!given.length) return null;
  if (overRunningApp) {
    problems.push(`--${given[0]} applies to the app node test starts (or to --direct): ` +
      'a running app (--target, --url) takes its own --store-rtt');
    return null;
  }
  const read = (flag, parse) => {
    const given = values[camelCase(flag)];
    if (given === undefined) return undefined;
    try {
      const value = perStore(parse)(given);
      const unknown = unknownStoreProblems(storesNamed(value), `--${flag}`);
      problems.push(...unknown);
      return unknown.length ? undefined : value;
    } catch (error) {
      if (!(error instanceof SettingValueError)) throw error;
      problems.push(`--${flag} ${error.message}, not "${given}"`);
      return undefined;
    }
  };
  const delay = {
    rttMs: read('store-rtt', delayMs),
    jitterMs: read('store-jitter', delayMs),
    bandwidth: read('store-bandwidth', byteSize),
  };
  return Object.fromEntries(Object.entries(delay).filter(([, value]) => value !== undefined));
}
