import assert from 'node:assert/strict';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { startAppProcess } from '../../driver/app-process.js';
import { reachable } from '../helpers/services.js';
import { payloads } from '../../stores/payloads.js';

// The URLs of the servers the embedded default started, from /stores.
async function embeddedServers(url) {
  const { stores } = await (await fetch(`${url}/stores`)).json();
  return [...new Set(stores.flatMap((s) => Object.values(s.servers)).filter((where) => where.startsWith('embedded: ')))]
    .flatMap((where) => where.slice('embedded: '.length).split(',')); // a cluster lists every node
}

async function waitUntilClosed(urls, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (const url of urls) {
    while (await reachable(url)) {
      assert.ok(Date.now() < deadline, `${url} still accepts connections: an orphaned server`);
      await sleep(100);
    }
  }
}

// A request whose body we read slowly, so it is still in flight when SIGTERM arrives.
function slowGet(url) {
  return new Promise((resolve, reject) => {
    request(url, { agent: false }, (response) => {
      response.pause();
      const chunks = [];
      response.once('readable', () => {});
      setTimeout(() => {
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode, body: Buffer.concat(chunks) }));
        response.resume();
      }, 500);
      response.on('error', reject);
    }).on('error', reject).end();
  });
}

// Each as one process, and as app.js --workers 2 (the primary starts the servers, the workers serve).
for (const workers of [1, 2]) {
  const args = ['--workers', String(workers)];
  const as = workers > 1 ? ` (--workers ${workers})` : '';

  test(`SIGTERM finishes the in-flight request, stops the spawned servers and exits 0 within 10 s${as}`, async () => {
    const app = await startAppProcess({ args });
    const servers = await embeddedServers(app.url);
    assert.ok(servers.length >= 1, 'the embedded default started at least the CouchDB stand-in');

    const inFlight = slowGet(`${app.url}/memory/key3`);
    await sleep(100);
    const signalledAt = Date.now();
    app.child.kill('SIGTERM');
    const { body, status } = await inFlight;
    assert.equal(status, 200);
    assert.ok(body.equals(payloads.key3), 'the in-flight 200 KB response arrived whole');

    const { code } = await app.exited;
    assert.equal(code, 0);
    assert.ok(Date.now() - signalledAt < 10_000, 'exited within 10 s');
    assert.match(app.output(), /SIGTERM: finishing in-flight requests/);
    await waitUntilClosed(servers, 3000);
  });

  test(`a crashed app (SIGKILL) leaves no redis-server or CouchDB child behind${as}`, async () => {
    const app = await startAppProcess({ args });
    const servers = await embeddedServers(app.url);
    app.child.kill('SIGKILL');
    await app.exited;
    await waitUntilClosed(servers, 5000);
  });
}
