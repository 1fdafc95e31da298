// Which processes are the app and which are each store server, found once before a sweep so
// that driver/tier-cpu.js can read their CPU around every step:
// - the app: the embedded app.js child's process tree, or the tree of whatever listens on a
//   loopback target's port, less the trees of the store servers (an embedded app starts them as
//   its children); a target elsewhere, through its /metrics when it serves them;
// - the servers: from the addresses the run knows (the app's /stores listing, or the stores
//   --direct opened), each one listening on this machine's loopback found by its port; a Redis
//   elsewhere (or not visible in /proc) through INFO cpu, when the run knows its URL.
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
 * The cores a store server can use: Redis (a node of a Redis Cluster too) runs its commands on
 * one thread; tarantool's transactions run on its one tx thread; the CouchDB stand-in is one
 * Node.js process; memcached has 4 worker threads by default; PostgreSQL runs a process per
 * connection, so every core.
 */
export function serverCores(service, cpus) {
  if (['redis', 'redis-cluster', 'tarantool', 'couchdb'].includes(service)) return 1;
  if (service === 'memcached') return Math.min(4, cpus);
  return cpus;
}

/**
 * The host and port of each server an address names: a URL, a comma-separated list of them (a
 * Redis Cluster's nodes), or memjs's host:port list (memcached). A listing's display may end in
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
 * The backing services in a /stores listing: Map service -> { display, stores }, `stores` being
 * those of `swept` it serves. Every server of the listing is there, swept or not: one the app
 * started is its child, and its CPU is not the app's. A listing entry's `servers` are
 * `{ service: "source: display" }`.
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

/**
 * The backing services of a StoreSet this process opened (--direct): Map service -> { display,
 * url (the server's own, with its password), stores (those of `swept` it serves) }.
 */
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

// A Redis's URL with its password, when this process knows one for that server: its own
// (--direct), else the setting the app read too (REDIS_URL, a bound service), if it names the
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
 * @param {string[]} [sources.appUrls]    the targets' URLs (a loopback one's listener is the app)
 * @param {string|null} [sources.metricsUrl]  where a target elsewhere serves /metrics (--target)
 * @param {Map} sources.services          servicesFromListing or servicesFromStoreSet
 * @param {boolean} [sources.direct]      --direct: no app
 * @param {string|null} [sources.appWorkersFlag]  how the user runs more app processes
 * @param {object} [sources.env]          where a configured Redis's URL is read (process.env)
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
    pids: isLoopback(host) ? pidsOf(port) : [],
    redisUrl: addresses.length === 1 ? redisUrlOf(service, known, env) : null,
  })));
  const serverPids = servers.flatMap((server) => server.pids);
  let app = null;
  if (!direct) {
    const roots = appPid ? [appPid] : [...new Set(appPorts.flatMap(pidsOf))].filter((pid) => !serverPids.includes(pid));
    const exclude = [...new Set([...serverPids, ...startedServers(roots, appPorts, listeners, procDir)])];
    if (roots.length) app = { source: 'proc', roots, exclude };
    else if (metricsUrl) app = { source: 'metrics', metricsUrl };
    else app = { source: null };
  }
  return { app, servers, cpus, appWorkersFlag };
}

// The processes below the app's that listen on a port other than the app's own: servers it
// started (an embedded redis-server, the CouchDB stand-in), not the app, whether or not the run
// knows their addresses (a --url has no listing). A node:cluster worker listens on the app's
// port, if at all.
function startedServers(roots, appPorts, listeners, procDir) {
  const table = roots.length ? readProcessTable(procDir) : null;
  if (!table) return [];
  const own = new Set(appPorts);
  const elsewhere = new Set([...listeners].filter(([port]) => !own.has(port)).flatMap(([, pids]) => pids));
  return treePids(table, roots).filter((pid) => !roots.includes(pid) && elsewhere.has(pid));
}
