import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as ioredis from '../../stores/ioredis.js';
import { startRedisServer } from '../../embedded/redis-server.js';
import { which } from '../../util/which.js';
import { payloads } from '../../stores/payloads.js';
import { storeConformance } from '../helpers/store-conformance.js';
import { reachable, testRedisUrl, unavailable } from '../helpers/services.js';
import { redactUrl } from '../../util/redact.js';

storeConformance(ioredis, async (t) => {
  if (!(await reachable(testRedisUrl))) return void unavailable(t, `no Redis at ${redactUrl(testRedisUrl)}`);
  return { redis: { url: testRedisUrl, source: 'test' } };
});

test('ioredis: many reads issued at once (auto-pipelined) each get their own bytes', async (t) => {
  if (!(await reachable(testRedisUrl))) return unavailable(t, `no Redis at ${redactUrl(testRedisUrl)}`);
  const store = await ioredis.open({ redis: { url: testRedisUrl } });
  t.after(() => store.close());
  await Promise.all(Object.entries(payloads).map(([key, bytes]) => store.set(`ioredis-${key}`, bytes)));
  const keys = Array.from({ length: 60 }, (_, i) => Object.keys(payloads)[i % 3]);
  const values = await Promise.all(keys.map((key) => store.get(`ioredis-${key}`)));
  values.forEach((bytes, i) => assert.ok(bytes.equals(payloads[keys[i]]), `read ${i} (${keys[i]})`));
  await Promise.all(Object.keys(payloads).map((key) => store.delete(`ioredis-${key}`)));
});

test('ioredis: with the server gone, a read fails at once instead of queueing', async (t) => {
  if (!which('redis-server')) return unavailable(t, 'redis-server is not installed');
  const server = await startRedisServer();
  t.after(() => server.stop());
  const store = await ioredis.open({ redis: { url: server.url } });
  t.after(() => store.close());
  await store.set('k', payloads.key1);
  await server.stop();
  // No offline queue: the promise settles (rejects) rather than waiting for a reconnect.
  await assert.rejects(store.get('k'));
  await assert.rejects(store.ping());
});

test('ioredis: a server that refuses connections makes open() reject with the reason', async () => {
  const server = await startRedisServer().catch(() => null);
  const url = server ? server.url : 'redis://127.0.0.1:1';
  await server?.stop();
  await assert.rejects(ioredis.open({ redis: { url } }), /ECONNREFUSED/);
});
