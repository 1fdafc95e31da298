// The backing servers stores connect to. Several stores can share one (redis, ioredis and
// the cache layers share Redis), so each server is resolved, and if need be started, once.
//
// For each: the environment variables that point at a real one (first set wins), and how
// the embedded default starts one here when none is configured: startEmbedded(env)
// resolves { url, stop() } or throws with a one-line reason.

export const services = {
  redis: {
    env: ['REDIS_URL'],
    example: 'redis://:password@host:6379',
    async startEmbedded(env) {
      const { startRedisServer } = await import('./embedded/redis-server.js');
      return startRedisServer({ path: env.PATH });
    },
  },
  couchdb: {
    // CLOUDANT_APIKEY (IAM) goes with CLOUDANT_URL; CLOUDANT_DB names the database.
    env: ['CLOUDANT_URL', 'COUCHDB_URL'],
    example: 'https://user:password@account.cloudantnosqldb.appdomain.cloud',
    extras: { apikey: 'CLOUDANT_APIKEY', database: 'CLOUDANT_DB' },
    async startEmbedded() {
      const { startCouchServer } = await import('./embedded/couchdb.js');
      return startCouchServer();
    },
  },
  postgres: {
    // POSTGRES_POOL_SIZE caps the pool; STOREBENCH_FLUSH_INTERVAL_MS is how long
    // redis+postgres lets writes gather before flushing them to PostgreSQL.
    env: ['POSTGRES_URL', 'DATABASE_URL'],
    example: 'postgres://user:password@host:5432/database',
    extras: { poolSize: 'POSTGRES_POOL_SIZE', flushIntervalMs: 'STOREBENCH_FLUSH_INTERVAL_MS' },
    async startEmbedded(env) {
      const { startPostgresServer } = await import('./embedded/postgres-server.js');
      return startPostgresServer({ path: env.PATH });
    },
  },
  memcached: {
    // MEMCACHED_SERVERS is memjs's own form: host:port[,host:port...], user:pass@ for SASL.
    env: ['MEMCACHED_URL', 'MEMCACHED_SERVERS'],
    example: 'memcached://user:password@host:11211',
    async startEmbedded(env) {
      const { startMemcachedServer } = await import('./embedded/memcached-server.js');
      return startMemcachedServer({ path: env.PATH });
    },
  },
};
