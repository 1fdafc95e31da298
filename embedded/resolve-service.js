// Where each backing server comes from: the one rule of config/precedence.js (an option, an
// environment variable, a Cloud Foundry binding), else the embedded default, if it can be started.
import { services } from '../config/services.js';
import { settings } from '../config/settings.js';
import { resolveSetting } from '../config/precedence.js';
import { locationProblem } from '../config/service-url.js';
import { redactUrl } from '../util/redact.js';
import { storesNamed, valueForEvery, valueForStore } from '../config/setting-values.js';
import { delayActive, delayText } from '../config/network-delay.js';
import { startEmbedded } from './index.js';

/**
 * @param {string} name  a key of config/services.js
 * @param {{ env?: object, options?: object, embedded?: boolean }} [sources]
 * @returns {Promise<{ connection: object, stop?: () => Promise<void> } | { unavailable: string, code: string }>}
 *   With a network emulated for every store, url is a delaying proxy's, display the server's.
 */
export async function resolveService(name, { env = process.env, options = {}, embedded = true } = {}) {
  const resolved = await locateService(name, { env, options, embedded });
  const delay = everyStoreDelay({ options, env });
  if (!resolved.connection || !delayActive(delay)) return resolved;
  const { delayConnection } = await import('./delayed-connection.js');
  const delayed = await delayConnection(name, resolved.connection, delay);
  if (delayed.unavailable) {
    await resolved.stop?.();
    return { unavailable: delayed.unavailable, code: 'DELAY_UNSUPPORTED' };
  }
  const stop = async () => {
    await delayed.stop();
    await resolved.stop?.();
  };
  const display = `${resolved.connection.display} (delayed: ${delayText(delay)})`;
  // serverUrl: where the server itself listens, for whatever must find its process (driver/machine-load.js).
  const server = { serverUrl: resolved.connection.url, serverDisplay: resolved.connection.display };
  return { connection: { ...delayed.connection, display, delay, ...server }, stop };
}

// --store-rtt redis=40: each of the store's own values, else every store's; null for a store none names.
export function ownStoreDelay(store, settings) {
  const values = [settings.storeRtt, settings.storeJitter, settings.storeBandwidth];
  if (!values.some((value) => storesNamed(value).includes(store))) return null;
  const [rttMs, jitterMs, bandwidth] = values.map((value) => valueForStore(value, store) ?? 0);
  return { rttMs, jitterMs, bandwidth };
}

// With no delay active, the server itself.
export async function ownConnection(service, connection, delay) {
  const server = {
    ...connection,
    url: connection.serverUrl ?? connection.url,
    display: connection.serverDisplay ?? connection.display,
  };
  delete server.delay;
  if (!delayActive(delay)) return { connection: server };
  const { delayConnection } = await import('./delayed-connection.js');
  const delayed = await delayConnection(service, server, delay);
  if (delayed.unavailable) return { unavailable: delayed.unavailable, code: 'DELAY_UNSUPPORTED' };
  const display = `${server.display} (delayed: ${delayText(delay)})`;
  return {
    connection: { ...delayed.connection, display, delay, serverUrl: server.url, serverDisplay: server.display },
    stop: delayed.stop,
  };
}

function everyStoreDelay(sources) {
  const every = (key) => valueForEvery(resolveSetting(key, sources).value) ?? 0;
  return { rttMs: every('storeRtt'), jitterMs: every('storeJitter'), bandwidth: every('storeBandwidth') };
}

async function locateService(name, { env, options, embedded }) {
  const service = services[name];
  if (!service) throw new Error(`unknown backing service "${name}"`);
  const located = resolveSetting(service.location, { options, env });
  // A Cloud Foundry binding that cannot be read at all; a location that can is checked below.
  if (located.problem) return { unavailable: located.problem, code: 'BAD_BINDING' };
  const added = connectionSettings(service, { options, env });
  if (located.value) {
    const connection = { ...located.value, ...added };
    const problem = locationProblem(service.url, connection.url);
    if (problem) return unusable(located.source, service, problem);
    return { connection: describe(connection, located.source, service) };
  }

  if (!embedded) {
    const where = settings[service.location];
    const orBind = where.cloudFoundry ? ' or bind a service on Cloud Foundry' : '';
    return { unavailable: `not configured: set ${where.env.join(' or ')}${orBind}`, code: 'NOT_CONFIGURED' };
  }
  try {
    const server = await startEmbedded(name, env, options);
    return { connection: describe({ url: server.url, ...added }, 'embedded', service), stop: server.stop };
  } catch (error) {
    return { unavailable: error.message, code: error.code === 'NOT_INSTALLED' ? 'NOT_INSTALLED' : 'START_FAILED' };
  }
}

function connectionSettings(service, sources) {
  const added = {};
  for (const [field, key] of Object.entries(service.connectionSettings ?? {})) {
    const { value } = resolveSetting(key, sources);
    if (value !== undefined) added[field] = value;
  }
  return added;
}

function describe(connection, source, service) {
  return { ...connection, source, display: redactUrl(connection.url, { serverList: service.url?.serverList }) };
}

// The reason names where the location came from and what is wrong, never the value.
function unusable(source, service, problem) {
  if (source.startsWith('VCAP_SERVICES ')) {
    const name = source.slice('VCAP_SERVICES '.length);
    return { unavailable: `bound service "${name}": its credentials make a URL that ${problem}`, code: 'BAD_BINDING' };
  }
  const where = source === 'option' ? `option ${service.location}` : source;
  return { unavailable: `${where} ${problem}`, code: 'BAD_URL' };
}
