import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startApp } from '../../app/start-app.js';
import { storeNames } from '../../stores/index.js';
import { payloads, payloadObjects } from '../../stores/payloads.js';
import { startRedisServer } from '../../embedded/redis-server.js';
import { freePort } from '../../embedded/child-process.js';
import { unavailable } from '../helpers/services.js';
import { SYSTEM_DIRS, which } from '../../util/which.js';

const jpeg20kb = readFileSync(new URL('../../data/images/20kb.jpg', import.meta.url));
const body = async (response) => Buffer.from(await response.arrayBuffer());

describe('the app on the embedded default (memory, spawned redis-server, CouchDB stand-in)', () => {
  let app;
  before(async () => {
    app = await startApp({ port: 0, host: '127.0.0.1', env: { PATH: process.env.PATH } });
  });
  after(() => app?.close());

  test('GET /memory/key1 answers {"message":"Text data"} as JSON, without x-powered-by or ETag', async () => {
    const response = await fetch(`${app.url}/memory/key1`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(response.headers.get('x-powered-by'), null);
    assert.equal(response.headers.get('etag'), null);
    assert.deepEqual(await response.json(), { message: 'Text data' });
  });

  test('every store serves every key byte-exact', async (t) => {
    const { stores } = await (await fetch(`${app.url}/stores`)).json();
    for (const { name: store, status, reason } of stores) {
      if (status === 'unavailable') { unavailable(t, reason); continue; }
      for (const [key, bytes] of Object.entries(payloads)) {
        const response = await fetch(`${app.url}/${store}/${key}`);
        assert.equal(response.status, 200, `${store}/${key}`);
        assert.ok((await body(response)).equals(bytes), `${store}/${key} is the seeded payload`);
      }
    }
  });

  test('GET /cloudant/key2 carries the 20 KB JPEG as a data URL whose bytes are data/images/20kb.jpg', async () => {
    const payload = await (await fetch(`${app.url}/cloudant/key2`)).json();
    assert.equal(payload.message, payloadObjects.key2.message);
    assert.ok(payload.image.startsWith('data:image/jpeg;base64,'));
    const image = Buffer.from(payload.image.slice('data:image/jpeg;base64,'.length), 'base64');
    assert.ok(image.equals(jpeg20kb));
    assert.ok(image.length >= 18 * 1024 && image.length <= 22 * 1024, `20 KB image is ${image.length} bytes`);
    assert.deepEqual([image[0], image[1], image[2]], [0xff, 0xd8, 0xff], 'a JPEG starts with SOI');
  });

  test('an unknown store is a JSON 404 naming it', async () => {
    const response = await fetch(`${app.url}/nosuchstore/key1`);
    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), {
      error: 'unknown store "nosuchstore"', code: 'UNKNOWN_STORE', store: 'nosuchstore',
    });
  });

  test('a missing key is a JSON 404 naming store and key', async () => {
    for (const store of ['memory', 'cloudant']) {
      const response = await fetch(`${app.url}/${store}/key4`);
      assert.equal(response.status, 404);
      const error = await response.json();
      assert.equal(error.code, 'KEY_NOT_FOUND');
      assert.equal(error.store, store);
      assert.equal(error.key, 'key4');
    }
  });

  test('an unknown path is a JSON 404', async () => {
    const response = await fetch(`${app.url}/a/b/c`);
    assert.equal(response.status, 404);
    assert.match((await response.json()).error, /no route/);
  });

  test('GET /stores lists every store with status, keys and where its server is', async (t) => {
    const { stores } = await (await fetch(`${app.url}/stores`)).json();
    assert.deepEqual(stores.map((s) => s.name), storeNames);
    for (const store of stores) {
      if (store.status === 'unavailable') { unavailable(t, store.reason); continue; }
      assert.equal(store.status, 'up', store.name);
      assert.deepEqual(store.keys, ['key1', 'key2', 'key3']);
    }
    const servers = Object.fromEntries(stores.map((s) => [s.name, s.servers]));
    if (which('redis-server')) assert.match(servers.redis.redis ?? '', /^embedded: redis:\/\/127\.0\.0\.1:\d+$/);
    assert.match(servers.cloudant.couchdb, /^embedded: http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  test('GET /healthz is 200 with each store\'s status', async () => {
    const response = await fetch(`${app.url}/healthz`);
    assert.equal(response.status, 200);
    const health = await response.json();
    assert.equal(health.status, 'ok');
    assert.equal(health.stores.memory, 'up');
    assert.equal(health.stores.cloudant, 'up');
  });

  test('GET / is an HTML page linking every store x key, loading nothing from outside', async () => {
    const response = await fetch(`${app.url}/`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type'), /^text\/html/);
    const html = await response.text();
    for (const store of ['memory', 'cloudant']) {
      for (const key of ['key1', 'key2', 'key3']) {
        assert.ok(html.includes(`href="/${store}/${key}"`), `${store}/${key} link`);
      }
    }
    assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//, 'no external assets');
    assert.match(html, /<figure data-store="cloudant">/);
  });
});

describe('a store that is down', () => {
  test('its routes answer 503 naming it while the app serves the others', async (t) => {
    if (!which('redis-server')) return unavailable(t, 'redis-server is not installed');
    const redis = await startRedisServer();
    t.after(() => redis.stop());
    const app = await startApp({
      port: 0, host: '127.0.0.1', stores: ['memory', 'redis'], env: { REDIS_URL: redis.url },
    });
    t.after(() => app.close());
    assert.equal((await fetch(`${app.url}/redis/key1`)).status, 200);

    await redis.stop(); // a real outage: the server process is gone
    const response = await fetch(`${app.url}/redis/key1`);
    assert.equal(response.status, 503);
    const error = await response.json();
    assert.equal(error.store, 'redis');
    assert.equal(error.code, 'STORE_UNAVAILABLE');
    assert.match(error.error, /^store "redis" is unavailable: /);

    assert.equal((await fetch(`${app.url}/memory/key1`)).status, 200, 'memory still serves');
    const { stores } = await (await fetch(`${app.url}/stores`)).json();
    assert.equal(stores.find((s) => s.name === 'redis').status, 'down');
    assert.equal((await fetch(`${app.url}/healthz`)).status, 200, 'the app itself is healthy');
  });

  test('a configured server unreachable at start: its store is unavailable with a reason, the rest serve', async () => {
    const closedPort = await freePort();
    const env = { REDIS_URL: `redis://:hunter2@127.0.0.1:${closedPort}` };
    const app = await startApp({ port: 0, host: '127.0.0.1', stores: ['memory', 'redis'], env });
    try {
      const response = await fetch(`${app.url}/redis/key2`);
      assert.equal(response.status, 503);
      const error = await response.json();
      assert.equal(error.store, 'redis');
      assert.match(error.error, /ECONNREFUSED|connect/);
      const listing = await (await fetch(`${app.url}/stores`)).text();
      assert.ok(!listing.includes('hunter2'), 'the password is never shown');
      assert.match(listing, /redis:\/\/:\*\*\*@127\.0\.0\.1/);
      assert.equal((await fetch(`${app.url}/memory/key2`)).status, 200);
    } finally {
      await app.close();
    }
  });

  test('with no redis-server on PATH and no REDIS_URL, redis is unavailable with a one-line reason', async () => {
    const app = await startApp({
      port: 0, host: '127.0.0.1', stores: ['memory', 'redis'], env: { PATH: '/nonexistent' },
    });
    try {
      const { stores } = await (await fetch(`${app.url}/stores`)).json();
      const redis = stores.find((s) => s.name === 'redis');
      assert.equal(redis.status, 'unavailable');
      // Installed off PATH, it says where, not "install": an installed program is never called missing.
      const installed = which('redis-server', SYSTEM_DIRS.join(':'));
      assert.equal(redis.reason, installed
        ? `no REDIS_URL and no redis-server on PATH; it is installed at ${installed}, ` +
          `but ${dirname(installed)} is not on PATH: add it or set REDIS_URL`
        : 'no REDIS_URL and no redis-server on PATH; install redis-server or set REDIS_URL');
      assert.equal(redis.reasonCode, 'NOT_INSTALLED');
      const response = await fetch(`${app.url}/redis/key1`);
      assert.equal(response.status, 503);
      assert.equal((await response.json()).store, 'redis');
    } finally {
      await app.close();
    }
  });
});

describe('request logging', () => {
  test('is off by default and, when asked for, logs method, path, status and time per request', async (t) => {
    for (const logRequests of [false, true]) {
      const lines = [];
      const log = (line) => lines.push(line);
      const app = await startApp({ port: 0, host: '127.0.0.1', stores: ['memory'], log, logRequests });
      t.after(() => app.close());
      await (await fetch(`${app.url}/memory/key1`)).arrayBuffer();
      await (await fetch(`${app.url}/memory/nokey`)).arrayBuffer();
      if (!logRequests) assert.deepEqual(lines, []);
      else {
        assert.equal(lines.length, 2);
        assert.match(lines[0], /^GET \/memory\/key1 200 \d+\.\d\d ms$/);
        assert.match(lines[1], /^GET \/memory\/nokey 404 \d+\.\d\d ms$/);
      }
    }
  });
});
