// The key alphabet: what every route checks before any store is called.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { INTERNAL_SEPARATOR, KEY_MAX_LENGTH, assertKey, keyProblem } from '../../stores/keys.js';
import { KEY_PREFIX as cacheAsidePrefix } from '../../stores/layers/postgres+redis.js';
import { KEY_PREFIX as writeBehindPrefix } from '../../stores/layers/redis+postgres.js';

test('keys of 1 to 250 characters of A-Z a-z 0-9 . _ : ~ - are valid, the edges included', () => {
  for (const key of [
    'key1', 'user0000000042', 'a', '.', '..', '_all_docs', '_changes', 'a:b', '~x-y_z.1', 'x'.repeat(KEY_MAX_LENGTH),
  ]) {
    assert.equal(keyProblem(key), undefined, key);
  }
});

test('anything else is refused, each with a reason that names the first bad character', () => {
  assert.equal(keyProblem(''), 'a key is 1 to 250 characters, not empty');
  assert.equal(keyProblem('x'.repeat(251)), 'a key is at most 250 characters, not 251');
  assert.equal(keyProblem('x'.repeat(10_240)), 'a key is at most 250 characters, not 10240');
  assert.equal(keyProblem('\0'), 'a key has only the characters A-Z a-z 0-9 . _ : ~ -, not U+0000');
  assert.equal(keyProblem('a/b'), 'a key has only the characters A-Z a-z 0-9 . _ : ~ -, not "/"');
  for (const key of ['a b', 'a%2e', 'é', 'a#b', 'a?b', '{tag}', 'a\nb', 'ключ', '😀']) assert.ok(keyProblem(key), key);
  assert.throws(() => assertKey('a b', 'redis'), { code: 'INVALID_KEY', status: 400, store: 'redis' });
});

test('the layers keep their Redis keys behind a separator no key can contain', () => {
  assert.ok(keyProblem(INTERNAL_SEPARATOR));
  assert.equal(cacheAsidePrefix, 'storebench#cache-aside#');
  assert.equal(writeBehindPrefix, 'storebench#write-behind#');
  assert.ok(keyProblem(`${writeBehindPrefix}key1`), 'another store\'s internal key is not a key');
});
