// The backing servers stores connect to (several stores share one, so each is resolved once). This
// file is data: `location` (a setting), `url` (its form, config/service-url.js), `connectionSettings`,
// and `vcap` (config/cf-binding.js); embedded/index.js starts one when none is configured.

export const services = {
  redis: {
    location: 'redisUrl',
    url: { schemes: ['redis', 'rediss'] },
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
