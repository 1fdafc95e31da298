// The arithmetic of a server's own value limit (stores/value-limits.js), the settings that
// raise the embedded servers' limits, and the driver's lines refusing a --value-size over a
// store's limit. The same figures against the real servers: test/stores/value-limits.test.js.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { memcachedMaxValue, tarantoolMaxValue } from '../../stores/value-limits.js';
import { resolveSetting } from '../../config/precedence.js';
import { parseAppArgs } from '../../cli/app-options.js';
import { storeLimitProblems } from '../../driver/targets.js';

const MB = 1024 ** 2;

test('memcached: item_size_max less 309 bytes with CAS (header 48, CAS 8, key 250 + NUL, CRLF), 301 without', () => {
  assert.equal(memcachedMaxValue(MB), 1048267);
  assert.equal(memcachedMaxValue(MB, false), 1048275);
  assert.equal(memcachedMaxValue(64 * MB), 64 * MB - 309);
});

test('Tarantool: the max tuple size less the engine header and the MessagePack of a 250-byte key and the value', () => {
  // Measured on Tarantool 2.6.0 for a 250-byte key, around the binary header's 2-, 3- and 5-byte forms.
  const measured = [[MB, 1048304, 1048286], [65600, 65330, 65312], [65536, 65266, 65248], [1024, 754, 736]];
  for (const [size, memtx, vinyl] of measured) {
    assert.equal(tarantoolMaxValue(size, 'memtx'), memtx, `memtx ${size}`);
    assert.equal(tarantoolMaxValue(size, 'vinyl'), vinyl, `vinyl ${size}`);
  }
});

test('--memcached-item-size and --tarantool-tuple-size: the option over the environment over the 1 MB default', () => {
  const settings = {
    memcachedItemSize: 'STOREBENCH_MEMCACHED_ITEM_SIZE',
    tarantoolTupleSize: 'STOREBENCH_TARANTOOL_TUPLE_SIZE',
  };
  for (const [key, variable] of Object.entries(settings)) {
    assert.deepEqual(resolveSetting(key, { env: {} }), { value: MB, source: 'default' });
    assert.deepEqual(resolveSetting(key, { env: { [variable]: '2MB' } }), { value: 2 * MB, source: variable });
    const both = resolveSetting(key, { options: { [key]: '3MB' }, env: { [variable]: '2MB' } });
    assert.deepEqual(both, { value: 3 * MB, source: 'option' });
  }
});

test('a limit the embedded server cannot take is a problem before it starts, naming the flag or variable', () => {
  const sizes = 'in bytes or with KB, MB or GB';
  const { problems } = parseAppArgs(['--memcached-item-size', '1000KB', '--tarantool-tuple-size', '512KB'], {});
  assert.deepEqual(problems, [
    `--memcached-item-size must be a size from 1 MB to 1 GB, a multiple of 512 KB, ${sizes} (memcached -I), ` +
      'not "1000KB"',
    `--tarantool-tuple-size must be a size from 1 MB to 1 GB, ${sizes} ` +
      '(box.cfg memtx_max_tuple_size and vinyl_max_tuple_size), not "512KB"',
  ]);
  assert.deepEqual(parseAppArgs([], { STOREBENCH_MEMCACHED_ITEM_SIZE: '2GB' }).problems, [
    `STOREBENCH_MEMCACHED_ITEM_SIZE must be a size from 1 MB to 1 GB, a multiple of 512 KB, ${sizes} ` +
      '(memcached -I), not "2GB"',
  ]);
  assert.deepEqual(parseAppArgs(['--memcached-item-size', '3MB', '--tarantool-tuple-size', '1500000'], {}), {
    help: false, options: { memcachedItemSize: '3MB', tarantoolTupleSize: '1500000' }, problems: [],
  });
});

test('the driver: one line per swept store whose limit is under the largest value, with how to raise it', () => {
  const listing = [
    { name: 'memory' },
    { name: 'memcached', maxValueSize: 1048267, valueLimit: { limit: 'memcached -I: ...', raise: 'STOREBENCH_X' } },
    { name: 'tarantool', maxValueSize: 2000, valueLimit: { limit: 'box.cfg ...', raise: 'its box.cfg' } },
    { name: 'tarantool-memtx', maxValueSize: 2000 }, // not swept
    { name: 'other', maxValueSize: 10, valueLimit: { limit: 42 } }, // an app's text that is not text
  ];
  const targets = ['memory', 'memcached', 'tarantool', 'other'].map((store) => ({ store }));
  const head = (store, most) =>
    `--value-size: values up to 1048268 bytes, but ${store} at the embedded app.js accepts at most ${most} bytes`;
  assert.deepEqual(storeLimitProblems(listing, targets, 1048268, 'at the embedded app.js'), [
    `${head('memcached', 1048267)} in one value (memcached -I: ...); raise it with STOREBENCH_X, ` +
      'or leave memcached out of --stores',
    `${head('tarantool', 2000)} in one value (box.cfg ...); raise it with its box.cfg, ` +
      'or leave tarantool out of --stores',
    `${head('other', 10)} in one value (its server's own limit); raise it with the server's own setting, ` +
      'or leave other out of --stores',
  ]);
  const atTheLimit = storeLimitProblems(listing, targets.slice(0, 2), 1048267, 'at x');
  assert.deepEqual(atTheLimit, [], 'exactly the limit is fine');
  assert.deepEqual(storeLimitProblems(listing, targets, undefined, 'at x'), [], 'no key-space workload, no values');
});
