// Which processes are the app and each store server, found once before a sweep so that
// driver/tier-cpu.js can read their CPU around every step (a remote target through /metrics, a
// remote Redis through INFO cpu).
import os from 'node:os';
import { listeningPidsByPort, readProcessTable, treePids } from './machine-load.js';
import { services } from '../config/services.js';
import { resolveSetting } from '../config/precedence.js';
import { redactUrl } from '../util/redact.js';
import { parseServerList, parseUrl } from '../util/urls.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|\[::1\]|::1|localhost)$/i;
const DEFAULT_PORTS = {
  redis: 6379, rediss: 6379, postgres: 5432, postgresql: 5432, tarantool: 3301, memcached: 11211, http: 80, https: 443,
};

/**
 * The cores a store server can use: Redis and tarantool run commands on one thread, the CouchDB
 * stand-in is one Node process, memcached has 4 workers, PostgreSQL a process per connection.
 */
export function serverCores(service, cpus) {
  if (['redis', 'redis-cluster', 'tarantool', 'couchdb'].includes(service)) return 1;
  if (service === 'memcached') return Math.min(4, cpus);
  return cpus;
}

/**
 * What part of a store server can use one core at most, judged on its own: Redis's and tarantool's
 * command thread (their main thread: Redis's background threads, tarantool's network and WAL
 * threads are counted in the server's % but are not its limit), each process of PostgreSQL (a
 * backend per connection) and of the CouchDB stand-in; null for memcached, whose worker threads
 * share its cores.
 */
function serverUnit(service) {
  if (['redis', 'redis-cluster', 'tarantool'].includes(service)) return 'thread';
  if (['postgres', 'couchdb'].includes(service)) return 'process';
  return null;
}

/**
 * The host and port of each server an address names. A listing's display may end in
 * " (delayed: ...)" (--store-rtt): the server's own address comes before it.
 */
export function serverAddresses(display) {
  const text = String(display).replace(/\s+\(delayed:.*\)$/, '').trim();
  const addresses = [];
  for (const item of text.split(',').map((part) => part.trim()).filter(Boolean)) {
    const parsed = parseUrl(item);
    if (!parsed.problem) {
      const port = Number(parsed.url.port) || DEFAULT_PORTS[parsed.scheme];
      if (parsed.url.hostname && port) addresses.push({ host: parsed.url.hostname, port });
      continue;
    }
    const list = parseServerList(item);
    if (!list.problem) {
      for (const { host, port } of list.servers) addresses.push({ host, port: port ?? DEFAULT_PORTS.memcached });
    }
  }
  return addresses;
}

const isLoopback = (host) => LOOPBACK.test(host);

/**
 * The backing services in a /stores listing: Map service -> { display, stores }. Every server
 * is there, swept or not: one the app started is its child, and its CPU is not the app's.
 */
export function servicesFromListing(listing, swept) {
  const found = new Map();
  for (const entry of listing ?? []) {
    if (typeof entry.servers !== 'object' || entry.servers === null) continue;
    for (const [service, text] of Object.entries(entry.servers)) {
      if (typeof text !== 'string') continue;
      const colon = text.indexOf(': ');
      const display = colon === -1 ? text : text.slice(colon + 2);
      if (!found.has(service)) found.set(service, { display, url: null, stores: [] });
      if (swept.includes(entry.name)) found.get(service).stores.push(entry.name);
    }
  }
  return found;
}

/** The backing services of a StoreSet this process opened (--direct), with their URLs. */
export function servicesFromStoreSet(storeSet, swept) {
  const found = new Map();
  for (const [name, entry] of storeSet.entries) {
    for (const [service, connection] of Object.entries(entry.connections ?? {})) {
      const url = connection.serverUrl ?? connection.url;
      if (!found.has(service)) found.set(service, { display: redactUrl(url), url, stores: [] });
      if (swept.includes(name)) found.get(service).stores.push(name);
    }
  }
  return found;
}

// A Redis's URL with its password: its own (--direct), else the app's setting, if it names the
// same address the listing shows.
function redisUrlOf(service, known, env) {
  if (service !== 'redis') return null;
  if (known.url) return known.url;
  const { value } = resolveSetting(services.redis.location, { env });
  const url = value?.url;
  if (!url) return null;
  const shown = String(known.display).replace(/\s+\(delayed:.*\)$/, '');
  return redactUrl(url) === shown ? url : null;
}

/**
 * The plan createTierSampler (driver/tier-cpu.js) reads: { app, servers, cpus, appWorkersFlag }.
 * @param {object} sources
 * @param {number|null} [sources.appPid]  the embedded app.js child
 * @param {string[]} [sources.appUrls]    a loopback one's listener is the app
 * @param {string|null} [sources.metricsUrl]
 * @param {Map} sources.services
 * @param {boolean} [sources.direct]
 * @param {string|null} [sources.appWorkersFlag]
 * @param {object} [sources.env]
 */
export function planTiers({
  appPid = null, appUrls = [], metricsUrl = null, services: found, direct = false, appWorkersFlag = null,
  env = process.env, procDir = '/proc', cpus = os.availableParallelism?.() ?? os.cpus().length,
}) {
  const byService = [...found]
    .map(([service, known]) => ({ service, known, addresses: serverAddresses(known.display) }));
  const appPorts = appUrls.flatMap((text) => {
    try {
      const url = new URL(text);
      return isLoopback(url.hostname) ? [Number(url.port) || DEFAULT_PORTS[url.protocol.slice(0, -1)]] : [];
    } catch {
      return [];
    }
  });
  const listeners = listeningPidsByPort(null, procDir);
  // The driver's own process is never a tier: a target served inside it cannot be told apart.
  const pidsOf = (port) => (listeners.get(port) ?? []).filter((pid) => pid !== process.pid);
  const servers = byService.flatMap(({ service, known, addresses }) => addresses.map(({ host, port }) => ({
    name: addresses.length > 1 ? `${service}@${host}:${port}` : service,
    stores: known.stores,
    cores: Math.min(serverCores(service, cpus), cpus),
    unit: serverUnit(service),
    pids: isLoopback(host) ? pidsOf(port) : [],
    redisUrl: addresses.length === 1 ? redisUrlOf(service, known, env) : null,
  })));
  const serverPids = servers.flatMap((server) => server.pids);
  let app = null;
  if (!direct) {
    const roots = appPid ? [appPid] : [...new Set(appPorts.flatMap(pidsOf))].filter((pid) => !serverPids.includes(pid));
    const exclude = [...new Set([...serverPids, ...startedServers(roots, appPorts, listeners, procDir)])];
    if (roots.length) app = { source: 'proc', roots, exclude, ports: [...new Set(appPorts)] };
    else if (metricsUrl) app = { source: 'metrics', metricsUrl };
    else app = { source: null };
  }
  return { app, servers, cpus, appWorkersFlag };
}

// Processes below the app listening on another port are servers it started, not the app (a
// --url has no listing). A node:cluster worker listens on the app's port.
function startedServers(roots, appPorts, listeners, procDir) {
  const table = roots.length ? readProcessTable(procDir) : null;
  if (!table) return [];
  const own = new Set(appPorts);
  const elsewhere = new Set([...listeners].filter(([port]) => !own.has(port)).flatMap(([, pids]) => pids));
  return treePids(table, roots).filter((pid) => !roots.includes(pid) && elsewhere.has(pid));
}
