// The backing servers stores connect to. Several stores can share one (redis, ioredis and
// the cache layers share Redis), so each server is resolved, and if need be started, once.
//
// For each: the setting that says where it is (`location`, a key of config/settings.js, which
// declares its environment variables), the form that location takes (`url`, checked by
// config/service-url.js before any client sees it), settings added to its connection
// (`connectionSettings`), how a service bound on Cloud Foundry is recognised (`vcap`, see
// config/cf-binding.js), and how the embedded default starts one here when none is
// configured is embedded/index.js's (startEmbedded): this file is data.

export const services = {
  redis: {
    location: 'redisUrl',
    url: { schemes: ['redis', 'rediss'] },
    // Redis Cloud, IBM Cloud Databases for Redis, Tanzu Redis; or any service tagged/named redis
    vcap: {
      labels: ['rediscloud', 'databases-for-redis', 'p-redis', 'p.redis'],
      tags: ['redis'],
      schemes: ['redis', 'rediss'],
    },
  },
  couchdb: {
    location: 'couchdbUrl',
    url: { schemes: ['https', 'http'] },
    // An IAM API key set as an option or in the environment beats the bound service's own.
    connectionSettings: { apikey: 'cloudantApikey' },
    // IBM Cloudant (IAM preferred over legacy credentials); or any service tagged/named cloudant or couchdb
    vcap: { labels: ['cloudantNoSQLDB'], tags: ['cloudant', 'couchdb'], schemes: ['https', 'http'], iam: true },
  },
  tarantool: {
    // The server must have spaces storebench_vinyl and storebench_memtx, or let the user create them.
    location: 'tarantoolUrl',
    url: { schemes: ['tarantool'], password: true },
    vcap: { labels: [], tags: ['tarantool'], schemes: ['tarantool'] },
  },
  'redis-cluster': {
    // Any reachable nodes of the cluster, comma-separated: the rest are discovered.
    location: 'redisClusterUrls',
    url: { schemes: ['redis', 'rediss'], list: true },
  },
  postgres: {
    location: 'postgresUrl',
    url: { schemes: ['postgres', 'postgresql'], socket: true },
    // IBM Cloud Databases for PostgreSQL, ElephantSQL; or any service tagged/named postgres
    vcap: {
      labels: ['databases-for-postgresql', 'elephantsql'],
      tags: ['postgres', 'postgresql'],
      schemes: ['postgres', 'postgresql'],
    },
  },
  memcached: {
    // MEMCACHED_SERVERS is memjs's own form: host:port[,host:port...], user:pass@ for SASL.
    location: 'memcachedUrl',
    url: { serverList: true },
    vcap: { labels: [], tags: ['memcached'], schemes: ['memcached'] },
  },
};
