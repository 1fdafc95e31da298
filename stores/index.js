// The one registry of store adapters. Route names, the CLI's --store choices and the
// /stores listing all come from this list.
import { assertAdapter, assertStore } from './contract.js';
import { StoreSet, reasonOf } from './store-set.js';
import { resolveService } from '../config/resolve-service.js';
import { seedStore } from '../data/seed.js';
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

/**
 * Opens the named stores: resolves each backing server once (starting embedded ones when
 * nothing is configured), opens every adapter, seeds key1..key3. Never throws for one
 * store: a store that cannot be had is kept as unavailable, with the reason.
 *
 * @param {object} [options]
 * @param {string[]} [options.names]  which stores (default: all)
 * @param {object} [options.env]  environment to read URLs from (default: process.env)
 * @param {object} [options.overrides]  explicit URLs by service, beating env
 * @param {boolean} [options.embedded]  start local servers when nothing is configured (default true)
 * @param {boolean} [options.seed]  write key1..key3 into every store opened (default true)
 * @returns {Promise<StoreSet>}
 */
export async function openStores({ names = storeNames, env = process.env, overrides, embedded = true, seed = true } = {}) {
  const chosen = names.map((name) => {
    const adapter = findAdapter(name);
    if (!adapter) throw new Error(`unknown store "${name}" (known: ${storeNames.join(', ')})`);
    return adapter;
  });

  const serviceNames = [...new Set(chosen.flatMap((adapter) => adapter.needs))];
  const resolved = Object.fromEntries(
    await Promise.all(serviceNames.map(async (service) => [service, await resolveService(service, { env, overrides, embedded })])),
  );
  const stopServers = Object.values(resolved).flatMap((r) => (r.stop ? [r.stop] : []));

  const entries = await Promise.all(
    chosen.map(async (adapter) => {
      const missing = adapter.needs.find((service) => resolved[service].unavailable);
      if (missing) return { adapter, reason: `${adapter.name}: ${resolved[missing].unavailable}` };
      const connections = Object.fromEntries(adapter.needs.map((service) => [service, resolved[service].connection]));
      const reopen = () => openOne(adapter, connections, seed);
      try {
        return { adapter, connections, reopen, ...(await reopen()) };
      } catch (error) {
        return { adapter, connections, reopen, reason: `${adapter.name}: ${reasonOf(error)}` };
      }
    }),
  );
  return new StoreSet(entries, stopServers);
}

async function openOne(adapter, connections, seed) {
  const store = assertStore(await adapter.open(connections), adapter.name);
  try {
    const keys = seed ? await seedStore(store) : [];
    return { store, keys };
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
}
