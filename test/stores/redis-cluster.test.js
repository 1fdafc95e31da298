import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createClient } from 'redis';
import * as redisCluster from '../../stores/redis-cluster.js';
import { clusterOptions } from '../../stores/redis-cluster.js';
import { parseClusterNodes, startRedisCluster } from '../../embedded/redis-cluster.js';
import { which } from '../../util/which.js';
import { storeConformance } from '../helpers/store-conformance.js';
import { unavailable } from '../helpers/services.js';
import { payloads } from '../../stores/payloads.js';
import { CLOSE_GRACE_MS } from '../../stores/clients/close-within.js';
import { closeTime } from '../helpers/close-time.js';

// One real cluster (3 masters + 3 replicas) for the whole file; the last test stops it.
let cluster;
before(async () => {
  if (which('redis-server') && which('redis-cli')) cluster = await startRedisCluster();
});
after(() => cluster?.stop());

const connect = (t) => {
  if (!cluster) {
    return void unavailable(t, 'redis-server and redis-cli are not installed (apt-get install redis-server)');
  }
  return { 'redis-cluster': { url: cluster.url, source: 'test' } };
};

// Asks one node directly, not through the cluster client under test.
async function askNode(url, ...command) {
  const client = createClient({ url });
  await client.connect();
  try {
    return await client.sendCommand(command);
  } finally {
    await client.close();
  }
}

storeConformance(redisCluster, connect);

test('the embedded cluster has 3 masters with one replica each, all slots covered', async (t) => {
  if (!connect(t)) return;
  assert.equal(cluster.urls.length, 6);
  const nodes = parseClusterNodes(await askNode(cluster.urls[0], 'CLUSTER', 'NODES'));
  const masters = nodes.filter((n) => n.role === 'master');
  const replicas = nodes.filter((n) => n.role === 'replica');
  assert.equal(masters.length, 3);
  assert.equal(replicas.length, 3);
  assert.deepEqual(
    replicas.map((r) => r.masterId).sort(),
    masters.map((m) => m.id).sort(),
    'each master has one replica',
  );
  assert.match(await askNode(cluster.urls[0], 'CLUSTER', 'INFO'), /cluster_slots_assigned:16384/);

  const store = await redisCluster.open(connect(t));
  t.after(() => store.close());
  assert.deepEqual(store.stats(), { masters: 3, readsFrom: 'masters' });
});

test('keys land on different slots and every master holds some of them', async (t) => {
  if (!connect(t)) return;
  const store = await redisCluster.open(connect(t));
  t.after(() => store.close());
  const keys = Array.from({ length: 30 }, (_, i) => `spread-${i}`);
  for (const key of keys) await store.set(key, Buffer.from(key));

  const slots = await Promise.all(
    ['key1', 'key2', 'key3'].map((key) => askNode(cluster.urls[0], 'CLUSTER', 'KEYSLOT', key)),
  );
  assert.equal(new Set(slots).size, 3, `key1..key3 hash to different slots (${slots})`);

  const nodes = parseClusterNodes(await askNode(cluster.urls[0], 'CLUSTER', 'NODES'));
  for (const master of nodes.filter((n) => n.role === 'master')) {
    const held = await askNode(`redis://${master.address}`, 'DBSIZE');
    assert.ok(held > 0, `master ${master.address} holds keys (${held})`);
  }
  for (const key of keys) await store.delete(key);
});

test('credentials in REDIS_CLUSTER_URLS reach the discovered nodes, and every listed node is a root', () => {
  const options = clusterOptions({ url: 'redis://app:s%40cret@10.0.0.1:6379, redis://app:s%40cret@10.0.0.2:6379' });
  assert.deepEqual(options.rootNodes, [{ url: 'redis://app:s%40cret@10.0.0.1:6379' }, { url: 'redis://app:s%40cret@10.0.0.2:6379' }]);
  assert.equal(options.defaults.username, 'app');
  assert.equal(options.defaults.password, 's@cret');
  assert.equal(options.defaults.disableOfflineQueue, true);
  assert.equal(options.defaults.url, undefined, 'no fixed url: each discovered node keeps its own address');
});

test('the app serves /redis-cluster/:key seeded with key1..key3 byte-exact, ' +
  'and /stores shows the topology', async (t) => {
  if (!connect(t)) return;
  const { startApp } = await import('../../app/start-app.js');
  const app = await startApp({
    port: 0,
    host: '127.0.0.1',
    stores: ['redis-cluster'],
    env: { REDIS_CLUSTER_URLS: cluster.url },
  });
  t.after(() => app.close());
  for (const [key, bytes] of Object.entries(payloads)) {
    const response = await fetch(`${app.url}/redis-cluster/${key}`);
    assert.equal(response.status, 200, key);
    assert.ok(Buffer.from(await response.arrayBuffer()).equals(bytes), `${key} is the seeded payload`);
  }
  const [store] = (await (await fetch(`${app.url}/stores`)).json()).stores;
  assert.equal(store.status, 'up');
  assert.deepEqual(store.stats, { masters: 3, readsFrom: 'masters' });
  assert.equal(store.servers['redis-cluster'], `REDIS_CLUSTER_URLS: ${cluster.url}`);
});

test('close() with reads under way on frozen masters gives up after the grace, and the reads fail', async (t) => {
  if (!connect(t)) return;
  const store = await redisCluster.open(connect(t));
  await store.set('close-test', Buffer.from('v'));
  const masters = [];
  for (const url of cluster.urls) {
    if (/^role:master/m.test(String(await askNode(url, 'INFO', 'replication')))) {
      masters.push(Number(/process_id:(\d+)/.exec(String(await askNode(url, 'INFO', 'server')))[1]));
    }
  }
  assert.equal(masters.length, 3);
  for (const pid of masters) process.kill(pid, 'SIGSTOP');
  t.after(() => { for (const pid of masters) process.kill(pid, 'SIGCONT'); });
  const reads = ['key1', 'key2', 'key3', 'close-test']
    .map((key) => store.get(key).then(() => 'answered', () => 'failed'));
  await new Promise((resolve) => setTimeout(resolve, 20));
  const ms = await closeTime(store, CLOSE_GRACE_MS * 3);
  assert.ok(ms !== null, `close() had not settled after ${CLOSE_GRACE_MS * 3} ms`);
  assert.ok(ms >= CLOSE_GRACE_MS * 0.95, `it waited its grace for the answers: ${ms.toFixed(0)} ms`);
  assert.deepEqual(await Promise.all(reads), ['failed', 'failed', 'failed', 'failed']);
});

// Last: it stops the file's cluster.
test('with the cluster gone, reads fail at once instead of queueing', async (t) => {
  if (!connect(t)) return;
  const store = await redisCluster.open(connect(t));
  t.after(() => store.close());
  await store.set('before-the-outage', Buffer.from('x'));
  assert.deepEqual(await store.get('before-the-outage'), Buffer.from('x'));
  await cluster.stop();
  await assert.rejects(store.get('key1'));
  await assert.rejects(store.ping());
});
