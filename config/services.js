// The backing servers stores connect to. Several stores can share one (redis, ioredis and
// the cache layers share Redis), so each server is resolved, and if need be started, once.
//
// For each: the setting that says where it is (`location`, a key of config/settings.js, which
// declares its environment variables), the form that location takes (`url`, checked by
// config/service-url.js before any client sees it), settings added to its connection
// (`connectionSettings`), how a service bound on Cloud Foundry is recognised (`vcap`, see
// config/cf-binding.js), and how the embedded default starts one here when none is
// configured: startEmbedded(env, options) resolves { url, stop() } or throws with a one-line reason.

export const services = {
  redis: {
    location: 'redisUrl',
    url: { schemes: ['redis', 'rediss'] },
    // Redis Cloud, IBM Cloud Databases for Redis, Tanzu Redis; or any service tagged/named redis
    vcap: { labels: ['rediscloud', 'databases-for-redis', 'p-redis', 'p.redis'], tags: ['redis'], schemes: ['redis', 'rediss'] },
    async startEmbedded(env) {
      const { startRedisServer } = await import('../embedded/redis-server.js');
      return startRedisServer({ path: env.PATH });
    },
  },
  couchdb: {
    location: 'couchdbUrl',
    url: { schemes: ['https', 'http'] },
    // An IAM API key set as an option or in the environment beats the bound service's own.
    connectionSettings: { apikey: 'cloudantApikey' },
    // IBM Cloudant (IAM preferred over legacy credentials); or any service tagged/named cloudant or couchdb
    vcap: { labels: ['cloudantNoSQLDB'], tags: ['cloudant', 'couchdb'], schemes: ['https', 'http'], iam: true },
    // --cloudant-plan lite: the stand-in enforces Cloudant Lite's rate limits (issue 13).
    async startEmbedded(env, options = {}) {
      const { startCouchServer } = await import('../embedded/couchdb.js');
      const { resolveSetting } = await import('./precedence.js');
      const { value: plan } = resolveSetting('emulatedCloudantPlan', { options, env });
      return startCouchServer({ plan });
    },
  },
  tarantool: {
    // The server must have spaces storebench_vinyl and storebench_memtx, or let the user create them.
    location: 'tarantoolUrl',
    url: { schemes: ['tarantool'], password: true },
    vcap: { labels: [], tags: ['tarantool'], schemes: ['tarantool'] },
    async startEmbedded(env, options = {}) {
      const { startTarantool } = await import('../embedded/tarantool.js');
      const { resolveSetting } = await import('./precedence.js');
      const { value: maxTupleSize } = resolveSetting('tarantoolTupleSize', { options, env });
      // STOREBENCH_TARANTOOL_MEMTX_MB: more memtx memory for a scenario that holds more (cluster-vs-document).
      const memtxMb = Number(env.STOREBENCH_TARANTOOL_MEMTX_MB) || undefined;
      return startTarantool({ path: env.PATH, memtxMb, maxTupleSize });
    },
  },
  'redis-cluster': {
    // Any reachable nodes of the cluster, comma-separated: the rest are discovered.
    location: 'redisClusterUrls',
    url: { schemes: ['redis', 'rediss'], list: true },
    async startEmbedded(env) {
      const { startRedisCluster } = await import('../embedded/redis-cluster.js');
      return startRedisCluster({ path: env.PATH });
    },
  },
  postgres: {
    location: 'postgresUrl',
    url: { schemes: ['postgres', 'postgresql'], socket: true },
    // IBM Cloud Databases for PostgreSQL, ElephantSQL; or any service tagged/named postgres
    vcap: { labels: ['databases-for-postgresql', 'elephantsql'], tags: ['postgres', 'postgresql'], schemes: ['postgres', 'postgresql'] },
    async startEmbedded(env) {
      const { startPostgresServer } = await import('../embedded/postgres-server.js');
      return startPostgresServer({ path: env.PATH });
    },
  },
  memcached: {
    // MEMCACHED_SERVERS is memjs's own form: host:port[,host:port...], user:pass@ for SASL.
    location: 'memcachedUrl',
    url: { serverList: true },
    vcap: { labels: [], tags: ['memcached'], schemes: ['memcached'] },
    async startEmbedded(env, options = {}) {
      const { startMemcachedServer } = await import('../embedded/memcached-server.js');
      const { resolveSetting } = await import('./precedence.js');
      const { value: itemSize } = resolveSetting('memcachedItemSize', { options, env });
      return startMemcachedServer({ path: env.PATH, itemSize });
    },
  },
};
