// --store-rtt, --store-jitter, --store-bandwidth on node test: the network emulated between the
// stores and their servers (docs/configuration.md#network-emulation). Over HTTP they go to the
// app the driver starts (as its STOREBENCH_STORE_* settings), with --direct to the stores opened
// here; a running app (--target, --url) has its own settings, so they do not apply to it.
import { byteSize, delayMs, SettingValueError } from '../config/setting-values.js';
import { resolveSetting } from '../config/precedence.js';
import { delayActive } from '../embedded/delay-proxy.js';

export const STORE_DELAY_FLAGS = {
  'store-rtt': { type: 'string' },
  'store-jitter': { type: 'string' },
  'store-bandwidth': { type: 'string' },
};

// The environment variables the app reads them from (config/settings.js).
const ENV = {
  rttMs: 'STOREBENCH_STORE_RTT_MS',
  jitterMs: 'STOREBENCH_STORE_JITTER_MS',
  bandwidth: 'STOREBENCH_STORE_BANDWIDTH',
};

/**
 * { rttMs?, jitterMs?, bandwidth? }: the flags given (each left out when not), or null when none
 * was; problems pushed.
 */
export function parseStoreDelay(values, problems, { overRunningApp = false } = {}) {
  const given = Object.keys(STORE_DELAY_FLAGS).filter((flag) => typeof values[flag] === 'string');
  if (!given.length) return null;
  if (overRunningApp) {
    problems.push(`--${given[0]} applies to the app node test starts (or to --direct): ` +
      'a running app (--target, --url) takes its own --store-rtt');
    return null;
  }
  const read = (flag, parse) => {
    if (typeof values[flag] !== 'string') return undefined;
    try {
      return parse(values[flag]);
    } catch (error) {
      if (!(error instanceof SettingValueError)) throw error;
      problems.push(`--${flag} ${error.message}, not "${values[flag]}"`);
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

const SETTINGS = { rttMs: 'storeRttMs', jitterMs: 'storeJitterMs', bandwidth: 'storeBandwidth' };

/** The app's environment for the flags given (empty for none): they beat the driver's own environment. */
export const storeDelayEnv = (delay) =>
  Object.fromEntries(Object.entries(delay ?? {}).map(([key, value]) => [ENV[key], String(value)]));

/** The explicit store settings for the flags given, for openStores (empty for none). */
export const storeDelaySettings = (delay) =>
  Object.fromEntries(Object.entries(delay ?? {}).map(([key, value]) => [SETTINGS[key], value]));

/**
 * The delay a run's stores get, from the flags and else the environment (as the app and
 * openStores resolve it): { rttMs, jitterMs, bandwidth }, or null when there is none.
 */
export function effectiveStoreDelay(delay, env = process.env) {
  const options = storeDelaySettings(delay);
  const value = (key) => {
    const resolved = resolveSetting(SETTINGS[key], { options, env });
    return resolved.value ?? 0;
  };
  const effective = { rttMs: value('rttMs'), jitterMs: value('jitterMs'), bandwidth: value('bandwidth') };
  return delayActive(effective) ? effective : null;
}
