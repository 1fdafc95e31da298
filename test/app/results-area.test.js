// The results area (PUT/GET /_results/<run>/<part>), where the tasks of npm run load:cf leave
// their results: behind the write token both ways, size-limited, kept in memory with the
// oldest dropped first, and never a store (it is not in /stores and no store sees its bytes).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { startApp } from '../../app/start-app.js';
import { createApp } from '../../app/create-app.js';
import { StoreSet } from '../../stores/store-set.js';
import * as memory from '../../stores/memory.js';
import { rawRequest } from '../helpers/http.js';

const TOKEN = 'results-Area-Token_0123456789abcdef';
const bearer = { Authorization: `Bearer ${TOKEN}` };

test('a result put with the token is read back byte for byte; without it or with another, it is refused', async (t) => {
  const app = await startApp({ port: 0, host: '0.0.0.0', stores: ['memory'], env: { STOREBENCH_WRITE_TOKEN: TOKEN } });
  t.after(() => app.close());
  const url = `http://127.0.0.1:${app.port}`;
  const body = Buffer.from('{"format":"storebench-results/6","x":"\u00e9"}');
  assert.equal((await rawRequest(url, '/_results/run-1/1', { method: 'PUT', body })).json.code, 'WRITE_TOKEN_REQUIRED');
  const wrongToken = { Authorization: 'Bearer nope' };
  const refused = await rawRequest(url, '/_results/run-1/1', { method: 'PUT', body, headers: wrongToken });
  assert.equal(refused.json.code, 'WRITE_TOKEN_INVALID');
  const put = await rawRequest(url, '/_results/run-1/1', { method: 'PUT', body, headers: bearer });
  assert.equal(put.status, 204);
  assert.equal((await rawRequest(url, '/_results/run-1/1')).status, 401, 'reading needs the token too');
  const got = await rawRequest(url, '/_results/run-1/1', { headers: bearer });
  assert.equal(got.status, 200);
  assert.deepEqual(got.body, body);
  assert.equal(got.headers['cache-control'], 'no-store');
  const absent = await rawRequest(url, '/_results/run-1/2', { headers: bearer });
  assert.equal(absent.status, 404);
  assert.equal(absent.json.code, 'RESULT_NOT_FOUND');
  const bad = await rawRequest(url, '/_results/run.1/0', { headers: bearer });
  assert.equal(bad.status, 400);
  assert.equal(bad.json.code, 'INVALID_RESULT_ID');
  const stores = (await rawRequest(url, '/stores')).json.stores.map((store) => store.name);
  assert.ok(!stores.some((name) => name.includes('result')), 'no store of it');
  assert.equal((await rawRequest(url, '/memory/1')).status, 404, 'nothing written to a store');
});

test('a result over the limit is 413 RESULT_TOO_LARGE; past the total the oldest results are dropped', async (t) => {
  const memoryStore = await memory.open();
  const open = async () => ({ store: memoryStore, keys: [] });
  const stores = new StoreSet([{ adapter: memory, connections: {}, open }]);
  await stores.openAll();
  t.after(() => stores.close());
  const writes = { token: TOKEN, maxResultSize: 100, maxTotalSize: 250 };
  const server = createServer(await createApp(stores, { writes }));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  const url = `http://127.0.0.1:${server.address().port}`;
  const put = (id, size) => {
    return rawRequest(url, `/_results/${id}`, { method: 'PUT', body: Buffer.alloc(size, 65), headers: bearer });
  };
  const large = await put('r/1', 101);
  assert.equal(large.status, 413);
  assert.equal(large.json.code, 'RESULT_TOO_LARGE');
  for (const part of [1, 2, 3]) assert.equal((await put(`r/${part}`, 100)).status, 204);
  const status = async (id) => (await rawRequest(url, `/_results/${id}`, { headers: bearer })).status;
  assert.deepEqual([await status('r/1'), await status('r/2'), await status('r/3')], [404, 200, 200],
    'r/1 dropped to make room');
  assert.equal((await put('r/2', 50)).status, 204, 'a part put again replaces its result');
  assert.equal((await put('r/4', 100)).status, 204);
  assert.deepEqual([await status('r/2'), await status('r/3'), await status('r/4')], [200, 200, 200],
    '50 + 100 + 100 fit in 250');
});
