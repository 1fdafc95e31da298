// A bulk write as store calls: chunks, bounded parallelism, and a later write to a key winning.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { chunksOf, eachLimited, lastWriteWins } from '../../stores/bulk.js';

const entry = (key, size) => [key, Buffer.alloc(size)];

test('chunks end at the entry count or the byte budget, and a value larger than the budget is a chunk alone', () => {
  const entries = Array.from({ length: 25 }, (_, i) => entry(`k${i}`, 10));
  assert.deepEqual(chunksOf(entries, { maxEntries: 10, maxBytes: 1000 }).map((c) => c.length), [10, 10, 5]);
  assert.deepEqual(
    chunksOf(entries, { maxEntries: 100, maxBytes: 35 }).map((c) => c.length),
    Array(8).fill(3).concat([1]),
  );
  assert.deepEqual(
    chunksOf([entry('a', 5), entry('big', 100), entry('b', 5)], { maxBytes: 20 }).map((c) => c.map(([k]) => k)),
    [['a'], ['big'], ['b']],
  );
  assert.deepEqual(chunksOf([]), []);
});

test('eachLimited never runs more than the limit at once, and runs every item', async () => {
  let running = 0;
  let most = 0;
  const done = [];
  await eachLimited(Array.from({ length: 20 }, (_, i) => i), 4, async (i) => {
    running++;
    most = Math.max(most, running);
    await sleep(2);
    running--;
    done.push(i);
  });
  assert.equal(most, 4);
  assert.deepEqual(done.sort((a, b) => a - b), Array.from({ length: 20 }, (_, i) => i));
});

test('eachLimited rejects with the first failure after the calls under way settle, and starts no more', async () => {
  const started = [];
  let settled = 0;
  await assert.rejects(eachLimited([1, 2, 3, 4, 5, 6], 2, async (i) => {
    started.push(i);
    await sleep(i === 2 ? 1 : 5);
    settled++;
    if (i === 2) throw new Error('two failed');
  }), /two failed/);
  assert.deepEqual(started, [1, 2], 'the failure stopped both workers');
  assert.equal(settled, started.length, 'nothing still running behind the caller');
});

test('lastWriteWins keeps each key once, with its last value, in the order of the last writes', () => {
  const [a1, b, a2] = [entry('a', 1), entry('b', 2), entry('a', 3)];
  assert.deepEqual(lastWriteWins([a1, b, a2]), [b, a2]);
  const unique = [a1, b];
  assert.equal(lastWriteWins(unique), unique, 'no copy when every key is there once');
});
