import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runSweep, planLoads } from '../../driver/sweep.js';
import { sweepSettings } from '../helpers/sweep-settings.js';
import { startTestServer } from '../helpers/driver-servers.js';

test('every target is primed once before the first step, then one step per concurrency, then the control; ' +
  'nothing of the priming is counted', async (t) => {
  const server = await startTestServer(t);
  const targets = [
    { url: `${server.url}/a/key1`, store: 'a', key: 'key1' },
    { url: `${server.url.replace('http://', 'http://bench:s3cret@')}/b/key1`, store: 'b', key: 'key1' },
  ];
  const seen = [];
  const done = [];
  const { steps, control, order } = await runSweep(
    targets,
    sweepSettings({
      concurrency: [1, 3],
      requests: 20,
      warmup: 15,
      warmupMaxSeconds: 0,
      order: 'sequential',
      keepAlive: true,
      timeoutMs: 5000,
    }),
    {
      emit: (event) => {
        if (event.type === 'step') {
          const { index, total, target, load } = event;
          seen.push(`${index}/${total} ${target.store} ${load.warmup ? 'warmup' : load.concurrency}`);
        }
        if (event.type === 'target-done') {
          seen.push(`done ${event.target.store}`);
          done.push([event.target.store, event.steps.length]);
        }
      },
    },
  );
  assert.deepEqual(seen,
    ['1/4 a warmup', '1/4 b warmup', '1/4 a 1', '2/4 a 3', '3/4 b 1', '4/4 b 3', 'done b', '4/4 a 1', 'done a']);
  assert.deepEqual(steps.map((s) => [s.store, s.concurrency, s.responses]),
    [['a', 1, 20], ['a', 3, 20], ['b', 1, 20], ['b', 3, 20]]);
  assert.deepEqual([control.store, control.load, control.step.responses, control.rpsBefore],
    ['a', 1, 20, steps[0].rps], 'the control: the first step again, at the end');
  assert.deepEqual(order.map((round) => round.urls.length), [1, 1, 1, 1], 'sequential: one URL per round');
  assert.equal(server.heldMs.length, 2 * 15 + 5 * 20, 'priming requests reached the server but no step counted them');
  for (const step of steps) {
    const weak = (w) => w.code === 'WEAK_SAMPLE' && w.message.startsWith('statistically weak');
    assert.ok(Array.isArray(step.warnings) && step.warnings.some(weak));
    assert.equal(typeof step.histogram.data, 'string');
    assert.ok(Date.parse(step.startedAt) <= Date.parse(step.finishedAt), 'each step says when it ran');
  }
  assert.deepEqual(done, [['b', 2], ['a', 2]],
    'each target reported done once, with its two steps (a after the control)');
  // The password went out as basic auth (the server saw the requests) but no step keeps it.
  assert.equal(steps[2].url, `${server.url.replace('http://', 'http://bench:***@')}/b/key1`);
  assert.ok(!JSON.stringify(order).includes('s3cret'));
  assert.ok(!JSON.stringify(steps).includes('s3cret'));
});

test('--rps replaces the concurrency steps with one step per rate', () => {
  assert.deepEqual(planLoads({ concurrency: [5, 10], rps: null }), [{ concurrency: 5 }, { concurrency: 10 }]);
  assert.deepEqual(planLoads({ concurrency: [5, 10], rps: [100, 200] }), [{ rps: 100 }, { rps: 200 }]);
});
