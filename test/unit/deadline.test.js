// The deadlines on their own: the primitive, the per-operation wrapper and the settings.
// (test/unit/store-set.test.js, test/app/op-deadline.test.js and test/app/open-deadline.test.js hold them to
// real servers.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { deadlineKeeper, withDeadline, withOperationDeadline } from '../../stores/deadline.js';
import { resolveSettings } from '../../config/precedence.js';
import { StoreTimeoutError } from '../../util/errors.js';

const never = () => new Promise(() => {});

test('withDeadline settles as the promise does when it is in time', async () => {
  assert.equal(await withDeadline(Promise.resolve(7), 1000, () => new Error('late')), 7);
  await assert.rejects(withDeadline(Promise.reject(new Error('own')), 1000, () => new Error('late')), /own/);
});

test('withDeadline rejects with the timeout error once the time is up, and a late settle is dropped', async () => {
  let settle;
  const started = Date.now();
  const pending = new Promise((resolve, reject) => { settle = reject; });
  await assert.rejects(withDeadline(pending, 50, () => new Error('too slow')), /too slow/);
  assert.ok(Date.now() - started < 1000);
  settle(new Error('late failure')); // must not surface as an unhandled rejection
  await sleep(10);
});

test('withOperationDeadline: an operation the server never answers is a 503 STORE_TIMEOUT ' +
  'naming store and operation', async () => {
  const store = {
    get: never,
    set: never,
    delete: never,
    ping: never,
    close: async () => {},
    stats: () => ({ pool: 1 }),
    setMany: async () => 'own',
  };
  const guarded = withOperationDeadline(store, 'slow', 30);
  for (const operation of ['get', 'set', 'delete', 'ping']) {
    await assert.rejects(guarded[operation]('key1'), (error) => {
      assert.ok(error instanceof StoreTimeoutError);
      assert.equal(error.code, 'STORE_TIMEOUT');
      assert.equal(error.status, 503);
      assert.equal(error.store, 'slow');
      assert.equal(error.message, `store "slow" did not answer ${operation} within 30 ms`);
      return true;
    });
  }
  assert.deepEqual(guarded.stats(), { pool: 1 }, 'what is not an operation is the store\'s own');
  assert.equal(await guarded.setMany(), 'own');
});

test('one keeper for many operations: those in time resolve, one past its deadline rejects within a sweep of it, ' +
  'and the sweeps stop once nothing is under way', async () => {
  const within = deadlineKeeper(1000);
  const began = performance.now();
  const quick = Array.from({ length: 1000 }, (_, i) => within(sleep(i % 20).then(() => i), () => new Error('late')));
  let rejectedAt;
  const hung = within(never(), () => new Error('too slow')).catch((error) => {
    rejectedAt = performance.now() - began;
    return error.message;
  });
  assert.deepEqual(await Promise.all(quick), Array.from({ length: 1000 }, (_, i) => i));
  assert.equal(await hung, 'too slow');
  // The deadline, then at most one sweep (100 ms) later, and some room for a busy machine.
  assert.ok(rejectedAt >= 1000 && rejectedAt < 1000 + 100 + 400, `rejected after ${Math.round(rejectedAt)} ms`);
  const active = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
  await sleep(250);
  assert.equal(active(), 0, 'no interval left once nothing is under way');
});

test('withOperationDeadline passes answers and errors through, a synchronous throw included', async () => {
  const store = {
    get: async (key) => Buffer.from(key),
    set: () => { throw new Error('sync'); },
    delete: async () => {},
    ping: async () => {},
    close: async () => {},
  };
  const guarded = withOperationDeadline(store, 's', 1000);
  assert.deepEqual(await guarded.get('abc'), Buffer.from('abc'));
  await assert.rejects(guarded.set('k', Buffer.alloc(1)), /sync/);
});

test('the deadlines default to 5 s (open) and 2 s (operation); the environment, then an option, beat them', () => {
  const deadlines = (sources) => {
    const { settings, problems } = resolveSettings(sources, ['store']);
    assert.deepEqual(problems, []);
    return { openTimeoutMs: settings.openTimeoutMs, opTimeoutMs: settings.opTimeoutMs };
  };
  assert.deepEqual(deadlines({ env: {} }), { openTimeoutMs: 5000, opTimeoutMs: 2000 });
  const env = { STOREBENCH_OPEN_TIMEOUT_MS: '12000', STOREBENCH_OP_TIMEOUT_MS: '750' };
  assert.deepEqual(deadlines({ env }), { openTimeoutMs: 12000, opTimeoutMs: 750 });
  assert.deepEqual(deadlines({ env, options: { opTimeoutMs: 100 } }), { openTimeoutMs: 12000, opTimeoutMs: 100 });
  assert.deepEqual(
    deadlines({ env: { STOREBENCH_OP_TIMEOUT_MS: '' } }),
    { openTimeoutMs: 5000, opTimeoutMs: 2000 },
    'empty is unset',
  );
});

test('a deadline that is not a whole number of ms from 1 to 600000 is refused, every bad one named', () => {
  const problems = (sources) => resolveSettings(sources, ['store']).problems;
  assert.deepEqual(problems({ env: { STOREBENCH_OPEN_TIMEOUT_MS: '2s', STOREBENCH_OP_TIMEOUT_MS: '0' } }), [
    'STOREBENCH_OPEN_TIMEOUT_MS must be a whole number of milliseconds from 1 to 600000, not "2s"',
    'STOREBENCH_OP_TIMEOUT_MS must be a whole number of milliseconds from 1 to 600000, not "0"',
  ]);
  for (const bad of ['-5', '1.5', '3000000000', 'abc']) {
    assert.match(problems({ env: { STOREBENCH_OP_TIMEOUT_MS: bad } }).join('\n'), /STOREBENCH_OP_TIMEOUT_MS must be/);
  }
  assert.match(problems({ env: {}, options: { openTimeoutMs: 0 } }).join('\n'), /option openTimeoutMs must be/);
});
