import assert from 'node:assert/strict';
import { dirname } from 'node:path';
import { before, after, test } from 'node:test';
import * as memcached from '../../stores/memcached.js';
import { missingReason, startMemcachedServer } from '../../embedded/memcached-server.js';
import { SYSTEM_DIRS, which } from '../../util/which.js';
import { payloads } from '../../stores/payloads.js';
import { storeConformance } from '../helpers/store-conformance.js';
import { unavailable } from '../helpers/services.js';

// MEMCACHED_URL when set; else a memcached of our own, as the embedded default would start.
let server;
before(async () => {
  if (!process.env.MEMCACHED_URL && which('memcached')) server = await startMemcachedServer();
});
after(() => server?.stop());
const memcachedUrl = () => process.env.MEMCACHED_URL ?? server?.url;

storeConformance(memcached, async (t) => {
  if (!memcachedUrl()) return void unavailable(t, 'no MEMCACHED_URL and memcached is not installed');
  return { memcached: { url: memcachedUrl(), source: 'test' } };
});

test('memcached: the whole 270 KB of key1..key3 fits under the 1 MB item limit, each byte-exact', async (t) => {
  if (!memcachedUrl()) return unavailable(t, 'no MEMCACHED_URL and memcached is not installed');
  const store = await memcached.open({ memcached: { url: memcachedUrl() } });
  t.after(() => store.close());
  const all = Buffer.concat(Object.values(payloads));
  await store.set('memcached-all', all);
  assert.ok((await store.get('memcached-all')).equals(all));
  await store.delete('memcached-all');
});

test('memcached: MEMCACHED_URL and MEMCACHED_SERVERS forms become memjs server lists', () => {
  assert.equal(memcached.serverList('memcached://127.0.0.1:11211'), '127.0.0.1:11211');
  assert.equal(memcached.serverList('memcache://user:pw@a:1/,memcached://b:2'), 'user:pw@a:1,b:2');
  assert.equal(memcached.serverList('a:1,b:2'), 'a:1,b:2');
});

test('memcached: a server that refuses connections makes open() reject', async () => {
  await assert.rejects(memcached.open({ memcached: { url: 'memcached://127.0.0.1:1' } }), /ECONNREFUSED/);
});

test('with no memcached on PATH the embedded default gives the one-line reason, ' +
  'saying where it is when it is installed off PATH', async () => {
  const installed = which('memcached', SYSTEM_DIRS.join(':'));
  const expected = installed
    ? `no MEMCACHED_URL and no memcached on PATH; it is installed at ${installed}, ` +
      `but ${dirname(installed)} is not on PATH: add it or set MEMCACHED_URL`
    : missingReason;
  await assert.rejects(startMemcachedServer({ path: '/nonexistent' }), { code: 'NOT_INSTALLED', message: expected });
  assert.equal(missingReason, 'no MEMCACHED_URL and no memcached on PATH; install memcached or set MEMCACHED_URL');
});

test('memcached: a stopped server fails requests at once, ' +
  'and the same client answers again once a server is back', async (t) => {
  if (!which('memcached')) return unavailable(t, 'memcached is not installed');
  let own = await startMemcachedServer();
  t.after(() => own.stop());
  const store = await memcached.open({ memcached: { url: own.url } });
  t.after(() => store.close());
  await store.set('recovery', payloads.key1);
  await own.stop();
  await assert.rejects(store.get('recovery'));
  await assert.rejects(store.ping());

  own = await startMemcachedServer({ port: own.port });
  await store.ping();
  assert.equal(await store.get('recovery'), null, 'memcached keeps nothing across a restart');
  await store.set('recovery', payloads.key1);
  assert.ok((await store.get('recovery')).equals(payloads.key1));
});

test('memcached: a password in MEMCACHED_SERVERS (memjs\'s scheme-less form) is never shown', async () => {
  const { resolveService } = await import('../../embedded/resolve-service.js');
  const { connection } = await resolveService(
    'memcached',
    { env: { MEMCACHED_SERVERS: 'user:hunter2@127.0.0.1:11211,other:s3cret@127.0.0.2:11211' } },
  );
  assert.equal(connection.source, 'MEMCACHED_SERVERS');
  assert.equal(connection.display, '***@127.0.0.1:11211,***@127.0.0.2:11211');
  assert.equal(
    connection.url,
    'user:hunter2@127.0.0.1:11211,other:s3cret@127.0.0.2:11211',
    'the client still gets the credentials',
  );
});

test('memcached: a value over its item size limit is refused as VALUE_TOO_LARGE, set, ' +
  'bulk or append, and the client goes on', async (t) => {
  if (!memcachedUrl()) return unavailable(t, 'no MEMCACHED_URL and memcached is not installed');
  const { randomBytes } = await import('node:crypto');
  const store = await memcached.open({ memcached: { url: memcachedUrl() } });
  t.after(() => store.close());
  const tooBig = randomBytes(1_500_000);
  await assert.rejects(store.set('too-big', tooBig), { code: 'VALUE_TOO_LARGE', status: 413, message: /memcached server refused a value of 1500000 bytes/ });
  await assert.rejects(store.setMany([['too-big', tooBig]]), { code: 'VALUE_TOO_LARGE' });
  await assert.rejects(store.append('too-big', tooBig), { code: 'VALUE_TOO_LARGE' });
  await store.ping();
  assert.equal(await store.get('too-big'), null);
});
