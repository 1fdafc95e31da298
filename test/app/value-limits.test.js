// GET /stores gives each store whose server has a size limit of its own its largest value
// (maxValueSize, with what the limit is and how to raise it), and the embedded memcached and
// Tarantool take the settings that raise it, flag over environment over default. Real app on
// port 0, real embedded servers.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { startApp } from '../../app/start-app.js';
import { KEY_MAX_LENGTH } from '../../stores/keys.js';
import { which } from '../../util/which.js';
import { rawRequest } from '../helpers/http.js';
import { unavailable } from '../helpers/services.js';

const MB = 1024 ** 2;
const limited = ['memcached', 'tarantool', 'tarantool-memtx'];

async function appWithLimits(t, { env = {}, ...options } = {}) {
  const missing = ['memcached', 'tarantool'].filter((program) => !which(program));
  if (missing.length) return void unavailable(t, `${missing.join(' and ')} not installed`);
  // Only PATH from here: every server is the embedded one, whatever this shell configures.
  const app = await startApp({
    port: 0, host: '127.0.0.1', stores: ['memory', ...limited], env: { PATH: process.env.PATH, ...env }, ...options,
  });
  t.after(() => app.close());
  const { stores, limits } = (await rawRequest(app.url, '/stores')).json;
  return { app, stores: Object.fromEntries(stores.map((store) => [store.name, store])), limits };
}

test('/stores by default: memcached 1048267, tarantool 1048286, tarantool-memtx 1048304, memory none', async (t) => {
  const { stores, limits } = (await appWithLimits(t)) ?? {};
  if (!stores) return;
  assert.deepEqual(limits, { maxValueSize: 16 * MB }, 'the app-wide limit stays where it was');
  for (const name of limited) assert.equal(stores[name].status, 'up', `${name}: ${stores[name].reason}`);
  assert.equal(stores.memory.maxValueSize, undefined);
  assert.equal(stores.memory.valueLimit, undefined);
  assert.deepEqual(stores.memcached.maxValueSize, 1048267);
  assert.deepEqual(stores.memcached.valueLimit, {
    limit: 'memcached -I: item_size_max 1048576 bytes as the server says, less 309 for the item header, CAS ' +
      'and the longest key',
    raise: 'STOREBENCH_MEMCACHED_ITEM_SIZE or app.js --memcached-item-size for the embedded server',
  });
  assert.equal(stores.tarantool.maxValueSize, 1048286);
  assert.equal(stores['tarantool-memtx'].maxValueSize, 1048304);
  assert.equal(stores['tarantool-memtx'].valueLimit.raise,
    'STOREBENCH_TARANTOOL_TUPLE_SIZE or app.js --tarantool-tuple-size for the embedded server');
});

test('raised limits (the option over the environment, the environment over the default): a PUT at each new ' +
  'limit is stored byte-exact, one byte more is 413', async (t) => {
  const { app, stores } = (await appWithLimits(t, {
    memcachedItemSize: '2MB',
    env: { STOREBENCH_MEMCACHED_ITEM_SIZE: '1536KB', STOREBENCH_TARANTOOL_TUPLE_SIZE: '2MB' },
  })) ?? {};
  if (!app) return;
  const expected = { memcached: 2 * MB - 309, tarantool: 2 * MB - 290, 'tarantool-memtx': 2 * MB - 272 };
  const key = 'v'.repeat(KEY_MAX_LENGTH);
  for (const [name, largest] of Object.entries(expected)) {
    assert.equal(stores[name].maxValueSize, largest, name);
    const bytes = randomBytes(largest);
    const stored = await rawRequest(app.url, `/${name}/${key}`, { method: 'PUT', body: bytes });
    assert.ok(stored.status >= 200 && stored.status < 300, `${name}: PUT of ${largest} bytes: ${stored.status}`);
    const read = await rawRequest(app.url, `/${name}/${key}`);
    assert.equal(read.status, 200);
    assert.ok(read.body.equals(bytes), `${name}: read back byte-exact`);
    const over = await rawRequest(app.url, `/${name}/${key}`, { method: 'PUT', body: randomBytes(largest + 1) });
    assert.equal(over.status, 413, name);
    assert.equal(over.json.code, 'VALUE_TOO_LARGE');
    assert.equal(over.json.store, name);
  }
});
