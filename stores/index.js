// The one registry of store adapters. Route names, the CLI's --store choices and the
// /stores listing all come from this list.
import { assertAdapter, assertStore } from './contract.js';
import { StoreSet } from './store-set.js';
import { resolveService } from '../config/resolve-service.js';
import { resolveSettings } from '../config/precedence.js';
import { UsageError } from '../util/errors.js';
import { seedStore } from './seed.js';
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

/** The adapter called name, or undefined. */
export const findAdapter = (name) => adapters.find((adapter) => adapter.name === name);

/** One problem line per name that is not a registered store (empty when all are known). */
export const unknownStoreProblems = (names = [], flag = '--stores') =>
  names.filter((name) => !findAdapter(name)).map((name) => `${flag}: unknown store "${name}" (known: ${storeNames.join(', ')})`);

/**
 * Opens the named stores: resolves each backing server once (starting embedded ones when
 * nothing is configured), opens every adapter with the resolved store settings (pool size,
 * flush interval, database name), seeds key1..key3. Never throws for one store: a store that
 * cannot be had is kept as unavailable, with the reason. No store takes longer than the open
 * deadline (openTimeoutMs): a slow one is left opening in the background.
 *
 * @param {object} [params]
 * @param {string[]} [params.names]  which stores (default: all)
 * @param {object} [params.env]  environment to read settings from (default: process.env)
 * @param {object} [params.options]  explicit settings by key (config/settings.js), beating env:
 *   postgresPoolSize, flushIntervalMs, couchdbDatabase, openTimeoutMs, opTimeoutMs
 * @param {boolean} [params.embedded]  start local servers when nothing is configured (default true)
 * @returns {Promise<StoreSet>}  rejects with a UsageError when a store setting is malformed
 */
export async function openStores({ names = storeNames, env = process.env, options = {}, embedded = true } = {}) {
  const unknown = unknownStoreProblems(names, 'openStores');
  if (unknown.length) throw new TypeError(unknown.join('; '));
  const chosen = names.map(findAdapter);
  const { settings, problems } = resolveSettings({ options, env }, ['store']);
  if (problems.length) throw new UsageError(problems);

  const serviceNames = [...new Set(chosen.flatMap((adapter) => adapter.needs))];
  const resolved = Object.fromEntries(
    await Promise.all(serviceNames.map(async (service) => [service, await resolveService(service, { env, options, embedded })])),
  );
  const stopServers = Object.values(resolved).flatMap((r) => (r.stop ? [r.stop] : []));

  const entries = chosen.map((adapter) => {
    const missing = adapter.needs.find((service) => resolved[service].unavailable);
    if (missing) return { adapter, reason: resolved[missing].unavailable, reasonCode: resolved[missing].code };
    const connections = Object.fromEntries(adapter.needs.map((service) => [service, resolved[service].connection]));
    return { adapter, connections, open: () => openOne(adapter, connections, settings) };
  });
  const stores = new StoreSet(entries, stopServers, { openTimeoutMs: settings.openTimeoutMs, opTimeoutMs: settings.opTimeoutMs });
  await stores.openAll();
  return stores;
}

async function openOne(adapter, connections, settings) {
  const store = assertStore(await adapter.open(connections, settings), adapter);
  try {
    const keys = await seedStore(store);
    return { store, keys };
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
}
