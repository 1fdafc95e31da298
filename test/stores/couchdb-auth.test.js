// The embedded CouchDB stand-in with credentials required (COUCH_ADMIN_USER/PASSWORD):
// the real Cloudant SDK gets in with the right ones and is refused (401) without them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCouchServer } from '../../embedded/couchdb.js';
import * as cloudant from '../../stores/cloudant.js';
import { payloads } from '../../stores/payloads.js';

const admin = { username: 'bench-admin', password: 'Couch-Pa55word-7f3a' };
const basic = (username, password) => ({
  authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
});

test('the stand-in requires credentials: none or wrong ones get 401, ' +
  'right ones work through the Cloudant SDK', async (t) => {
  const server = await startCouchServer({ admin });
  t.after(() => server.stop());

  const anonymous = await fetch(`${server.url}/_all_dbs`);
  assert.equal(anonymous.status, 401);
  assert.deepEqual(await anonymous.json(), { error: 'unauthorized', reason: 'Authentication required.' });
  const wrong = await fetch(`${server.url}/_all_dbs`, { headers: basic(admin.username, 'not-the-password') });
  assert.equal(wrong.status, 401);
  assert.equal((await wrong.json()).reason, 'Name or password is incorrect.');

  await assert.rejects(
    cloudant.open({ couchdb: { url: `http://${admin.username}:wrong-password@127.0.0.1:${server.port}` } }),
    (error) => error.status === 401,
  );
  await assert.rejects(cloudant.open({ couchdb: { url: server.url } }), (error) => error.status === 401);

  const store = await cloudant.open({ couchdb: { url: `http://${admin.username}:${admin.password}@127.0.0.1:${server.port}` } });
  t.after(() => store.close());
  await store.set('key1', payloads.key1);
  assert.deepEqual(JSON.parse(await store.get('key1')), JSON.parse(payloads.key1));
  const right = await fetch(`${server.url}/storebench/k%3Akey1`, { headers: basic(admin.username, admin.password) });
  assert.equal(right.status, 200);
});

test('without COUCH_ADMIN_USER the stand-in stays open, as the embedded default needs', async (t) => {
  const server = await startCouchServer();
  t.after(() => server.stop());
  const response = await fetch(`${server.url}/_all_dbs`);
  assert.equal(response.status, 200);
});
