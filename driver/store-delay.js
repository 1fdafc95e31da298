// The network emulated between the stores and their servers (docs/configuration.md#network-emulation),
// as options/store-delay.js reads it from --store-rtt, --store-jitter and --store-bandwidth:
// over HTTP it goes to the app the driver starts (as its STOREBENCH_STORE_* settings), with
// --direct to the stores opened here.
import { perStoreText, storesNamed, valueForEvery, valueForStore } from '../config/setting-values.js';
import { resolveSetting } from '../config/precedence.js';
import { delayActive, delayText } from '../embedded/delay-proxy.js';

// The environment variables the app reads them from (config/settings.js).
const ENV = {
  rttMs: 'STOREBENCH_STORE_RTT_MS',
  jitterMs: 'STOREBENCH_STORE_JITTER_MS',
  bandwidth: 'STOREBENCH_STORE_BANDWIDTH',
};
const KEYS = ['rttMs', 'jitterMs', 'bandwidth'];

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
