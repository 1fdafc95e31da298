// Regression (issue 35): store time is recorded for 2xx answers only, so a store that answered
// half its reads 503 STORE_TIMEOUT was ranked by its fast survivors, first. Two stores behind one
// node:http server on port 0, run through node test: the one that failed half its reads ranks
// after the one that answered all, and says how much it answered, in the JSON and the table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromJson } from '../../result/format.js';
import { runDriverCli } from '../helpers/driver-cli.js';

// steady: every read 200, its store 0.5 ms. flaky: every other read 503 STORE_TIMEOUT, as the app
// answers past its operation deadline; the others 200 with a store time of 0.1 ms.
async function twoStores(t) {
  let flakyReads = 0;
  const server = createServer((request, response) => {
    const [, store] = request.url.split('/');
    if (store === 'flaky' && request.headers['user-agent'] && flakyReads++ % 2 === 1) {
      response.writeHead(503, { 'content-type': 'application/json', 'server-timing': 'store;dur=250' });
      return void response.end(JSON.stringify({ error: 'the store did not answer in time', code: 'STORE_TIMEOUT' }));
    }
    const storeMs = store === 'flaky' ? 0.1 : 0.5;
    response.writeHead(200, { 'content-type': 'application/json', 'server-timing': `store;dur=${storeMs}` });
    response.end('{"message":"Text data"}');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  }));
  const base = `http://127.0.0.1:${server.address().port}`;
  return { steady: `${base}/steady/key1`, flaky: `${base}/flaky/key1` };
}

test('a store answering half its reads 503 ranks after one that answered all, marked with its share', async (t) => {
  const urls = await twoStores(t);
  const dir = await mkdtemp(join(tmpdir(), 'storebench-store-rank-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'run.json');
  const ran = await runDriverCli(['--url', urls.flaky, '--url', urls.steady, '-c', '2', '-n', '400', '--warmup', '0',
    '--no-control', '--json', file]);
  assert.equal(ran.status, 0, ran.stderr);
  const [group] = fromJson(await readFile(file, 'utf8')).comparison;
  const row = (store) => group.rows.find((each) => each.store === store);
  assert.ok(row('flaky').storeTime.p50Ms < row('steady').storeTime.p50Ms, 'its survivors were the faster');
  assert.equal(row('flaky').storeAnswered, 0.5);
  assert.equal(row('steady').storeAnswered, 1);
  assert.deepEqual([row('steady').storeRank, row('flaky').storeRank], [1, 2]);
  const table = ran.stdout + ran.stderr;
  assert.match(table, /flaky .* 2 \(50% answered\)/, table);
});
