// What the probe counts as a sample: only an answer the load's requests would count as one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { openProbeTarget } from '../../driver/probe/requests.js';
import { startSampling } from '../../driver/probe/sampler.js';

// Answers /status/N with status N at once, /slow with 200 after 5 ms.
async function statusServer(t) {
  const server = createServer((request, response) => {
    if (request.url === '/slow') return setTimeout(() => response.end('ok'), 5);
    response.statusCode = Number(request.url.split('/')[2]);
    response.end('no');
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  }));
  return `http://127.0.0.1:${server.address().port}`;
}

async function probe(t, target, maxCount) {
  const opened = await openProbeTarget(target, { timeoutMs: 2000 });
  t.after(() => opened.close());
  return startSampling(opened.send, { maxCount }).done;
}

test('the HTTP probe counts 404, 429 and 5xx answers as errors, not latencies', async (t) => {
  // Pins the review's bug: any status was a sample, and fast error answers pulled the figures down.
  const url = await statusServer(t);
  for (const status of [404, 429, 500, 503]) {
    const figures = await probe(t, { kind: 'http', url: `${url}/status/${status}` }, 5);
    const none = { count: 0, errors: 5, meanMs: null, p50Ms: null, p99Ms: null, noiseMs: null };
    assert.deepEqual(figures, none, `status ${status}`);
  }
  const ok = await probe(t, { kind: 'http', url: `${url}/slow` }, 5);
  assert.equal(ok.count, 5);
  assert.equal(ok.errors, 0);
  assert.ok(ok.p50Ms >= 5, `p50 ${ok.p50Ms} ms of a 5 ms hold`);
  const created = await probe(t, { kind: 'http', url: `${url}/status/204` }, 3);
  assert.equal(created.count, 3);
});

test('the direct probe counts a get that finds no value (the direct mode\'s 404) as an error', async (t) => {
  const figures = await probe(t, { kind: 'direct', store: 'memory', key: 'key-that-is-not-there', connections: {} }, 4);
  assert.deepEqual(figures, { count: 0, errors: 4, meanMs: null, p50Ms: null, p99Ms: null, noiseMs: null });
});
