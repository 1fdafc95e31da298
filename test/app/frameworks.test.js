// The app's contract on every framework it can be served by (app/frameworks/): one suite, run
// against express, fastify and bare node:http alike. The routes are written once (routes/table.js);
// this holds each adapter to them: the payloads byte-exact, the errors as JSON with their codes,
// the write token and limits, Server-Timing, the deadlines, the drain and --workers.
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { startApp } from '../../app/start-app.js';
import { startAppProcess } from '../../driver/app-process.js';
import { FRAMEWORK_NAMES } from '../../config/settings.js';
import { payloads } from '../../stores/payloads.js';
import { rawRequest } from '../helpers/http.js';
import { reachable, testRedisUrl, unavailable } from '../helpers/services.js';

const TOKEN = 'framework-contract-token';
const MAX_VALUE = 4096;

// Raw bytes to the app; resolves to the status, head and body it answered before closing.
function rawExchange(port, parts) {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => { received += chunk; });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), head, body });
    });
    socket.once('connect', async () => {
      for (const part of parts) {
        if (typeof part === 'number') await sleep(part);
        else if (!socket.destroyed) socket.write(part);
      }
    });
    socket.setTimeout(10_000, () => socket.destroy(new Error('the app held the connection for 10 s')));
  });
}

function get(url, agent) {
  return new Promise((resolve) => {
    const req = request(url, { agent }, (response) => {
      let bytes = 0;
      response.on('data', (chunk) => { bytes += chunk.length; });
      response.on('end', () => resolve({ status: response.statusCode, bytes }));
      response.on('error', (error) => resolve({ error: error.code ?? error.message }));
    });
    req.on('error', (error) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

for (const framework of FRAMEWORK_NAMES) {
  describe(`the app on ${framework}`, () => {
    let app;
    let redisUp;
    before(async () => {
      redisUp = await reachable(testRedisUrl);
      app = await startApp({
        port: 0,
        host: '127.0.0.1',
        framework: [framework],
        stores: ['memory', 'redis', 'memcached'],
        embedded: false,
        env: {
          PATH: process.env.PATH,
          REDIS_URL: testRedisUrl,
          // Nothing listens there: memcached is down, and answers 503.
          MEMCACHED_URL: '127.0.0.1:1',
          STOREBENCH_WRITE_TOKEN: TOKEN,
          STOREBENCH_MAX_VALUE_SIZE: String(MAX_VALUE),
          STOREBENCH_HEADERS_TIMEOUT_MS: '500',
          STOREBENCH_REQUEST_TIMEOUT_MS: '2000',
        },
      });
    });
    after(() => app?.close());

    test('says which framework serves it', async () => {
      const health = await (await fetch(`${app.url}/healthz`)).json();
      assert.equal(health.framework, framework);
      assert.equal((await (await fetch(`${app.url}/stores`)).json()).framework, framework);
    });

    test('serves every key byte-exact, as JSON or bytes, from memory and from redis', async (t) => {
      for (const store of ['memory', 'redis']) {
        if (store === 'redis' && !redisUp && unavailable(t, `no Redis at ${testRedisUrl}`)) return;
        for (const [key, bytes] of Object.entries(payloads)) {
          const answer = await rawRequest(app.url, `/${store}/${key}`);
          assert.equal(answer.status, 200, `${store}/${key}`);
          assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
          assert.equal(Number(answer.headers['content-length']), bytes.length);
          assert.ok(answer.body.equals(bytes), `${store}/${key} is the seeded payload`);
        }
      }
      const head = await fetch(`${app.url}/memory/key2`, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal((await head.arrayBuffer()).byteLength, 0);
      assert.equal(Number(head.headers.get('content-length')), payloads.key2.length);
    });

    test('carries Server-Timing: the store\'s time within the app\'s', async () => {
      const answer = await rawRequest(app.url, '/memory/key1');
      const [, store, total] = /^store;dur=([\d.]+), app;dur=([\d.]+)$/.exec(answer.headers['server-timing']) ?? [];
      assert.ok(store !== undefined, `Server-Timing: ${answer.headers['server-timing']}`);
      assert.ok(Number(store) <= Number(total), `store ${store} ms within app ${total} ms`);
    });

    test('answers 404 and 503 as JSON with their codes', async () => {
      const cases = [
        ['/nosuch/key1', 404, { error: 'unknown store "nosuch"', code: 'UNKNOWN_STORE', store: 'nosuch' }],
        ['/memory/nokey', 404, {
          error: 'key "nokey" not found in store "memory"',
          code: 'KEY_NOT_FOUND',
          store: 'memory',
          key: 'nokey',
        }],
        ['/a/b/c/d', 404, { error: 'no route for GET /a/b/c/d', code: 'NO_ROUTE' }],
      ];
      for (const [path, status, body] of cases) {
        const answer = await rawRequest(app.url, path);
        assert.equal(answer.status, status, path);
        assert.deepEqual(answer.json, body, path);
      }
      const down = await rawRequest(app.url, '/memcached/key1');
      assert.equal(down.status, 503);
      assert.equal(down.json.code, 'STORE_UNAVAILABLE');
      assert.equal(down.json.store, 'memcached');
      const patch = await rawRequest(app.url, '/memory/key1', { method: 'PATCH' });
      assert.equal(patch.status, 405);
      assert.equal(patch.headers.allow, 'GET, HEAD, PUT, DELETE, OPTIONS');
      assert.equal(patch.json.code, 'METHOD_NOT_ALLOWED');
      assert.equal((await rawRequest(app.url, '/stores', { method: 'POST' })).status, 405);
      const badPath = await rawRequest(app.url, '/memory/%E0%A4%A');
      assert.equal(badPath.status, 400);
      assert.equal(badPath.json.code, 'BAD_REQUEST');
    });

    test('a write needs the token, lands with it, and a value over the limit is a 413', async (t) => {
      if (!redisUp && unavailable(t, `no Redis at ${testRedisUrl}`)) return;
      const key = `contract-${framework}-${process.pid}`;
      const value = Buffer.from(`written through ${framework}`);
      const refused = await rawRequest(app.url, `/redis/${key}`, { method: 'PUT', body: value });
      assert.equal(refused.status, 401);
      assert.equal(refused.json.code, 'WRITE_TOKEN_REQUIRED');
      assert.equal(refused.headers['www-authenticate'], 'Bearer');
      const authorization = `Bearer ${TOKEN}`;
      const headers = { authorization };
      const put = await rawRequest(app.url, `/redis/${key}`, { method: 'PUT', body: value, headers });
      assert.equal(put.status, 204);
      assert.match(put.headers['server-timing'], /^store;dur=/);
      assert.ok((await rawRequest(app.url, `/redis/${key}`)).body.equals(value));
      const large = await rawRequest(app.url, `/redis/${key}`, {
        method: 'PUT', body: Buffer.alloc(MAX_VALUE + 1), headers: { authorization },
      });
      assert.equal(large.status, 413);
      assert.equal(large.json.code, 'VALUE_TOO_LARGE');
      const removed = await rawRequest(app.url, `/redis/${key}`, { method: 'DELETE', headers: { authorization } });
      assert.equal(removed.status, 204);
      assert.equal((await rawRequest(app.url, `/redis/${key}`)).status, 404);
    });

    test('headers that stall are answered 408 as JSON, and the connection closes', async () => {
      const answer = await rawExchange(app.port, ['GET /memory/key1 HTTP/1.1\r\nHost: x\r\nX-Slow: ', 3000]);
      assert.equal(answer.status, 408, answer.head);
      assert.match(answer.head, /content-type: application\/json/i);
      assert.equal(JSON.parse(answer.body).code, 'REQUEST_TIMEOUT');
    });
  });

  describe(`app.js --framework ${framework} as its own process`, () => {
    test('drains under 20 keep-alive clients at SIGTERM: every request it took is answered, none reset', async () => {
      // Pins the listener closed in the quiet of before the signal: the clients its in-flight answers told
      // Connection: close came back on new connections, which were reset (half the runs, every framework).
      const app = await startAppProcess({ stores: ['memory'], args: ['--no-embedded', '--framework', framework] });
      const agent = new Agent({ keepAlive: true, maxSockets: 20 });
      const results = [];
      let signalled = false;
      const client = async () => {
        while (true) {
          const result = await get(`${app.url}/memory/key2`, agent);
          results.push({ ...result, afterSignal: signalled });
          if (result.error || result.status !== 200) return;
        }
      };
      const clients = Array.from({ length: 20 }, client);
      await sleep(800);
      signalled = true;
      app.child.kill('SIGTERM');
      const { code } = await app.exited;
      await Promise.all(clients);
      agent.destroy();
      assert.equal(code, 0);
      const before = results.filter((r) => !r.afterSignal);
      assert.ok(before.length >= 20, `${before.length} requests before the signal`);
      assert.deepEqual(before.filter((r) => r.error || r.status !== 200), []);
      // After it: answers in full, or 503 SHUTTING_DOWN, or a connection refused once the listener closed.
      const resets = results.filter((r) => r.error === 'ECONNRESET' || r.error === 'socket hang up');
      assert.deepEqual(resets, []);
    });

    test('--workers 2 serves from both workers, each on this framework', async () => {
      const app = await startAppProcess({
        stores: ['memory'], args: ['--no-embedded', '--framework', framework, '--workers', '2'],
      });
      try {
        const pids = new Set();
        for (let i = 0; i < 20 && pids.size < 2; i += 1) {
          const health = await (await fetch(`${app.url}/healthz`, { headers: { connection: 'close' } })).json();
          assert.equal(health.framework, framework);
          assert.equal(health.workers, 2);
          pids.add(health.pid);
        }
        assert.equal(pids.size, 2, 'connections were handed to both workers');
        const answer = await rawRequest(app.url, '/memory/key3');
        assert.ok(answer.body.equals(payloads.key3));
      } finally {
        await app.stop();
      }
    });
  });
}
