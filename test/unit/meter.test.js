// The step's accounting (driver/meter.js) and its deadline list (driver/deadlines.js), called
// directly as an engine calls them, without an engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StepMeter } from '../../driver/meter.js';
import { DeadlineList } from '../../driver/deadlines.js';

// A request as the deadline list links it.
const request = (deadlineNs) => ({ deadlineNs, prev: null, next: null, listed: false });

test('the deadline list expires the requests past their deadline, oldest first, and leaves the rest', (t) => {
  let now = 0;
  const expired = [];
  const list = new DeadlineList(10_000, () => now, (due) => {
    expired.push(due.deadlineNs);
    list.settled(due);
  });
  t.after(() => list.stop());
  const requests = [100, 200, 300, 400].map(request);
  for (const each of requests) list.add(each);
  list.settled(requests[1]); // the second one answered
  now = 300;
  list.stop(); // the timer's call, made here instead (the clock is this test's)
  list.expireDue();
  assert.deepEqual(expired, [100, 300]);
  assert.deepEqual(list.unsettled().map((each) => each.deadlineNs), [400]);
  assert.ok(list.timer !== null, 'the timer is armed for the one left');
  list.stop();
  assert.equal(list.timer, null);
});

test('a request asked to cancel leaves the deadlines but stays unsettled until the engine ends it', (t) => {
  const list = new DeadlineList(10_000, () => 0, () => {});
  t.after(() => list.stop());
  const [first, second] = [100, 200].map(request);
  list.add(first);
  list.add(second);
  list.cancelling(first);
  assert.equal(list.head, second);
  assert.deepEqual(list.unsettled(), [second, first], 'the list, then those asked to cancel');
  list.settled(first);
  list.settled(second);
  assert.deepEqual(list.unsettled(), []);
  assert.equal(list.head, null);
  assert.equal(list.tail, null);
});

test('the meter counts each request under its operation, once, and only while its window is open', async () => {
  const meter = new StepMeter({ timeoutMs: 10_000, operations: ['read', 'update'] });
  const a = meter.begin();
  const b = meter.begin(undefined, 'update');
  const c = meter.begin(undefined, 'update');
  assert.equal(meter.peakInFlight, 3);
  a.responded(200);
  a.responded(200); // a second answer is ignored
  b.responded(503, '{"error":"busy","code":"BUSY"}');
  c.failed(Object.assign(new Error('reset'), { code: 'ECONNRESET' }));
  meter.close();
  meter.begin().responded(200); // after the window: not part of the step
  await meter.drain(10);
  assert.throws(() => new StepMeter({ timeoutMs: 10 }).begin(undefined, 'delete'), TypeError);
  const figures = meter.figures();
  assert.equal(figures.requests, 3);
  assert.equal(figures.responses, 2);
  const counts = figures.operations.map((part) => [part.operation, part.requests, part.responses]);
  assert.deepEqual(counts, [['read', 1, 1], ['update', 2, 1]]);
  assert.deepEqual(figures.errors, {
    total: 2,
    byKind: { 'http 503': 1, 'conn ECONNRESET': 1 },
    samples: { 'http 503': 'BUSY: busy', 'conn ECONNRESET': 'reset' },
  });
  assert.equal(figures.latency.count, 2);
});

test('the open model counts a late request\'s latency from its intended start', async () => {
  const meter = new StepMeter({ rps: 1000, timeoutMs: 10_000 });
  meter.begin().responded(200);
  // The second request was due 1 ms after the first; it goes out 20 ms late.
  await new Promise((resolve) => setTimeout(resolve, 20));
  meter.begin().responded(200);
  meter.close();
  await meter.drain(10);
  const figures = meter.figures();
  assert.ok(figures.latency.maxMs >= 15, `the late request's latency ${figures.latency.maxMs} ms includes its wait`);
  assert.equal(figures.wallSeconds, 0.002 * (1 + 0), 'two requests at 1000 rps, too few for a slope');
});

test('a drain counts what the engine never ended as a timeout; an abandon counts nothing more', async () => {
  const drained = new StepMeter({ timeoutMs: 5 });
  drained.begin(() => {}); // asked to cancel at its deadline, never ends
  drained.close();
  await drained.drain(30);
  assert.deepEqual(drained.figures().errors.byKind, { timeout: 1 });

  const abandoned = new StepMeter({ timeoutMs: 10_000 });
  const late = abandoned.begin();
  abandoned.close();
  abandoned.abandon();
  late.responded(200);
  assert.equal(abandoned.inFlight, 0);
  assert.equal(abandoned.figures().responses, 0);
});
