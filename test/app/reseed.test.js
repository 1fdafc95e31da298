// Issue 9, item 3: a redis-server or memcached restarted empty left /redis/key1,
// /ioredis/key1 and /memcached/key1 answering 404 for good (the embedded Redis keeps nothing
// on disk, so this hit the default setup). A store whose server comes back empty is seeded
// again. The tests own the servers and restart them, empty, on the same port.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startApp } from '../../app.js';
import { payloads } from '../../data/payloads.js';
import { waitUntil } from '../helpers/load.js';
import { ownMemcached, ownRedis } from '../helpers/own-servers.js';

// Restarts server empty under the app, then polls every store x key until each answers
// again: each must then be 200 with the seeded bytes, and no answer along the way a 404.
async function restartEmptyAndCheck(t, server, names, env) {
  const app = await startApp({ port: 0, host: '127.0.0.1', stores: names, env, embedded: false });
  t.after(() => app.close());
  const urls = names.flatMap((name) => Object.keys(payloads).map((key) => [`${app.url}/${name}/${key}`, payloads[key]]));
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

test('a redis-server restarted empty: /redis and /ioredis serve key1..key3 again, never 404', { timeout: 90_000 }, async (t) => {
  const redis = await ownRedis(t);
  if (!redis) return;
  await restartEmptyAndCheck(t, redis, ['redis', 'ioredis'], { REDIS_URL: redis.url });
});

test('a memcached restarted empty: /memcached serves key1..key3 again, never 404', { timeout: 90_000 }, async (t) => {
  const memcached = await ownMemcached(t);
  if (!memcached) return;
  await restartEmptyAndCheck(t, memcached, ['memcached'], { MEMCACHED_URL: memcached.url });
});
