// The writes of one CouchDB document from one process take turns (stores/clients/couch-turns.js):
// in order, each handed what the one before left, none run once its time is up.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { documentQueues } from '../../stores/clients/couch-turns.js';

const notRun = () => Object.assign(new Error('not run'), { code: 'NOT_RUN' });
const options = (budgetMs, stuckMs = 10_000) => ({ giveUpAt: Date.now() + budgetMs, stuckMs, notRun });

test('writes of one document run one at a time, in order, each handed what the one before left', async () => {
  const queues = documentQueues();
  const log = [];
  let running = 0;
  const write = (n) => async (handed) => {
    running += 1;
    assert.equal(running, 1, 'one at a time');
    log.push([n, handed]);
    await sleep(5);
    running -= 1;
    return { rev: `${n}-x` };
  };
  await Promise.all([1, 2, 3].map((n) => queues.turn('doc', options(1000), write(n))));
  assert.deepEqual(log, [[1, null], [2, { rev: '1-x' }], [3, { rev: '2-x' }]]);
  await sleep(0);
  assert.equal(queues.size(), 0, 'an idle document keeps no queue');
});

test('other documents do not wait; a failed write hands on "unknown" and the next still runs', async () => {
  const queues = documentQueues();
  const slow = queues.turn('a', options(1000), () => sleep(50).then(() => ({ rev: 'a1' })));
  const startedAt = Date.now();
  await queues.turn('b', options(1000), async () => null);
  assert.ok(Date.now() - startedAt < 40, 'b did not wait for a');
  await slow;
  const failed = queues.turn('a', options(1000), async () => { throw new Error('server said no'); });
  const next = queues.turn('a', options(1000), async (handed) => handed);
  await assert.rejects(failed, /server said no/);
  assert.equal(await next, null);
});

test('a write whose turn has not come in time while the others were answered gives up with notRun, ' +
  'and is never run', async () => {
  const queues = documentQueues();
  let ran = 0;
  const busy = (ms) => async () => { ran += 1; await sleep(ms); return null; };
  const first = queues.turn('doc', options(1000), busy(30));
  const second = queues.turn('doc', options(1000), busy(60));
  const late = queues.turn('doc', options(50), busy(0));
  await assert.rejects(late, { code: 'NOT_RUN' });
  await Promise.all([first, second]);
  await sleep(10);
  assert.equal(ran, 2, 'the write that gave up never ran');
});

test('behind a write the server does not answer, a waiting one is not blamed on the key: it fails with ' +
  'the silence once its turn comes, unsent; a stuck write stops holding the queue after stuckMs', async () => {
  const queues = documentQueues();
  let ran = 0;
  const silent = queues.turn('doc', options(1000, 100), () => new Promise(() => {})); // never answered
  const waiting = queues.turn('doc', options(30), async () => { ran += 1; return null; });
  const silence = (error) => error.code !== 'NOT_RUN' && /got no answer within the operation deadline/.test(error.message);
  await assert.rejects(waiting, silence);
  assert.equal(ran, 0);
  const later = queues.turn('doc', options(1000), async (handed) => handed);
  assert.equal(await later, null, 'after the stuck write, the next reads the revision afresh');
  void silent;
});
