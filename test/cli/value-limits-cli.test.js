// Regression: `node test --stores memcached,tarantool --workload write --value-size 1MB` sent its
// whole load to servers that refuse 1 MB values, and every request got 413. Now a --value-size
// over a store's own limit (its /stores maxValueSize) exits 2 before any load, one line per
// store naming the limit and how to raise it, over HTTP and in direct mode; raising the
// embedded server's limit lets the same run through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runDriverCli } from '../helpers/driver-cli.js';
import { unavailable } from '../helpers/services.js';
import { startAppProcess } from '../../driver/app-process.js';
import { httpRequest } from '../../driver/http-request.js';
import { which } from '../../util/which.js';

const missing = () => ['memcached', 'tarantool'].filter((program) => !which(program));
const write1MB = ['-w', 'write', '--records', '5', '--value-size', '1MB', '-c', '1', '-n', '5', '--warmup', '0'];
const usageTail = 'Run node test --help for usage.\n';
// The environment of a user who configured nothing: every server is the embedded one, with its default limit.
const configured = ['MEMCACHED_URL', 'MEMCACHED_SERVERS', 'TARANTOOL_URL', 'STOREBENCH_MEMCACHED_ITEM_SIZE',
  'STOREBENCH_TARANTOOL_TUPLE_SIZE'];
const plainEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !configured.includes(name)));

const line = (store, where, most, limit, setting) => 'node test: --value-size: values up to 1048576 bytes, ' +
  `but ${store} ${where} accepts at most ${most} bytes in one value (${limit}); ` +
  `raise it with ${setting} for the embedded server, or leave ${store} out of --stores`;
const memcachedLine = (where) => line('memcached', where, 1048267,
  'memcached -I: item_size_max 1048576 bytes as the server says, less 309 for the item header, CAS and the longest key',
  'STOREBENCH_MEMCACHED_ITEM_SIZE or app.js --memcached-item-size');
const memtxLine = (where) => line('tarantool-memtx', where, 1048304,
  'box.cfg memtx_max_tuple_size: 1048576 bytes as the server says, less 272 for the tuple header and the longest key',
  'STOREBENCH_TARANTOOL_TUPLE_SIZE or app.js --tarantool-tuple-size');

test('--target: a --value-size over memcached\'s and tarantool-memtx\'s limits exits 2, one line each, ' +
  'and nothing is written', async (t) => {
  if (missing().length) return unavailable(t, `${missing().join(' and ')} not installed`);
  const app = await startAppProcess({ stores: ['memory', 'memcached', 'tarantool-memtx'], env: plainEnv });
  t.after(() => app.stop());
  const result = await runDriverCli(['--target', app.url, '--stores', 'memory,memcached,tarantool-memtx', ...write1MB]);
  assert.equal(result.status, 2, result.stderr);
  assert.equal(result.stdout, '');
  assert.equal(result.stderr, `${memcachedLine(`at ${app.url}/`)}\n${memtxLine(`at ${app.url}/`)}\n${usageTail}`);
  for (const store of ['memory', 'memcached', 'tarantool-memtx']) {
    const { status } = await httpRequest(`${app.url}/${store}/user0000000000`);
    assert.equal(status, 404, `nothing was written to ${store}`);
  }
});

test('the embedded default: refused before any step; with STOREBENCH_MEMCACHED_ITEM_SIZE=2MB the same 1 MB run ' +
  'writes without an error', async (t) => {
  if (!which('memcached')) return unavailable(t, 'memcached is not installed');
  const refused = await runDriverCli(['--stores', 'memcached', ...write1MB], { env: plainEnv });
  assert.equal(refused.status, 2, refused.stderr);
  assert.doesNotMatch(refused.stdout, /## |maxRequests/, 'no step ran');
  assert.ok(refused.stderr.endsWith(`${memcachedLine('at the embedded app.js')}\n${usageTail}`), refused.stderr);

  const raisedEnv = { ...plainEnv, STOREBENCH_MEMCACHED_ITEM_SIZE: '2MB' };
  const raised = await runDriverCli(['--stores', 'memcached', ...write1MB], { env: raisedEnv });
  assert.equal(raised.status, 0, raised.stderr);
  // The step's row: maxRequests 5, concurrency 1, the figures, then its errors (the last cell).
  assert.match(raised.stdout, /\n +5 +1 +(?:\S+ +)+0\n/, raised.stdout);
  assert.match(raised.stdout, /\nverified \d+\/\d+ written values\n/);
});

test('--direct: the same refusal, naming the stores opened in the driver\'s own process', async (t) => {
  if (missing().length) return unavailable(t, `${missing().join(' and ')} not installed`);
  const args = ['--direct', '--stores', 'memcached,tarantool-memtx', ...write1MB];
  const result = await runDriverCli(args, { env: plainEnv });
  assert.equal(result.status, 2, result.stderr);
  assert.doesNotMatch(result.stdout, /## |maxRequests/, 'no step ran');
  const where = 'in this process (--direct)';
  assert.ok(result.stderr.endsWith(`${memcachedLine(where)}\n${memtxLine(where)}\n${usageTail}`), result.stderr);
});
