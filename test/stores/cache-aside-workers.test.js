// postgres+redis in several app processes (app.js --workers N): each process's own record of the
// writes under way (key-writes.js) cannot see another's, so the cache's fills are versioned in
// Redis. Two stores opened here stand for two workers: a read through one races a write through
// the other, its PostgreSQL made slow by a delaying proxy so that the write lands mid-read.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import * as cacheAside from '../../stores/layers/postgres+redis.js';
import { delayConnection } from '../../embedded/delayed-connection.js';
import { sqlConnections, testRedis } from '../helpers/sql-stores.js';

// Half each way: a read's query reaches PostgreSQL 300 ms after it is sent, its rows come back 300 ms later.
const RTT_MS = 600;

test('postgres+redis, --workers 2: a read through one worker never fills the cache with the value a write ' +
  'through another replaced', async (t) => {
  const connections = await sqlConnections(t, { redis: true });
  if (!connections) return;
  const delayed = await delayConnection('postgres', connections.postgres, { rttMs: RTT_MS, jitterMs: 0, bandwidth: 0 });
  t.after(() => delayed.stop());
  const reader = await cacheAside.open({ ...connections, postgres: delayed.connection }, { workers: 2 });
  const writer = await cacheAside.open(connections, { workers: 2 });
  const key = `aside-workers-${randomUUID()}`;
  // Registered before the Redis client's own after-hook, which runs after it (first-registered first).
  t.after(async () => {
    await writer.delete(key);
    await redis.del(cacheAside.VERSION_PREFIX + key);
    await Promise.all([reader.close(), writer.close()]);
  });
  const redis = await testRedis(t);

  const [older, newer] = [Buffer.from('older'), Buffer.from('newer')];
  await writer.set(key, older);
  const reading = reader.get(key); // a miss: its query on the slow connection
  // The query has reached PostgreSQL (300 ms) and read the older row; its answer is on its way
  // back (until 600 ms). The write commits and drops the cached copy meanwhile.
  await sleep(RTT_MS * 0.7);
  await writer.set(key, newer);
  await reading;
  assert.equal(await redis.get(cacheAside.KEY_PREFIX + key), null, 'the read did not fill the cache');
  assert.ok((await writer.get(key)).equals(newer));
  assert.ok((await reader.get(key)).equals(newer));
  assert.ok((await redis.get(cacheAside.KEY_PREFIX + key)).equals(newer), 'a later read filled it');
});
