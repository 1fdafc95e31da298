// The embedded default of each backing server: one started here when nothing is configured. Each
// server's module loads only when that server is started.
import { resolveSetting } from '../config/precedence.js';

const STARTERS = {
  async redis(env) {
    const { startRedisServer } = await import('./redis-server.js');
    return startRedisServer({ path: env.PATH });
  },
  async couchdb(env, options) {
    const { startCouchServer } = await import('./couchdb.js');
    const { value: plan } = resolveSetting('cloudantPlan', { options, env });
    return startCouchServer({ plan });
  },
  async tarantool(env, options) {
    const { startTarantool } = await import('./tarantool.js');
    const { value: maxTupleSize } = resolveSetting('tarantoolTupleSize', { options, env });
    // STOREBENCH_TARANTOOL_MEMTX_MB: more memtx memory for a scenario that holds more (cluster-vs-document).
    const memtxMb = Number(env.STOREBENCH_TARANTOOL_MEMTX_MB) || undefined;
    return startTarantool({ path: env.PATH, memtxMb, maxTupleSize });
  },
  async 'redis-cluster'(env) {
    const { startRedisCluster } = await import('./redis-cluster.js');
    return startRedisCluster({ path: env.PATH });
  },
  async postgres(env) {
    const { startPostgresServer } = await import('./postgres-server.js');
    return startPostgresServer({ path: env.PATH });
  },
  async memcached(env, options) {
    const { startMemcachedServer } = await import('./memcached-server.js');
    const { value: itemSize } = resolveSetting('memcachedItemSize', { options, env });
    return startMemcachedServer({ path: env.PATH, itemSize });
  },
};

export function startEmbedded(name, env = process.env, options = {}) {
  const start = STARTERS[name];
  if (!start) return Promise.reject(new Error(`no embedded server for ${name}`));
  return start(env, options);
}
