// A Redis Cluster through node-redis's createCluster: each key goes to its slot's master, as an app that
// outgrew one Redis would.
import { redisClientOptions, connectWithin } from './clients/redis-options.js';
import { closeNodeRedis } from './clients/close-within.js';
import { emptyAsNull } from './redis.js';

export const name = 'redis-cluster';
export const description = 'Redis Cluster (3 masters + 3 replicas when embedded) through node-redis createCluster';
export const needs = ['redis-cluster'];
// Bulk: SETs in one tick, pipelined per node (an MSET would need every key in one slot).
export const writes = { append: true, bulk: 'native', hash: true };
export const pipelining = {
  pipelines: true,
  reason: 'node-redis writes the commands issued in one tick for a master in one write, on its connection to ' +
    'that master',
};

export function clusterOptions(connection) {
  const urls = connection.url.split(',').map((url) => url.trim()).filter(Boolean);
  if (!urls.length) throw new Error('REDIS_CLUSTER_URLS lists no node');
  // Discovered nodes are reached with `defaults` only, so the credentials go there too.
  const { url: first, ...defaults } = redisClientOptions({ ...connection, url: urls[0] });
  const parsed = new URL(first);
  if (parsed.username) defaults.username = decodeURIComponent(parsed.username);
  if (parsed.password) defaults.password = decodeURIComponent(parsed.password);
  if (parsed.protocol === 'rediss:') defaults.socket = { ...defaults.socket, tls: true };
  return { rootNodes: urls.map((url) => ({ url })), defaults };
}

export async function open({ 'redis-cluster': connection }) {
  const { createCluster, RESP_TYPES } = await import('redis');
  const cluster = createCluster(clusterOptions(connection));
  cluster.on('error', () => {});
  await connectWithin(cluster);
  const bytes = cluster.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });

  return {
    get: (key) => bytes.get(key),
    async set(key, value) {
      await bytes.set(key, value);
    },
    async delete(key) {
      await bytes.del(key);
    },
    async append(key, value) {
      await bytes.append(key, value);
    },
    async setMany(entries) {
      await Promise.all(entries.map(([key, value]) => bytes.set(key, value)));
    },
    async setHash(key, fields) {
      await bytes.multi(key).del(key).hSet(key, fields).exec();
    },
    getHash: (key) => bytes.hGetAll(key).then(emptyAsNull),
    async ping() {
      await cluster.sendCommand(undefined, true, ['PING']);
    },
    // Each node's client closed as one Redis's is, then the cluster's own state: cluster.close()
    // drops its node clients before they have closed, so a node stuck closing could not be destroyed.
    async close() {
      if (!cluster.isOpen) return;
      const nodes = [...cluster.masters, ...cluster.replicas].map((node) => node.client).filter(Boolean);
      await Promise.all(nodes.map((client) => closeNodeRedis(client)));
      cluster.destroy();
    },
    // Reads go to masters (node-redis's default): a replica could answer before it has a write.
    stats: () => ({ masters: cluster.masters.length, readsFrom: 'masters' }),
  };
}
