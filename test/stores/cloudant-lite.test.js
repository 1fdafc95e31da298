// Cloudant Lite emulation: the embedded CouchDB stand-in refuses lookups past 20 a
// second with 429, and each CouchDB store retries a 429 after 0.5 s until it gets the document.
import test from 'node:test';
import assert from 'node:assert/strict';
import { startCouchServer } from '../../embedded/couchdb.js';
import * as cloudant from '../../stores/cloudant.js';
import * as cloudantLegacy from '../../stores/cloudant-legacy.js';
import * as couchdbNano from '../../stores/couchdb-nano.js';
import { RETRY_DELAY_MS } from '../../stores/clients/couch-rate-retry.js';

const limitsOf = async (url) => (await fetch(`${url}/_storebench/limits`)).json();

test('a burst of 100 lookups within one second gets at least 70 429s from the Lite ' +
  'stand-in, and it counts them', async (t) => {
  const server = await startCouchServer({ plan: 'lite' });
  t.after(() => server.stop());
  assert.equal((await fetch(`${server.url}/burst`, { method: 'PUT' })).status, 201); // database calls are not metered
  const put = { method: 'PUT', body: '{"a":1}', headers: { 'Content-Type': 'application/json' } };
  assert.equal((await fetch(`${server.url}/burst/doc`, put)).status, 201);

  const responses = await Promise.all(Array.from({ length: 100 }, () => fetch(`${server.url}/burst/doc`)));
  const bodies = await Promise.all(responses.map((response) => response.json()));
  const refused = responses.filter((response) => response.status === 429);
  assert.ok(refused.length >= 70, `${refused.length} 429s`);
  assert.equal(responses.filter((response) => response.status === 200).length + refused.length, 100);
  const refusedBody = bodies[responses.findIndex((response) => response.status === 429)];
  assert.equal(refusedBody.error, 'too_many_requests');
  assert.match(refusedBody.reason, /20 lookups per second/);

  const limits = await limitsOf(server.url);
  assert.equal(limits.plan, 'lite');
  assert.deepEqual(limits.limits, { lookup: 20, write: 10, query: 5 });
  assert.equal(limits.refused.lookup, refused.length);
  assert.equal(limits.accepted.lookup, 100 - refused.length);
  assert.equal(limits.accepted.write, 1);
});

test('writes past 10 a second get 429 too, and without a plan nothing is refused', async (t) => {
  const [lite, open] = await Promise.all([startCouchServer({ plan: 'lite' }), startCouchServer()]);
  t.after(() => Promise.all([lite.stop(), open.stop()]));
  for (const server of [lite, open]) {
    await fetch(`${server.url}/w`, { method: 'PUT' });
    const statuses = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        fetch(
          `${server.url}/w/d${i}`,
          { method: 'PUT', body: '{}', headers: { 'Content-Type': 'application/json' } },
        ).then((response) => response.status),
      ),
    );
    const refused = statuses.filter((status) => status === 429).length;
    if (server === lite) assert.ok(refused >= 15, `${refused} of 30 writes refused`);
    else assert.equal(refused, 0);
  }
  assert.equal((await limitsOf(open.url)).plan, 'none');
});

for (const adapter of [cloudant, cloudantLegacy, couchdbNano]) {
  test(`${adapter.name} retries a 429 after 0.5 s: 30 reads at once all get the document, ` +
    'those refused no sooner than 0.5 s after they started', async (t) => {
    const server = await startCouchServer({ plan: 'lite' });
    t.after(() => server.stop());
    const store = await adapter.open({ couchdb: { url: server.url, source: 'test' } }, { couchdbDatabase: 'lite' });
    t.after(() => store.close());
    await store.set('k', Buffer.from('hello'));
    // the write and the reads of set() out of the window
    await new Promise((resolve) => { setTimeout(resolve, 1100); });

    const durations = await Promise.all(Array.from({ length: 30 }, async () => {
      const started = performance.now();
      const value = await store.get('k');
      assert.equal(value.toString(), 'hello');
      return performance.now() - started;
    }));
    const { rateLimited } = store.stats();
    const limits = await limitsOf(server.url);
    assert.ok(rateLimited.seen429 >= 10, `${rateLimited.seen429} 429s seen`);
    assert.equal(rateLimited.seen429, limits.refused.lookup, 'every 429 the stand-in sent reached the store');
    assert.equal(rateLimited.retries, rateLimited.seen429);
    assert.equal(rateLimited.gaveUp, 0);
    // At most 20 reads fit the first window; each of the others waited out at least one retry delay.
    const waited = durations.filter((ms) => ms >= RETRY_DELAY_MS).length;
    assert.ok(waited >= 30 - 20, `${waited} reads took 0.5 s or more`);
  });
}

test('app.js --cloudant-plan lite: 40 reads of /cloudant/key1 at once all answer 200, ' +
  'those past the limit after the 0.5 s retry, and /stores counts the 429s', async (t) => {
  const { startAppProcess } = await import('../../driver/app-process.js');
  const app = await startAppProcess({ stores: ['cloudant'], args: ['--cloudant-plan', 'lite'] });
  t.after(() => app.stop());
  const stats = async () => {
    const { stores } = await (await fetch(`${app.url}/stores`)).json();
    return stores.find((store) => store.name === 'cloudant').stats.rateLimited;
  };
  await new Promise((resolve) => { setTimeout(resolve, 1100); }); // the seed's requests out of the window
  const before = await stats();
  const answers = await Promise.all(Array.from({ length: 40 }, async () => {
    const started = performance.now();
    const response = await fetch(`${app.url}/cloudant/key1`);
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  }));
  assert.deepEqual([...new Set(answers.map((answer) => answer.status))], [200]);
  assert.ok(answers.filter((answer) => answer.ms >= RETRY_DELAY_MS).length >= 40 - 20);
  const after = await stats();
  assert.ok(after.seen429 - before.seen429 >= 20, `${after.seen429 - before.seen429} 429s`);
  assert.equal(after.retries - before.retries, after.seen429 - before.seen429);
});
