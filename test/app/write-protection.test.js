// Who may write: without a token only an app listening on loopback takes writes; with
// STOREBENCH_WRITE_TOKEN set, every write must carry it. Reads stay open. The app listens on
// every interface (0.0.0.0), as a deployed app does; the check is on the address it listens
// on, so the requests themselves can stay on loopback (tests send nothing off this machine).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { startApp } from '../../app/start-app.js';
import { createApp } from '../../app/create-app.js';
import { StoreSet } from '../../stores/store-set.js';
import * as memory from '../../stores/memory.js';
import { RECORDS_MEDIA_TYPE, encodeRecords } from '../../util/records.js';
import { rawRequest } from '../helpers/http.js';

const TOKEN = 'test-Write-Token_0123456789abcdef';
const BEYOND_LOOPBACK = '0.0.0.0';

// Every kind of write, each to a fresh key.
const writes = (key) => [
  ['PUT', `/memory/${key}`, Buffer.from('v')],
  ['DELETE', `/memory/${key}`, undefined],
  ['POST', `/memory/${key}/append`, Buffer.from('v')],
  ['POST', '/memory', encodeRecords([[key, Buffer.from('v')]]), { 'Content-Type': RECORDS_MEDIA_TYPE }],
];
const send = (app, [method, path, body, headers = {}], extra = {}) => {
  return rawRequest(app.url, path, { method, body, headers: { ...headers, ...extra } });
};

async function app(t, { host, token }) {
  const env = token ? { STOREBENCH_WRITE_TOKEN: token } : {};
  const started = await startApp({ port: 0, host, stores: ['memory'], env });
  t.after(() => started.close());
  return started;
}

test('no token, listening beyond loopback: every write is 403 WRITES_DISABLED and nothing is written; ' +
  'reads stay open', async (t) => {
  const open = await app(t, { host: BEYOND_LOOPBACK });
  assert.equal(open.server.address().address, BEYOND_LOOPBACK);
  for (const write of writes('k')) {
    const answer = await send(open, write);
    assert.equal(answer.status, 403, `${write[0]} ${write[1]}`);
    assert.deepEqual(answer.json, {
      error: 'writes are off: the app listens beyond loopback and STOREBENCH_WRITE_TOKEN is not set',
      code: 'WRITES_DISABLED',
    });
  }
  assert.equal((await rawRequest(open.url, '/memory/k')).status, 404, 'nothing was written');
  assert.equal((await rawRequest(open.url, '/memory/key1')).status, 200, 'reads need no token');
});

test('a token set, listening beyond loopback: none is 401 with WWW-Authenticate, a wrong one 403, ' +
  'the right one writes', async (t) => {
  const guarded = await app(t, { host: BEYOND_LOOPBACK, token: TOKEN });
  for (const write of writes('k')) {
    const missing = await send(guarded, write);
    assert.equal(missing.status, 401, `${write[0]} ${write[1]}`);
    assert.equal(missing.headers['www-authenticate'], 'Bearer');
    assert.equal(missing.json.code, 'WRITE_TOKEN_REQUIRED');
    const basicCredentials = Buffer.from(`x:${TOKEN}`).toString('base64');
    const basic = await send(guarded, write, { Authorization: `Basic ${basicCredentials}` });
    assert.equal(basic.status, 401, 'another scheme carries no bearer token');
    for (const wrong of [`${TOKEN}x`, TOKEN.slice(0, -1), 'x', TOKEN.toUpperCase()]) {
      const answer = await send(guarded, write, { Authorization: `Bearer ${wrong}` });
      assert.equal(answer.status, 403, wrong);
      assert.deepEqual(answer.json, {
        error: 'the bearer token is not the app\'s STOREBENCH_WRITE_TOKEN', code: 'WRITE_TOKEN_INVALID',
      });
    }
  }
  assert.equal((await rawRequest(guarded.url, '/memory/k')).status, 404, 'nothing was written');
  const [put, del, append, bulk] = writes('k');
  assert.equal((await send(guarded, put, { Authorization: `Bearer ${TOKEN}` })).status, 204);
  const anyCase = await send(guarded, append, { Authorization: `bearer  ${TOKEN}` });
  assert.equal(anyCase.status, 204, 'the scheme in any case');
  assert.equal(String((await rawRequest(guarded.url, '/memory/k')).body), 'vv');
  assert.equal((await send(guarded, del, { Authorization: `Bearer ${TOKEN}` })).status, 204);
  assert.deepEqual((await send(guarded, bulk, { Authorization: `Bearer ${TOKEN}` })).json, { written: 1 });
  assert.equal((await rawRequest(guarded.url, '/memory/key1')).status, 200, 'reads need no token');
});

test('on loopback with no token, writes are open; with a token set, the token is required there too', async (t) => {
  const open = await app(t, { host: '127.0.0.1' });
  for (const write of writes('k')) {
    assert.ok([200, 204].includes((await send(open, write)).status), `${write[0]} ${write[1]}`);
  }
  const guarded = await app(t, { host: '127.0.0.1', token: TOKEN });
  assert.equal((await send(guarded, writes('k')[0])).status, 401);
  assert.equal((await send(guarded, writes('k')[0], { Authorization: `Bearer ${TOKEN}` })).status, 204);
});

test('listening on every interface counts as beyond loopback, even for a request arriving over loopback', async (t) => {
  // Behind a proxy on the same host (Cloud Foundry's) every request arrives from loopback.
  const everywhere = await app(t, { host: '0.0.0.0' });
  const answer = await rawRequest(`http://127.0.0.1:${everywhere.port}`, '/memory/k', { method: 'PUT', body: Buffer.from('v') });
  assert.equal(answer.json.code, 'WRITES_DISABLED');
});

test('the loopback check can be given to createApp, and both of its answers hold', async (t) => {
  const memoryStore = await memory.open();
  const open = async () => ({ store: memoryStore, keys: [] });
  const stores = new StoreSet([{ adapter: memory, connections: {}, open }]);
  await stores.openAll();
  t.after(() => stores.close());
  for (const [onLoopback, expected] of [[true, 204], [false, 403]]) {
    const server = createServer(await createApp(stores, { writes: { listensOnLoopback: () => onLoopback } }));
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    t.after(() => new Promise((resolve) => server.close(resolve)));
    const answer = await rawRequest(`http://127.0.0.1:${server.address().port}`, '/memory/k', { method: 'PUT', body: Buffer.from('v') });
    assert.equal(answer.status, expected, `listensOnLoopback ${onLoopback}`);
  }
});

test('the token never shows: not in error answers, /stores, /healthz or the page', async (t) => {
  const guarded = await app(t, { host: '127.0.0.1', token: TOKEN });
  const seen = [];
  for (const write of writes('k')) {
    seen.push(String((await send(guarded, write, { Authorization: `Bearer ${TOKEN}x` })).body));
  }
  for (const path of ['/stores', '/healthz', '/', '/memory/nokey']) {
    seen.push(String((await rawRequest(guarded.url, path)).body));
  }
  for (const text of seen) assert.ok(!text.includes(TOKEN), text.slice(0, 200));
});

test('an unauthorized large-body write is answered at once and the connection closed, the body unread', async (t) => {
  const guarded = await app(t, { host: '127.0.0.1', token: TOKEN });
  const keepAlive = { Connection: 'keep-alive' };
  const large = Buffer.alloc(8 * 1024 * 1024);
  const answer = await rawRequest(guarded.url, '/memory/k', { method: 'PUT', body: large, headers: keepAlive });
  assert.equal(answer.status, 401);
  assert.equal(answer.headers.connection, 'close');
  const small = await rawRequest(guarded.url, '/memory/k', {
    method: 'PUT', body: Buffer.alloc(100), headers: keepAlive,
  });
  assert.equal(small.headers.connection, 'keep-alive', 'a small body is read and dropped, keeping the connection');
});
