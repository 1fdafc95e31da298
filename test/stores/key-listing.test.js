// The optional keys(prefix) of the store contract (stores/contract.js): study 003's listing before
// its gets of a key each. Redis through both clients (KEYS on the test server) and the in-process
// Map find exactly the keys under a prefix, whatever else the server holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as memory from '../../stores/memory.js';
import * as redis from '../../stores/redis.js';
import * as ioredis from '../../stores/ioredis.js';
import { reachable, testRedisUrl, unavailable } from '../helpers/services.js';

const connections = { redis: { url: testRedisUrl } };

for (const adapter of [memory, redis, ioredis]) {
  test(`${adapter.name}: keys(prefix) lists every key under the prefix and no other`, async (t) => {
    if (adapter.needs.length && !(await reachable(testRedisUrl))) return unavailable(t, `no Redis at ${testRedisUrl}`);
    const store = await adapter.open(connections);
    // A prefix of this test's own: the shared server holds other runs' keys.
    const prefix = `listing_${randomBytes(4).toString('hex')}_`;
    const mine = Array.from({ length: 25 }, (_, i) => `${prefix}${i}`);
    const beside = [`${prefix.slice(0, -1)}x`, `other_${prefix}1`];
    t.after(async () => {
      await Promise.all([...mine, ...beside].map((key) => store.delete(key)));
      await store.close();
    });
    for (const key of [...mine, ...beside]) await store.set(key, Buffer.from('v'));
    assert.deepEqual((await store.keys(prefix)).sort(), [...mine].sort());
    assert.deepEqual(await store.keys(`${prefix}none_`), []);
  });
}
