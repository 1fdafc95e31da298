// KeyWrites: when a read may fill the cache, and which acknowledged write is the newest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyWrites } from '../../stores/layers/key-writes.js';

test('a read may fill only if no replacing write to its key was under way at any moment since it started', () => {
  const writes = new KeyWrites();
  const clean = writes.watch('k');
  assert.equal(clean.dirty, false);
  const other = writes.begin('other');
  assert.equal(clean.dirty, false, 'writes to other keys do not matter');
  other.end();

  const write = writes.begin('k');
  assert.equal(clean.dirty, true, 'a write that starts during the read');
  const during = writes.watch('k');
  assert.equal(during.dirty, true, 'a write already under way when the read starts');
  write.end();
  const after = writes.watch('k');
  assert.equal(after.dirty, false, 'a write that ended before the read started is in what the read sees');
  for (const watcher of [clean, during, after]) watcher.end();
  assert.equal(writes.size, 0, 'nothing kept for keys no longer in use');
});

test('an append does not spoil a fill: it would append to the filled value', () => {
  const writes = new KeyWrites();
  const watcher = writes.watch('k');
  const append = writes.begin('k', { replaces: false });
  assert.equal(watcher.dirty, false);
  assert.equal(writes.watch('k').dirty, false);
  append.end();
  watcher.end();
});

test('acknowledgements out of issue order keep the newest: an older one arriving late is dropped', () => {
  const writes = new KeyWrites();
  const recorded = [];
  const first = writes.begin('k');
  const second = writes.begin('k');
  second.acknowledge(() => recorded.push('second'));
  first.acknowledge(() => recorded.push('first'));
  assert.deepEqual(recorded, ['second']);
  first.end();
  second.end();
  first.end(); // twice is fine
  const third = writes.begin('k');
  third.acknowledge(() => recorded.push('third'));
  third.end();
  assert.deepEqual(recorded, ['second', 'third']);
  assert.equal(writes.size, 0);
});
