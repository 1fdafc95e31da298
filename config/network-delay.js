// An emulated network's delay as a setting (embedded/delay-proxy.js emulates it): whether one is
// set and what it is in words, and the stores' own (--store-rtt and its kin) for the app the
// driver starts or for the stores opened with --direct, from the flags, else the environment.
import { perStoreText, storesNamed, valueForEvery, valueForStore } from './setting-values.js';
import { resolveSetting } from './precedence.js';

export const delayActive = ({ rttMs = 0, jitterMs = 0, bandwidth = 0 } = {}) =>
  rttMs > 0 || jitterMs > 0 || bandwidth > 0;

export function delayText({ rttMs = 0, jitterMs = 0, bandwidth = 0, perConnection = false } = {}) {
  const parts = [`RTT ${rttMs} ms${jitterMs > 0 ? ` ± ${jitterMs} ms` : ''}`];
  if (bandwidth > 0) parts.push(`${bandwidthText(bandwidth)} each way${perConnection ? ' per connection' : ''}`);
  return parts.join(', ');
}

function bandwidthText(bytesPerSecond) {
  const units = [['GB/s', 1024 ** 3], ['MB/s', 1024 ** 2], ['KB/s', 1024]];
  const [unit, size] = units.find(([, bytes]) => bytesPerSecond >= bytes) ?? ['B/s', 1];
  return `${Number((bytesPerSecond / size).toFixed(2))} ${unit}`;
}

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
function wholeStoreDelay(delay) {
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
