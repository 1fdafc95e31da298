// A redis-server or memcached restarted empty left /redis/key1,
// /ioredis/key1 and /memcached/key1 answering 404 for good (the embedded Redis keeps nothing
// on disk, so this hit the default setup). A store whose server comes back empty is seeded
// again. The tests own the servers and restart them, empty, on the same port.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { startApp } from '../../app.js';
import { payloads } from '../../stores/payloads.js';
import { waitUntil } from '../helpers/load.js';
import { ownMemcached, ownRedis } from '../helpers/own-servers.js';

// Restarts server empty under the app, then polls every store x key until each answers
// again: each must then be 200 with the seeded bytes, and no answer along the way a 404.
async function restartEmptyAndCheck(t, server, names, env) {
  const app = await startApp({ port: 0, host: '127.0.0.1', stores: names, env, embedded: false });
  t.after(() => app.close());
  const keys = Object.keys(payloads);
  const urls = names.flatMap((name) => keys.map((key) => [`${app.url}/${name}/${key}`, payloads[key]]));
  for (const [url] of urls) assert.equal((await fetch(url)).status, 200, url);

  await server.stop();
  await server.start(); // same port, no data
  for (const [url, bytes] of urls) {
    const seen = [];
    let body;
    await waitUntil(async () => {
      const response = await fetch(url);
      body = Buffer.from(await response.arrayBuffer());
      seen.push(response.status);
      return response.status !== 503; // the client reconnecting
    }, 30_000, `${url} never answered after the restart`);
    assert.equal(seen.at(-1), 200, `${url} after the restart: ${body}`);
    assert.ok(!seen.includes(404), `${url} answered 404 on the way: ${seen.join(' ')}`);
    assert.ok(body.equals(bytes), `${url} is the seeded payload`);
  }
}

test('a redis-server restarted empty: /redis and /ioredis serve key1..key3 again, ' +
  'never 404', { timeout: 90_000 }, async (t) => {
  const redis = await ownRedis(t);
  if (!redis) return;
  await restartEmptyAndCheck(t, redis, ['redis', 'ioredis'], { REDIS_URL: redis.url });
});

test('a memcached restarted empty: /memcached serves key1..key3 again, never 404', { timeout: 90_000 }, async (t) => {
  const memcached = await ownMemcached(t);
  if (!memcached) return;
  await restartEmptyAndCheck(t, memcached, ['memcached'], { MEMCACHED_URL: memcached.url });
});

test('a seeded key deleted through the app stays deleted: no read re-seeds it, ' +
  'not even after its server restarts empty', { timeout: 90_000 }, async (t) => {
  // Regression: DELETE /redis/key1 answered 204, and the next GET re-seeded key1 and returned it.
  const redis = await ownRedis(t);
  if (!redis) return;
  const app = await startApp({
    port: 0, host: '127.0.0.1', stores: ['memory', 'redis'], env: { REDIS_URL: redis.url }, embedded: false,
  });
  t.after(() => app.close());
  const status = async (store, key) => (await fetch(`${app.url}/${store}/${key}`)).status;
  const servesRedis = (key) => async () => (await status('redis', key)) === 200;
  for (const store of ['memory', 'redis']) {
    assert.equal((await fetch(`${app.url}/${store}/key1`, { method: 'DELETE' })).status, 204);
    assert.equal(await status(store, 'key1'), 404, `${store}: the next read`);
    await sleep(1100); // past the re-seed interval: a later read would re-seed if any could
    assert.equal(await status(store, 'key1'), 404, `${store}: a read a second later`);
    assert.equal(await status(store, 'key2'), 200, `${store}: the other seeded keys stay`);
  }

  await redis.stop();
  await redis.start(); // empty: the app re-seeds what it did not delete, and only that
  await waitUntil(servesRedis('key2'), 30_000, '/redis/key2 never came back after the restart');
  assert.equal(await status('redis', 'key3'), 200);
  assert.equal(await status('redis', 'key1'), 404, 'the deleted key1 is not brought back by the restart');

  // Written again through the app, key1 is seeded data again: lost by the server, it comes back.
  assert.equal((await fetch(`${app.url}/redis/key1`, { method: 'PUT', body: payloads.key1 })).status, 204);
  await redis.stop();
  await redis.start();
  await waitUntil(servesRedis('key1'), 30_000, '/redis/key1, written again, never came back after a restart');
});
