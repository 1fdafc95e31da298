// The probe's per-second samples (--probe under a step's load): every request in exactly one
// second, failures apart from latencies, and ordered percentiles from each second's histogram.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startSampling } from '../../driver/probe/sampler.js';
import { virtualClock } from '../helpers/virtual-clock.js';

// Pins the bug of a second's p99 read above its max (a bucket's top past the exact max).
test('the probe\'s seconds hold every request once: counts and failures add up to the figures, ' +
  'p50 <= p90 <= p99 <= max', async (t) => {
  const { sleep } = virtualClock(t); // the seconds are the sampler's: 1.3 s of them take no real time
  let sent = 0;
  const send = async () => {
    sent += 1;
    await sleep(sent % 7 === 0 ? 12 : 3);
    if (sent % 10 === 0) throw new Error('refused');
  };
  const figures = await startSampling(send, { maxSeconds: 1.3, timeline: true }).done;
  assert.equal(figures.count + figures.errors, sent);
  assert.ok(figures.errors >= 1);
  const { timeline } = figures;
  assert.deepEqual(timeline.map((sample) => sample.second), [0, 1]);
  assert.equal(timeline.reduce((sum, sample) => sum + sample.count, 0), figures.count);
  assert.equal(timeline.reduce((sum, sample) => sum + sample.errors, 0), figures.errors);
  for (const { p50Ms, p90Ms, p99Ms, maxMs } of timeline) {
    assert.ok(p50Ms >= 2.9 && p50Ms <= p90Ms && p90Ms <= p99Ms && p99Ms <= maxMs, JSON.stringify(timeline));
  }
  assert.ok(timeline[0].maxMs >= 12, 'the slow requests show in their second\'s max');
});
