// The write settings: sizes with units, the token's shape, and that the token is never quoted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveSetting, resolveSettings } from '../../config/precedence.js';
import { defaults } from '../../config/settings.js';
import { parseAppArgs } from '../../cli/app-options.js';
import { isLoopbackAddress } from '../../routes/write-guard.js';

test('limits default to 16 MB a value and 64 MB a bulk body, and take bytes or KB, MB, GB', () => {
  assert.equal(defaults.maxValueSize, 16 * 1024 * 1024);
  assert.equal(defaults.maxBulkSize, 64 * 1024 * 1024);
  const value = (raw) => resolveSetting('maxValueSize', { env: { STOREBENCH_MAX_VALUE_SIZE: raw } }).value;
  assert.equal(value('100'), 100);
  assert.equal(value('10KB'), 10_240);
  assert.equal(value('1 mb'), 1024 ** 2);
  assert.equal(value('1GB'), 1024 ** 3);
  assert.equal(resolveSetting('maxValueSize', { options: { maxValueSize: 512 } }).value, 512);
  for (const raw of ['0', '-1', '1.5MB', '2GB', 'lots', '16 TB']) {
    assert.match(resolveSetting('maxBulkSize', { env: { STOREBENCH_MAX_BULK_SIZE: raw } }).problem, /^STOREBENCH_MAX_BULK_SIZE must be a size from 1 byte to 1 GB/, raw);
  }
  assert.deepEqual(parseAppArgs(['--max-value-size', '1KB'], {}).options, { maxValueSize: '1KB' });
  assert.deepEqual(parseAppArgs(['--max-value-size', '0'], {}).problems, [
    '--max-value-size must be a size from 1 byte to 1 GB: a whole number of bytes, or with KB, ' +
    'MB or GB (powers of 1024), not "0"',
  ]);
});

test('the write token is a bearer token of 16 characters or more, and a bad one is never quoted', () => {
  const token = 'k3y-For_Writes.0123456789~+/=';
  assert.equal(resolveSetting('writeToken', { env: { STOREBENCH_WRITE_TOKEN: token } }).value, token);
  assert.equal(resolveSetting('writeToken', { env: {} }).value, undefined);
  for (const bad of ['short-Secret-1', 'has a space in it, long enough', 'ünicode-ünicode-ünicode']) {
    const { problem } = resolveSetting('writeToken', { env: { STOREBENCH_WRITE_TOKEN: bad } });
    assert.equal(
      problem,
      'STOREBENCH_WRITE_TOKEN must be at least 16 characters of A-Z a-z 0-9 . _ ~ + / - (a bearer token)',
    );
  }
  assert.deepEqual(resolveSettings({ env: {} }, ['writes']).problems, []);
});

test('loopback is 127.0.0.0/8 and ::1, IPv4-mapped too; every other address, or none, is not', () => {
  for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) {
    assert.equal(isLoopbackAddress(address), true, address);
  }
  for (const address of [
    '0.0.0.0', '::', '192.0.2.2', '::ffff:10.0.0.1', 'fd00::2', 'localhost', '/tmp/app.sock', undefined,
    '127.0.0.1.example.com',
  ]) {
    assert.equal(isLoopbackAddress(address), false, String(address));
  }
});
