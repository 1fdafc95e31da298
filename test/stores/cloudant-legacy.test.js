import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import * as cloudantLegacy from '../../stores/cloudant-legacy.js';
import { startCouchServer } from '../../embedded/couchdb.js';
import { startApp } from '../../app/start-app.js';
import { payloads } from '../../stores/payloads.js';
import { storeConformance } from '../helpers/store-conformance.js';

// The end-of-life client against the embedded CouchDB-compatible server, over HTTP.
let server;
before(async () => { server = await startCouchServer(); });
after(() => server?.stop());

storeConformance(
  cloudantLegacy,
  async () => ({ couchdb: { url: server.url, source: 'test' } }),
  { settings: { couchdbDatabase: 'conformance' } },
);

const couchStores = ['cloudant', 'cloudant-legacy', 'couchdb-nano'];

test('the three CouchDB clients serve key1..key3 byte-exact from one server, each from its own database', async (t) => {
  const app = await startApp({
    port: 0,
    host: '127.0.0.1',
    stores: couchStores,
    env: { COUCHDB_URL: server.url, CLOUDANT_DB: 'three-clients' },
  });
  t.after(() => app.close());
  for (const store of couchStores) {
    for (const [key, bytes] of Object.entries(payloads)) {
      const response = await fetch(`${app.url}/${store}/${key}`);
      assert.equal(response.status, 200, `${store}/${key}`);
      assert.ok(Buffer.from(await response.arrayBuffer()).equals(bytes), `${store}/${key} is the seeded payload`);
    }
  }
  // Straight from the server: each client wrote its own copy, so none can break another's seeding.
  for (const db of ['three-clients', 'three-clients-legacy', 'three-clients-nano']) {
    const document = await (await fetch(`${server.url}/${db}/k%3Akey1`)).json();
    assert.equal(document.message, 'Text data', db);
  }
});

test('seeding again at the next start writes new revisions instead of failing', async (t) => {
  const env = { COUCHDB_URL: server.url, CLOUDANT_DB: 'reseed' };
  for (let start = 1; start <= 2; start++) {
    const app = await startApp({ port: 0, host: '127.0.0.1', stores: couchStores, env });
    const { stores } = await (await fetch(`${app.url}/stores`)).json();
    await app.close();
    assert.deepEqual(
      stores.map((s) => [s.name, s.status, s.keys.length]),
      couchStores.map((name) => [name, 'up', 3]),
      `start ${start}`,
    );
  }
  for (const db of ['reseed', 'reseed-legacy', 'reseed-nano']) {
    const { _rev } = await (await fetch(`${server.url}/${db}/k%3Akey3`)).json();
    assert.match(_rev, /^2-/, `${db}/key3 was written twice`);
  }
});

test('/stores marks cloudant-legacy as an end-of-life client, and only it', async (t) => {
  const app = await startApp({ port: 0, host: '127.0.0.1', stores: couchStores, env: { COUCHDB_URL: server.url } });
  t.after(() => app.close());
  const { stores } = await (await fetch(`${app.url}/stores`)).json();
  assert.deepEqual(
    stores.map((s) => [s.name, s.lifecycle]),
    [
      ['cloudant', undefined],
      ['cloudant-legacy', 'end-of-life client (@cloudant/cloudant)'],
      ['couchdb-nano', undefined],
    ],
  );
});

// The app, copied to a temp dir whose node_modules links every installed package except
// @cloudant/cloudant: what `npm install --omit=optional` leaves.
async function appWithoutLegacyClient() {
  const repo = fileURLToPath(new URL('../..', import.meta.url));
  const dir = await mkdtemp(join(tmpdir(), 'storebench-no-legacy-'));
  await cp(repo, dir, { recursive: true, filter: (source) => !/\/(node_modules|\.git)(\/|$)/.test(source.slice(repo.length - 1)) });
  const modules = join(repo, 'node_modules');
  await mkdir(join(dir, 'node_modules', '@cloudant'), { recursive: true });
  for (const entry of await readdir(modules)) {
    if (entry === '@cloudant') continue;
    await symlink(join(modules, entry), join(dir, 'node_modules', entry));
  }
  for (const entry of await readdir(join(modules, '@cloudant'))) {
    if (entry !== 'cloudant') {
      await symlink(join(modules, '@cloudant', entry), join(dir, 'node_modules', '@cloudant', entry));
    }
  }
  return { dir, url: pathToFileURL(join(dir, 'app', 'start-app.js')).href };
}

test('without @cloudant/cloudant installed, cloudant-legacy is unavailable with the reason ' +
  'and the other stores serve', async (t) => {
  const copy = await appWithoutLegacyClient();
  t.after(() => rm(copy.dir, { recursive: true, force: true }));
  const { startApp: startCopy } = await import(copy.url);
  const app = await startCopy({
    port: 0,
    host: '127.0.0.1',
    stores: ['memory', ...couchStores],
    env: { COUCHDB_URL: server.url, CLOUDANT_DB: 'no-legacy' },
  });
  t.after(() => app.close());

  const { stores } = await (await fetch(`${app.url}/stores`)).json();
  const legacy = stores.find((s) => s.name === 'cloudant-legacy');
  assert.equal(legacy.status, 'unavailable');
  assert.match(legacy.reason, /^its client @cloudant\/cloudant could not be loaded \(ERR_MODULE_NOT_FOUND\)/);
  const response = await fetch(`${app.url}/cloudant-legacy/key1`);
  assert.equal(response.status, 503);
  assert.equal((await response.json()).store, 'cloudant-legacy');
  for (const store of ['memory', 'cloudant', 'couchdb-nano']) {
    assert.equal(stores.find((s) => s.name === store).status, 'up', store);
    assert.equal((await fetch(`${app.url}/${store}/key2`)).status, 200, store);
  }
});
