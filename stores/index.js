// The one registry of store adapters. Route names, the CLI's --store choices and the
// /stores listing all come from this list.
import { assertAdapter, assertStore } from './contract.js';
import { StoreSet } from './store-set.js';
import { deadlineSettings } from './deadline-settings.js';
import { resolveService } from '../config/resolve-service.js';
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
 * nothing is configured), opens every adapter, seeds key1..key3. Never throws for one
 * store: a store that cannot be had is kept as unavailable, with the reason. No store
 * takes longer than the open deadline: a slow one is left opening in the background.
 *
 * @param {object} [options]
 * @param {string[]} [options.names]  which stores (default: all)
 * @param {object} [options.env]  environment to read URLs and deadlines from (default: process.env)
 * @param {object} [options.overrides]  explicit URLs by service, beating env
 * @param {boolean} [options.embedded]  start local servers when nothing is configured (default true)
 * @param {number} [options.openTimeoutMs]  beats STOREBENCH_OPEN_TIMEOUT_MS (stores/deadline-settings.js)
 * @param {number} [options.opTimeoutMs]  beats STOREBENCH_OP_TIMEOUT_MS
 * @returns {Promise<StoreSet>}
 */
export async function openStores({ names = storeNames, env = process.env, overrides, embedded = true, openTimeoutMs, opTimeoutMs } = {}) {
  const unknown = unknownStoreProblems(names, 'openStores');
  if (unknown.length) throw new TypeError(unknown.join('; '));
  const deadlines = deadlineSettings({ env, openTimeoutMs, opTimeoutMs });
  const chosen = names.map(findAdapter);

  const serviceNames = [...new Set(chosen.flatMap((adapter) => adapter.needs))];
  const resolved = Object.fromEntries(
    await Promise.all(serviceNames.map(async (service) => [service, await resolveService(service, { env, overrides, embedded })])),
  );
  const stopServers = Object.values(resolved).flatMap((r) => (r.stop ? [r.stop] : []));

  const entries = chosen.map((adapter) => {
    const missing = adapter.needs.find((service) => resolved[service].unavailable);
    if (missing) return { adapter, reason: resolved[missing].unavailable, reasonCode: resolved[missing].code };
    const connections = Object.fromEntries(adapter.needs.map((service) => [service, resolved[service].connection]));
    return { adapter, connections, open: () => openOne(adapter, connections) };
  });
  const stores = new StoreSet(entries, stopServers, deadlines);
  await stores.openAll();
  return stores;
}

async function openOne(adapter, connections) {
  const store = assertStore(await adapter.open(connections), adapter.name);
  try {
    const keys = await seedStore(store);
    return { store, keys };
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
}
