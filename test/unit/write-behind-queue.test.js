// The write-behind queue on its own, writing into an in-process "durable store" (a Map) that
// the test can hold or fail. Against real Redis and PostgreSQL: test/stores/redis+postgres.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { WriteBehindQueue } from '../../stores/layers/write-behind-queue.js';

/** A durable store: batches applied to a Map; hold() parks the next writes, fail = error rejects them. */
function durableStore() {
  const rows = new Map();
  const sink = {
    rows,
    batches: [],
    fail: null,
    held: null,
    hold() {
      let release;
      sink.held = new Promise((resolve) => { release = resolve; });
      return () => { sink.held = null; release(); };
    },
    async write(batch) {
      if (sink.held) await sink.held;
      if (sink.fail) throw sink.fail;
      sink.batches.push(batch.map(([key]) => key));
      for (const [key, bytes] of batch) {
        if (bytes === null) rows.delete(key);
        else rows.set(key, bytes);
      }
    },
  };
  return sink;
}

const b = (text) => Buffer.from(text);
const eventually = async (check, what, ms = 5000) => {
  const deadline = Date.now() + ms;
  while (!check()) {
    assert.ok(Date.now() < deadline, what);
    await sleep(5);
  }
};

test('close() writes every acknowledged write, each key once with its newest bytes, deletes included', async () => {
  const sink = durableStore();
  const queue = new WriteBehindQueue((batch) => sink.write(batch), { flushIntervalMs: 600_000 });
  queue.add('a', b('1'));
  queue.add('b', b('2'));
  queue.add('a', b('3'));
  queue.add('c', b('4'));
  queue.add('c', null);
  assert.equal(queue.size, 3);
  assert.equal(sink.batches.length, 0, 'nothing written before the timer or close');
  await queue.close();
  assert.deepEqual([...sink.rows], [['b', b('2')], ['a', b('3')]]);
  assert.deepEqual(sink.batches, [['b', 'a', 'c']], 'one batch, oldest first, each key once');
  assert.equal(queue.size, 0);
  assert.throws(() => queue.assertRoom(), /closing/);
});

test('a full batch is written at once; fewer writes wait for the flush interval', async () => {
  const sink = durableStore();
  const queue = new WriteBehindQueue((batch) => sink.write(batch), { flushIntervalMs: 100, batchSize: 3 });
  for (const key of ['a', 'b', 'c']) queue.add(key, b(key));
  await eventually(() => sink.batches.length === 1, 'a full batch goes without waiting');
  await sleep(10); // that flush has ended (it would take a write made while it runs along)
  queue.add('d', b('d'));
  await sleep(30);
  assert.equal(sink.batches.length, 1, 'one write waits for the timer');
  await eventually(() => sink.batches.length === 2, 'the timer flushes it');
  assert.deepEqual(sink.batches, [['a', 'b', 'c'], ['d']]);
  await queue.close();
});

test('a write that comes after a timer found nothing to flush is still written', async () => {
  // Regression: a flush that found the queue empty left a settled promise behind, and no later write was flushed.
  const sink = durableStore();
  const queue = new WriteBehindQueue((batch) => sink.write(batch), { flushIntervalMs: 10, batchSize: 2 });
  queue.add('a', b('a'));
  queue.add('b', b('b')); // full: flushed at once; the timer then finds nothing
  await sleep(50);
  queue.add('c', b('c'));
  await eventually(() => sink.rows.has('c'), 'the later write was never flushed');
  await queue.close();
});

test('lookup sees a write until it is durable: pending, then in flight, then gone', async () => {
  const sink = durableStore();
  const queue = new WriteBehindQueue((batch) => sink.write(batch), { flushIntervalMs: 600_000 });
  queue.add('k', b('v1'));
  queue.add('gone', null);
  assert.deepEqual(queue.lookup('k'), { bytes: b('v1') });
  assert.deepEqual(queue.lookup('gone'), { bytes: null }, 'a delete not yet durable reads as deleted');
  assert.equal(queue.lookup('other'), undefined);

  const release = sink.hold();
  const flushed = queue.flush();
  await sleep(5);
  assert.deepEqual(queue.lookup('k'), { bytes: b('v1') }, 'in flight: still visible, PostgreSQL may not have it yet');
  queue.add('k', b('v2'));
  assert.deepEqual(queue.lookup('k'), { bytes: b('v2') }, 'a newer write wins over the one in flight');
  release();
  await flushed;
  assert.equal(queue.lookup('k'), undefined);
  assert.deepEqual(sink.rows.get('k'), b('v2'));
  await queue.close();
});

test('a failed flush keeps its writes (a newer one winning), says why in stats, ' +
  'and retries until it succeeds', async () => {
  const sink = durableStore();
  const queue = new WriteBehindQueue(
    (batch) => sink.write(batch),
    { flushIntervalMs: 10, batchSize: 100, retryMaxMs: 40 },
  );
  sink.fail = new Error('connect ECONNREFUSED postgres://app:hunter2@db:5432/x');
  queue.add('a', b('old'));
  await eventually(() => queue.stats().failedFlushes >= 1, 'the flush failed');
  queue.add('a', b('new'));
  const stats = queue.stats();
  assert.equal(stats.pendingWrites, 1);
  assert.match(stats.lastFlushError, /ECONNREFUSED/);
  assert.ok(!stats.lastFlushError.includes('hunter2'), 'credentials masked');
  sink.fail = null;
  await eventually(() => sink.rows.has('a'), 'retried after the failure');
  assert.deepEqual(sink.rows.get('a'), b('new'));
  assert.equal(queue.stats().lastFlushError, undefined, 'cleared once a flush succeeds');
  await queue.close();
});

test('past maxPending a write is refused; waitForRoom flushes to make room instead', async () => {
  const sink = durableStore();
  const queue = new WriteBehindQueue(
    (batch) => sink.write(batch),
    { flushIntervalMs: 600_000, batchSize: 1000, maxPending: 3 },
  );
  for (const key of ['a', 'b', 'c']) queue.add(key, b(key));
  assert.throws(() => queue.assertRoom(), /the durable copy is 3 writes behind/);
  queue.assertRoom(0);
  await queue.waitForRoom(2);
  assert.equal(queue.size, 0);
  assert.equal(sink.rows.size, 3);
  queue.assertRoom(3);
  await queue.close();
});

test('close() that cannot write everything rejects, saying how many writes were not written', async () => {
  const sink = durableStore();
  const queue = new WriteBehindQueue((batch) => sink.write(batch), { flushIntervalMs: 600_000 });
  queue.add('a', b('a'));
  queue.add('b', b('b'));
  sink.fail = new Error('database is gone');
  await assert.rejects(queue.close(), /^Error: 2 acknowledged writes were not written: database is gone$/);
  await assert.rejects(queue.waitForRoom(20_000), /closing/);
});
