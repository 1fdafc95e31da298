// The one registry of store adapters. Route names, the CLI's --store choices and the
// /stores listing all come from this list.
import { assertAdapter, assertStore } from './contract.js';
import { StoreSet, reasonOf } from './store-set.js';
import { ownConnection, ownStoreDelay, resolveService } from '../embedded/resolve-service.js';
import { storesNamed } from '../config/setting-values.js';
import { resolveSettings } from '../config/precedence.js';
import { STORE_NAMES, unknownStoreProblems } from '../config/store-names.js';
import { storeNamingSettings } from '../config/settings.js';
import { UsageError } from '../util/errors.js';
import { seedMissing, seedStore } from './seed.js';
import * as memory from './memory.js';
import * as redis from './redis.js';
import * as cloudant from './cloudant.js';
import * as ioredis from './ioredis.js';
import * as redisCluster from './redis-cluster.js';
import * as memcached from './memcached.js';
import * as cloudantLegacy from './cloudant-legacy.js';
import * as couchdbNano from './couchdb-nano.js';
import * as postgres from './postgres.js';
import * as postgresRedis from './layers/postgres+redis.js';
import * as redisPostgres from './layers/redis+postgres.js';
import * as tarantool from './tarantool.js';
import * as tarantoolMemtx from './tarantool-memtx.js';

// In the order /stores, the page and the driver's tables list them: the baseline, the
// Redis family and caches, the CouchDB clients, PostgreSQL and its cache layers, Tarantool.
export const adapters = [
  memory,
  redis,
  ioredis,
  redisCluster,
  memcached,
  cloudant,
  cloudantLegacy,
  couchdbNano,
  postgres,
  postgresRedis,
  redisPostgres,
  tarantool,
  tarantoolMemtx,
].map(assertAdapter);
export const storeNames = adapters.map((adapter) => adapter.name);
if (storeNames.join() !== STORE_NAMES.join()) {
  throw new TypeError(`stores/index.js registers ${storeNames.join(', ')}, ` +
    `but config/store-names.js lists ${STORE_NAMES.join(', ')}: the two must be the same, in the same order`);
}

export const findAdapter = (name) => adapters.find((adapter) => adapter.name === name);

/**
 * Opens the named stores: each backing server resolved once (embedded ones started when nothing is
 * configured), every adapter opened and seeded. Never throws for one store: one that cannot be had is
 * kept as unavailable, with the reason; one slower than the open deadline goes on in the background.
 * reopen: an unavailable store is tried again when asked for (the app). cluster (app/cluster-worker.js):
 * only the first process to open a store does its start-up work; the others seed what is missing.
 * @returns {Promise<StoreSet>}  rejects with a UsageError when a store setting is malformed
 */
export async function openStores({
  names = storeNames, env = process.env, options = {}, embedded = true, onServer, onOpened, reopen = false, cluster,
} = {}) {
  const unknown = unknownStoreProblems(names, 'openStores');
  if (unknown.length) throw new TypeError(unknown.join('; '));
  const chosen = names.map(findAdapter);
  const { settings, problems } = resolveSettings({ options, env }, ['store']);
  for (const [key, flag] of storeNamingSettings()) {
    problems.push(...unknownStoreProblems(storesNamed(settings[key]), flag));
  }
  if (problems.length) throw new UsageError(problems);

  const { resolved, stopServers } = cluster
    ? { resolved: cluster.services, stopServers: [] }
    : await resolveServices(names, { env, options, embedded, onServer });
  // A store with a network of its own (--store-rtt redis=40) reaches each of its servers
  // through a proxy of its own, in place of the one every store shares.
  const own = {};
  for (const adapter of chosen) {
    const delay = ownStoreDelay(adapter.name, settings);
    if (!delay || adapter.needs.some((service) => resolved[service].unavailable)) continue;
    own[adapter.name] = {};
    for (const service of adapter.needs) {
      const moved = await ownConnection(service, resolved[service].connection, delay);
      own[adapter.name][service] = moved;
      if (moved.stop) stopServers.unshift(moved.stop);
    }
  }
  const serviceOf = (adapter, service) => own[adapter.name]?.[service] ?? resolved[service];

  // Each store is told of once: when its first attempt to open ends, or at once when it cannot
  // be tried; one still opening when openAll stops waiting for it (the open deadline), then.
  const told = new Set();
  const tell = (adapter, report) => {
    if (!onOpened || told.has(adapter.name)) return;
    told.add(adapter.name);
    onOpened({ name: adapter.name, ...report });
  };
  const servers = (connections = {}) => Object.fromEntries(Object.entries(connections)
    .map(([service, c]) => [service, `${c.source}: ${c.display}`]));
  const entries = chosen.map((adapter) => {
    const missing = adapter.needs.find((service) => serviceOf(adapter, service).unavailable);
    if (missing) {
      const { unavailable, code } = serviceOf(adapter, missing);
      return { adapter, reason: unavailable, reasonCode: code };
    }
    const connections = Object.fromEntries(adapter.needs.map((service) =>
      [service, serviceOf(adapter, service).connection]));
    const open = () => {
      const attempt = openOne(adapter, connections, settings, cluster);
      attempt.then(
        () => tell(adapter, { status: 'up', servers: servers(connections) }),
        (error) => tell(adapter, {
          status: 'unavailable',
          reason: reasonOf(error),
          reasonCode: 'OPEN_FAILED',
          servers: servers(connections),
        }),
      );
      return attempt;
    };
    return { adapter, connections, open };
  });
  for (const entry of entries) {
    if (!entry.open) {
      tell(entry.adapter, { status: 'unavailable', reason: entry.reason, reasonCode: entry.reasonCode, servers: {} });
    }
  }
  const stores = new StoreSet(entries, stopServers, {
    openTimeoutMs: settings.openTimeoutMs,
    opTimeoutMs: settings.opTimeoutMs,
    reopen,
    workers: cluster?.workers,
    deletingSeed: cluster?.deletingSeed,
  });
  await stores.openAll();
  for (const entry of entries) {
    tell(entry.adapter, {
      status: entry.store ? 'up' : 'unavailable',
      reason: entry.reason,
      reasonCode: entry.reasonCode,
      servers: servers(entry.connections),
    });
  }
  return stores;
}

export async function resolveServices(names = storeNames, {
  env = process.env, options = {}, embedded = true, onServer,
} = {}) {
  const serviceNames = [...new Set(names.map(findAdapter).flatMap((adapter) => adapter.needs))];
  const resolved = Object.fromEntries(
    await Promise.all(serviceNames.map(async (service) => {
      const result = await resolveService(service, { env, options, embedded });
      onServer?.({
        service,
        ...(result.connection
          ? { source: result.connection.source, display: result.connection.display }
          : { reason: result.unavailable, reasonCode: result.code }),
      });
      return [service, result];
    })),
  );
  return { resolved, stopServers: Object.values(resolved).flatMap((r) => (r.stop ? [r.stop] : [])) };
}

// One process of several (cluster) asks whether it is the first to open the store: only the
// first seeds over what is there and does the adapter's start-up work (joining: false).
async function openOne(adapter, connections, settings, cluster) {
  const role = cluster ? await cluster.opening(adapter.name) : { first: true, done() {} };
  let store;
  try {
    const shared = cluster ? { workers: cluster.workers, joining: !role.first } : {};
    store = assertStore(await adapter.open(connections, { ...settings, ...shared }), adapter);
    const keys = role.first ? await seedStore(store) : await seedMissing(store);
    role.done(true);
    return { store, keys };
  } catch (error) {
    role.done(false);
    await store?.close().catch(() => {});
    throw error;
  }
}
