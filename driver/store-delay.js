// The network emulated between the stores and their servers (--store-rtt and its kin): for the
// app the driver starts, or for the stores opened here with --direct.
import { perStoreText, storesNamed, valueForEvery, valueForStore } from '../config/setting-values.js';
import { resolveSetting } from '../config/precedence.js';
import { delayActive, delayText } from '../embedded/delay-proxy.js';

const ENV = {
  rttMs: 'STOREBENCH_STORE_RTT_MS',
  jitterMs: 'STOREBENCH_STORE_JITTER_MS',
  bandwidth: 'STOREBENCH_STORE_BANDWIDTH',
};
const KEYS = ['rttMs', 'jitterMs', 'bandwidth'];

const SETTINGS = { rttMs: 'storeRtt', jitterMs: 'storeJitter', bandwidth: 'storeBandwidth' };

/** The app's environment for the flags given (empty for none): they beat the driver's own environment. */
export const storeDelayEnv = (delay) =>
  Object.fromEntries(Object.entries(delay ?? {}).map(([key, value]) => [ENV[key], perStoreText(value)]));

export const storeDelaySettings = (delay) =>
  Object.fromEntries(Object.entries(delay ?? {}).map(([key, value]) => [SETTINGS[key], value]));

const namedIn = (delay) => [...new Set(KEYS.flatMap((key) => storesNamed(delay?.[key])))];

/** A delay made whole: { rttMs, jitterMs, bandwidth } for every store, and `stores` per named store. */
export function wholeStoreDelay(delay) {
  if (delay?.stores) return delay; // whole already
  const every = Object.fromEntries(KEYS.map((key) => [key, valueForEvery(delay?.[key]) ?? 0]));
  const names = namedIn(delay);
  if (!names.length) return every;
  const stores = Object.fromEntries(names.map((name) =>
    [name, Object.fromEntries(KEYS.map((key) => [key, valueForStore(delay[key], name) ?? 0]))]));
  return { ...every, stores };
}

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

/** The delay a run's stores get, from the flags, else the environment; null for none. */
export function effectiveStoreDelay(delay, env = process.env) {
  const options = storeDelaySettings(delay);
  const resolved = Object.fromEntries(KEYS.map((key) => [key, resolveSetting(SETTINGS[key], { options, env }).value]));
  const whole = wholeStoreDelay(resolved);
  return storeDelayActive(whole) ? whole : null;
}
