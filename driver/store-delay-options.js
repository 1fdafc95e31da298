// --store-rtt, --store-jitter, --store-bandwidth on node test: the network emulated between the
// stores and their servers (docs/configuration.md#network-emulation). Each takes one value for
// every store, or STORE=value items for some (--store-rtt 10,redis=40). Over HTTP they go to the
// app the driver starts (as its STOREBENCH_STORE_* settings), with --direct to the stores opened
// here; a running app (--target, --url) has its own settings, so they do not apply to it.
import {
  byteSize, delayMs, perStore, perStoreText, SettingValueError, storesNamed, valueForEvery, valueForStore,
} from '../config/setting-values.js';
import { resolveSetting } from '../config/precedence.js';
import { delayActive, delayText } from '../embedded/delay-proxy.js';
import { unknownStoreProblems } from '../stores/index.js';

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
const KEYS = ['rttMs', 'jitterMs', 'bandwidth'];

/**
 * { rttMs?, jitterMs?, bandwidth? }: the flags given (each left out when not; each a number for
 * every store, or { all?, stores: { [name]: number } }), or null when none was; problems pushed.
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
      const value = perStore(parse)(values[flag]);
      const unknown = unknownStoreProblems(storesNamed(value), `--${flag}`);
      problems.push(...unknown);
      return unknown.length ? undefined : value;
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
  Object.fromEntries(Object.entries(delay ?? {}).map(([key, value]) => [ENV[key], perStoreText(value)]));

/** The explicit store settings for the flags given, for openStores (empty for none). */
export const storeDelaySettings = (delay) =>
  Object.fromEntries(Object.entries(delay ?? {}).map(([key, value]) => [SETTINGS[key], value]));

/** Every store named in a delay's items. */
const namedIn = (delay) => [...new Set(KEYS.flatMap((key) => storesNamed(delay?.[key])))];

/**
 * A delay as flags or settings give it, made whole: { rttMs, jitterMs, bandwidth } for every
 * store (0 for none), and `stores: { [name]: { rttMs, jitterMs, bandwidth } }` for each store
 * named in it, when any is.
 */
export function wholeStoreDelay(delay) {
  if (delay?.stores) return delay; // whole already
  const every = Object.fromEntries(KEYS.map((key) => [key, valueForEvery(delay?.[key]) ?? 0]));
  const names = namedIn(delay);
  if (!names.length) return every;
  const stores = Object.fromEntries(names.map((name) =>
    [name, Object.fromEntries(KEYS.map((key) => [key, valueForStore(delay[key], name) ?? 0]))]));
  return { ...every, stores };
}

/** Whether a delay (as wholeStoreDelay's, or flags') delays anything: every store's, or one store's own. */
export function storeDelayActive(delay) {
  if (!delay) return false;
  const whole = wholeStoreDelay(delay);
  return delayActive(whole) || Object.values(whole.stores ?? {}).some(delayActive);
}

/** A delay in words: "RTT 10 ms; redis: RTT 40 ms", or "redis: RTT 40 ms (others: none)". */
export function storeDelayText(delay) {
  const whole = wholeStoreDelay(delay);
  const own = Object.entries(whole.stores ?? {}).map(([name, one]) =>
    `${name}: ${delayActive(one) ? delayText(one) : 'none'}`);
  if (!own.length) return delayText(whole);
  return delayActive(whole)
    ? `${delayText(whole)}; ${own.join('; ')}`
    : `${own.join('; ')} (the other stores: none)`;
}

/**
 * The delay a run's stores get, from the flags and else the environment (as the app and
 * openStores resolve it): wholeStoreDelay's shape, or null when there is none.
 */
export function effectiveStoreDelay(delay, env = process.env) {
  const options = storeDelaySettings(delay);
  const resolved = Object.fromEntries(KEYS.map((key) => [key, resolveSetting(SETTINGS[key], { options, env }).value]));
  const whole = wholeStoreDelay(resolved);
  return storeDelayActive(whole) ? whole : null;
}
