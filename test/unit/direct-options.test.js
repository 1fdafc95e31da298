// --direct: the flag, and what it cannot be combined with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArguments, usage } from '../../cli/options.js';
import { directUrl } from '../../driver/direct-targets.js';
import { keyOfPath } from '../../driver/engines/direct.js';
import { progressLabel } from '../../report/progress.js';
import { displayUrl } from '../../report/table.js';

test('--direct is read, with --stores and a workload', () => {
  const { options, problems } = parseArguments(
    ['--direct', '--stores', 'memory,redis', '-w', 'ycsb-a', '--records', '100'],
    {},
  );
  assert.deepEqual(problems, []);
  assert.equal(options.direct, true);
  assert.deepEqual(options.stores, ['memory', 'redis']);
  assert.equal(options.keySpace, true);
});

test('--direct with --url or --target is refused, one line each', () => {
  assert.deepEqual(parseArguments(['--direct', '--url', 'http://127.0.0.1:1/redis/key1'], {}).problems, [
    '--direct calls the stores in this process: it takes no --url (choose stores with --stores)',
  ]);
  assert.deepEqual(parseArguments(['--direct', '--target', 'http://127.0.0.1:1'], {}).problems, [
    '--direct calls the stores in this process: it takes no --target (choose stores with --stores)',
  ]);
});

test('--direct with --no-keepalive is refused: there is no HTTP connection to keep', () => {
  assert.deepEqual(parseArguments(['--direct', '--no-keepalive'], {}).problems, [
    '--no-keepalive is about HTTP connections: --direct makes none (each store keeps its client\'s own connections)',
  ]);
});

test('--help describes --direct', () => {
  assert.match(usage, /--direct {2,}call the store adapters in this process/);
});

test('a direct target is named direct://store/key, shown as it is, and the progress line says direct', () => {
  assert.equal(directUrl('postgres+redis', 'key1'), 'direct://postgres+redis/key1');
  assert.equal(directUrl('redis'), 'direct://redis');
  assert.equal(displayUrl(directUrl('postgres+redis', 'key1')), 'direct://postgres+redis/key1');
  assert.equal(progressLabel({ url: 'direct://redis/key1', store: 'redis', key: 'key1' }, { concurrency: 5 }), 'direct · redis key1 · concurrency 5');
});

test('the direct engine finds the key in a workload path whatever its base', () => {
  assert.equal(keyOfPath('/user0000000001'), 'user0000000001');
  assert.equal(keyOfPath('/user0000000001/append', 'POST'), 'user0000000001');
  assert.equal(keyOfPath('/redis/user0000000002/append', 'POST'), 'user0000000002');
  // Only an append's path ends in /append: a key called "append" is a key.
  assert.equal(keyOfPath('/redis/append', 'GET'), 'append');
  assert.equal(keyOfPath('/prefix/redis/user0000000003'), 'user0000000003');
  assert.equal(keyOfPath('user0000000004'), 'user0000000004');
  assert.equal(keyOfPath('/redis/user0000000005/'), 'user0000000005');
  assert.equal(keyOfPath('/redis/a%2Db'), 'a-b');
});
