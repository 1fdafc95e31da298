import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { createRequire } from 'node:module';
import * as tarantool from '../../stores/tarantool.js';
import * as tarantoolMemtx from '../../stores/tarantool-memtx.js';
import { startTarantool } from '../../embedded/tarantool.js';
import { tarantoolOptions } from '../../stores/clients/tarantool-adapter.js';
import { which } from '../../util/which.js';
import { storeConformance } from '../helpers/store-conformance.js';
import { unavailable } from '../helpers/services.js';

// One real tarantool for the whole file, started from embedded/tarantool-init.lua.
let server;
before(async () => {
  if (which('tarantool')) server = await startTarantool();
});
after(() => server?.stop());

const connect = (t) => {
  if (!server) return void unavailable(t, 'tarantool is not installed (apt-get install tarantool)');
  return { tarantool: { url: server.url, source: 'test' } };
};

storeConformance(tarantool, connect);
storeConformance(tarantoolMemtx, connect);

// The server's own answer, through the driver's eval, not the adapter's word for it.
async function engineOnServer(space) {
  const Tarantool = createRequire(import.meta.url)('tarantool-driver');
  const connection = new Tarantool({ ...tarantoolOptions(server.url), lazyConnect: true });
  await connection.connect();
  try {
    return (await connection.eval('return box.space[...].engine', space))[0];
  } finally {
    connection.disconnect();
  }
}

test('tarantool stores its values in a vinyl space and tarantool-memtx in a memtx space', async (t) => {
  if (!connect(t)) return;
  for (const [adapter, engine] of [[tarantool, 'vinyl'], [tarantoolMemtx, 'memtx']]) {
    const store = await adapter.open(connect(t));
    t.after(() => store.close());
    assert.deepEqual(store.stats(), { engine, space: `storebench_${engine}` });
    assert.equal(await engineOnServer(`storebench_${engine}`), engine);
  }
});

test('the two engines keep separate data: a key set through one is absent from the other', async (t) => {
  if (!connect(t)) return;
  const vinyl = await tarantool.open(connect(t));
  const memtx = await tarantoolMemtx.open(connect(t));
  t.after(() => Promise.all([vinyl.close(), memtx.close()]));
  await vinyl.set('only-in-vinyl', Buffer.from('v'));
  assert.equal(await memtx.get('only-in-vinyl'), null);
  assert.deepEqual(await vinyl.get('only-in-vinyl'), Buffer.from('v'));
  await vinyl.delete('only-in-vinyl');
});

test('20 concurrent reads of the 200 KB value all come back byte-exact, on both engines', async (t) => {
  // Regression: tarantool-driver 3.1.0 refused commands sent while a large response was
  // still arriving ("Connection not established yet!"); see stores/clients/tarantool-driver-fix.js.
  if (!connect(t)) return;
  const { payloads } = await import('../../stores/payloads.js');
  for (const adapter of [tarantool, tarantoolMemtx]) {
    const store = await adapter.open(connect(t));
    t.after(() => store.close());
    await store.set('concurrent-key3', payloads.key3);
    const reader = async () => {
      for (let i = 0; i < 25; i++) assert.ok((await store.get('concurrent-key3')).equals(payloads.key3));
    };
    await Promise.all(Array.from({ length: 20 }, reader));
    await store.delete('concurrent-key3');
  }
});

test('the embedded tarantool removes its working directory (vinyl files) when stopped', async (t) => {
  if (!which('tarantool')) return unavailable(t, 'tarantool is not installed (apt-get install tarantool)');
  const own = await startTarantool();
  assert.ok(existsSync(own.dir));
  await own.stop();
  assert.equal(existsSync(own.dir), false);
  await own.stop(); // idempotent
});

test('a stopped server turns reads and pings into errors at once (no offline queue)', async (t) => {
  if (!which('tarantool')) return unavailable(t, 'tarantool is not installed (apt-get install tarantool)');
  const own = await startTarantool();
  t.after(() => own.stop());
  const store = await tarantool.open({ tarantool: { url: own.url, source: 'test' } });
  t.after(() => store.close());
  await store.set('k', Buffer.from('x'));
  await own.stop();
  await assert.rejects(store.get('k'));
  await assert.rejects(store.ping());
});

test('an unreachable TARANTOOL_URL makes open() reject with the reason', async () => {
  const { freePort } = await import('../../embedded/child-process.js');
  const port = await freePort();
  await assert.rejects(tarantool.open({ tarantool: { url: `tarantool://u:p@127.0.0.1:${port}`, source: 'test' } }), /ECONNREFUSED/);
});

test('the app serves /tarantool/:key and /tarantool-memtx/:key, seeded with key1..key3 byte-exact', async (t) => {
  if (!connect(t)) return;
  const { startApp } = await import('../../app/start-app.js');
  const { payloads } = await import('../../stores/payloads.js');
  const app = await startApp({
    port: 0,
    host: '127.0.0.1',
    stores: ['tarantool', 'tarantool-memtx'],
    env: { TARANTOOL_URL: server.url },
  });
  t.after(() => app.close());
  for (const store of ['tarantool', 'tarantool-memtx']) {
    for (const [key, bytes] of Object.entries(payloads)) {
      const response = await fetch(`${app.url}/${store}/${key}`);
      assert.equal(response.status, 200, `${store}/${key}`);
      assert.ok(Buffer.from(await response.arrayBuffer()).equals(bytes), `${store}/${key} is the seeded payload`);
    }
  }
  const listing = await (await fetch(`${app.url}/stores`)).text();
  assert.ok(!listing.includes(new URL(server.url).password), 'the password is never shown');
  const { stores } = JSON.parse(listing);
  assert.deepEqual(
    stores.map((s) => [s.name, s.status, s.stats.engine]),
    [['tarantool', 'up', 'vinyl'], ['tarantool-memtx', 'up', 'memtx']],
  );
});

test('a value over the tuple size limit is refused as VALUE_TOO_LARGE, and the connection goes on', async (t) => {
  if (!connect(t)) return;
  const { randomBytes } = await import('node:crypto');
  for (const adapter of [tarantool, tarantoolMemtx]) {
    const store = await adapter.open(connect(t));
    t.after(() => store.close());
    await assert.rejects(store.set('too-big', randomBytes(1_500_000)), { code: 'VALUE_TOO_LARGE', status: 413, message: /refused a value of 1500000 bytes/ });
    await assert.rejects(store.setMany([['too-big', randomBytes(1_500_000)]]), { code: 'VALUE_TOO_LARGE' });
    await store.ping();
    assert.equal(await store.get('too-big'), null);
  }
});
