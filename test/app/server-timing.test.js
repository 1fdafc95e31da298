// The store routes' Server-Timing header (routes/server-timing-header.js) on the real app: every route
// that calls a store says how long the call took (`store`) and how long the request was in the
// app (`app`), in valid W3C Server Timing, never more than the client waited; answers refused
// before any store call carry none; the setting turns it off by option, variable and flag.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp } from '../../app/start-app.js';
import { parseAppArgs } from '../../cli/app-options.js';
import { RECORDS_MEDIA_TYPE, encodeRecords } from '../../util/records.js';
import { rawRequest } from '../helpers/http.js';
import { parseServerTiming } from '../helpers/server-timing.js';
import { ownRedis } from '../helpers/own-servers.js';

async function memoryApp(t, options = {}) {
  const app = await startApp({ port: 0, host: '127.0.0.1', stores: ['memory'], env: {}, ...options });
  t.after(() => app.close());
  return app;
}

// One request, timed by the client from before it is sent to the last byte of its answer.
async function timed(app, path, options) {
  const started = performance.now();
  const response = await rawRequest(app.url, path, options);
  return { ...response, clientMs: performance.now() - started };
}

// The header's metrics as numbers, after checking it is the W3C grammar and holds store and app.
function timingsOf(response) {
  const value = response.headers['server-timing'];
  const metrics = parseServerTiming(value);
  assert.ok(metrics, `Server-Timing ${JSON.stringify(value)} is valid W3C Server Timing`);
  assert.deepEqual(Object.keys(metrics), ['store', 'app'], value);
  const ms = (name) => {
    assert.match(metrics[name].dur, /^\d+(\.\d{1,3})?$/, `${name}'s dur is milliseconds to the µs: ${value}`);
    return Number(metrics[name].dur);
  };
  return { store: ms('store'), app: ms('app') };
}

test('every store route answers with a valid Server-Timing: store <= app <= what the client waited', async (t) => {
  const app = await memoryApp(t);
  const key = `st-${process.pid}`;
  const bulk = encodeRecords([[`${key}-a`, Buffer.from('1')], [`${key}-b`, Buffer.from('2')]]);
  const routes = [
    ['GET /memory/key1', '/memory/key1', {}, 200],
    ['PUT', `/memory/${key}`, { method: 'PUT', body: Buffer.from('value') }, 204],
    ['HEAD of a written key', `/memory/${key}`, { method: 'HEAD' }, 200],
    ['GET of a written key', `/memory/${key}`, {}, 200],
    ['append', `/memory/${key}/append`, { method: 'POST', body: Buffer.from('+more') }, 204],
    ['bulk load', '/memory', { method: 'POST', body: bulk, headers: { 'Content-Type': RECORDS_MEDIA_TYPE } }, 200],
    ['DELETE', `/memory/${key}`, { method: 'DELETE' }, 204],
    // The store was called and found nothing: its answer is the store's too.
    ['GET of a missing key (404 KEY_NOT_FOUND)', `/memory/${key}`, {}, 404],
  ];
  for (const [name, path, options, status] of routes) {
    // Twice: the first request of a route warms its code; both must hold.
    for (let round = 0; round < 2; round += 1) {
      const response = await timed(app, path, options);
      assert.equal(response.status, status, name);
      const { store, app: inApp } = timingsOf(response);
      assert.ok(store >= 0 && store <= inApp, `${name}: store ${store} ms within app ${inApp} ms`);
      assert.ok(inApp <= response.clientMs, `${name}: app ${inApp} ms within the client's ${response.clientMs} ms`);
    }
  }
});

test('answers refused before any store call carry no Server-Timing: unknown store, bad key, no route', async (t) => {
  const app = await memoryApp(t);
  for (const [path, status, code] of [
    ['/nosuch/key1', 404, 'UNKNOWN_STORE'],
    ['/memory/%00bad', 400, 'INVALID_KEY'],
    ['/memory/key1/extra/path', 404, 'NO_ROUTE'],
  ]) {
    const response = await rawRequest(app.url, path);
    assert.equal(response.status, status, path);
    assert.equal(response.json.code, code, path);
    assert.equal(response.headers['server-timing'], undefined, `${path}: no store was called`);
  }
  for (const path of ['/stores', '/healthz', '/']) {
    assert.equal((await rawRequest(app.url, path)).headers['server-timing'], undefined, `${path} is not a store route`);
  }
});

test('a 503 STORE_TIMEOUT says the store took the operation deadline: a frozen redis held it that long', async (t) => {
  const redis = await ownRedis(t);
  if (!redis) return;
  const app = await startApp({
    port: 0, host: '127.0.0.1', stores: ['redis'], redisUrl: redis.url, env: { STOREBENCH_OP_TIMEOUT_MS: '300' },
  });
  t.after(() => app.close());
  assert.equal((await rawRequest(app.url, '/redis/key1')).status, 200);
  redis.signal('SIGSTOP');
  const response = await timed(app, '/redis/key1');
  redis.signal('SIGCONT');
  assert.equal(response.status, 503);
  assert.equal(response.json.code, 'STORE_TIMEOUT');
  const { store, app: inApp } = timingsOf(response);
  assert.ok(store >= 299 && store <= inApp, `store ${store} ms: the 300 ms deadline (app ${inApp} ms)`);
  assert.ok(inApp <= response.clientMs);
});

test('the setting turns it off: the option, STOREBENCH_SERVER_TIMING and app.js --no-server-timing', async (t) => {
  const byOption = await memoryApp(t, { serverTiming: false });
  const byVariable = await memoryApp(t, { env: { STOREBENCH_SERVER_TIMING: 'off' } });
  for (const app of [byOption, byVariable]) {
    const read = await rawRequest(app.url, '/memory/key1');
    assert.equal(read.status, 200);
    assert.equal(read.headers['server-timing'], undefined);
    const write = await rawRequest(app.url, `/memory/st-off-${process.pid}`, { method: 'PUT', body: Buffer.from('x') });
    assert.equal(write.status, 204);
    assert.equal(write.headers['server-timing'], undefined);
  }
  // The flag beats the variable, as every app setting's does; a word that is neither on nor off is a problem.
  assert.deepEqual(parseAppArgs(['--no-server-timing'], { STOREBENCH_SERVER_TIMING: 'on' }).options,
    { serverTiming: false });
  assert.deepEqual(parseAppArgs([], { STOREBENCH_SERVER_TIMING: 'maybe' }).problems,
    ['STOREBENCH_SERVER_TIMING must be on or off: 1, true, yes, on or 0, false, no, off, not "maybe"']);
  const on = await memoryApp(t, { env: { STOREBENCH_SERVER_TIMING: 'yes' } });
  assert.ok(parseServerTiming((await rawRequest(on.url, '/memory/key1')).headers['server-timing']));
});
