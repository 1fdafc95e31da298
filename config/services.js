// The backing servers stores connect to. Several stores can share one (redis, ioredis and
// the cache layers share Redis), so each server is resolved, and if need be started, once.
//
// For each: the environment variables that point at a real one (first set wins), how a
// service bound on Cloud Foundry is recognised (`vcap`, see config/cf-binding.js), and how the
// embedded default starts one here when none is configured: startEmbedded(env) resolves
// { url, stop() } or throws with a one-line reason.

export const services = {
  redis: {
    env: ['REDIS_URL'],
    example: 'redis://:password@host:6379',
    // Redis Cloud, IBM Cloud Databases for Redis, Tanzu Redis; or any service tagged/named redis
    vcap: { labels: ['rediscloud', 'databases-for-redis', 'p-redis', 'p.redis'], tags: ['redis'], schemes: ['redis', 'rediss'] },
    async startEmbedded(env) {
      const { startRedisServer } = await import('../embedded/redis-server.js');
      return startRedisServer({ path: env.PATH });
    },
  },
  couchdb: {
    // CLOUDANT_APIKEY (IAM) goes with CLOUDANT_URL; CLOUDANT_DB names the database.
    env: ['CLOUDANT_URL', 'COUCHDB_URL'],
    example: 'https://user:password@account.cloudantnosqldb.appdomain.cloud',
    extras: { apikey: 'CLOUDANT_APIKEY', database: 'CLOUDANT_DB' },
    // IBM Cloudant (IAM preferred over legacy credentials); or any service tagged/named cloudant or couchdb
    vcap: { labels: ['cloudantNoSQLDB'], tags: ['cloudant', 'couchdb'], schemes: ['https', 'http'], iam: true },
    async startEmbedded() {
      const { startCouchServer } = await import('../embedded/couchdb.js');
      return startCouchServer();
    },
  },
  tarantool: {
    // The server must have spaces storebench_vinyl and storebench_memtx, or let the user create them.
    env: ['TARANTOOL_URL'],
    example: 'tarantool://user:password@host:3301',
    vcap: { labels: [], tags: ['tarantool'], schemes: ['tarantool'] },
    async startEmbedded(env) {
      const { startTarantool } = await import('../embedded/tarantool.js');
      return startTarantool({ path: env.PATH });
    },
  },
  'redis-cluster': {
    // Any reachable nodes of the cluster, comma-separated: the rest are discovered.
    env: ['REDIS_CLUSTER_URLS'],
    example: 'redis://:password@node1:6379,redis://:password@node2:6379',
    async startEmbedded(env) {
      const { startRedisCluster } = await import('../embedded/redis-cluster.js');
      return startRedisCluster({ path: env.PATH });
    },
  },
  postgres: {
    // POSTGRES_POOL_SIZE caps the pool; STOREBENCH_FLUSH_INTERVAL_MS is how long
    // redis+postgres lets writes gather before flushing them to PostgreSQL.
    env: ['POSTGRES_URL', 'DATABASE_URL'],
    example: 'postgres://user:password@host:5432/database',
    // IBM Cloud Databases for PostgreSQL, ElephantSQL; or any service tagged/named postgres
    vcap: { labels: ['databases-for-postgresql', 'elephantsql'], tags: ['postgres', 'postgresql'], schemes: ['postgres', 'postgresql'] },
    extras: { poolSize: 'POSTGRES_POOL_SIZE', flushIntervalMs: 'STOREBENCH_FLUSH_INTERVAL_MS' },
    async startEmbedded(env) {
      const { startPostgresServer } = await import('../embedded/postgres-server.js');
      return startPostgresServer({ path: env.PATH });
    },
  },
  memcached: {
    // MEMCACHED_SERVERS is memjs's own form: host:port[,host:port...], user:pass@ for SASL.
    env: ['MEMCACHED_URL', 'MEMCACHED_SERVERS'],
    example: 'memcached://user:password@host:11211',
    vcap: { labels: [], tags: ['memcached'], schemes: ['memcached'] },
    async startEmbedded(env) {
      const { startMemcachedServer } = await import('../embedded/memcached-server.js');
      return startMemcachedServer({ path: env.PATH });
    },
  },
};
