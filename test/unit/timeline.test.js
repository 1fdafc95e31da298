// A step's per-second samples (result/timeline.js through driver/step.js): every response and
// error lands in the second it ended in, each second's histogram holds exactly its responses,
// a one-second stall shows in that second alone, and side-by-side parts add by histogram.
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { measureStep } from '../../driver/step.js';
import { decodeHistogram } from '../../result/recorder.js';
import { addSteps } from '../../result/add-steps.js';
import { addTimelines, timelineRps } from '../../result/timeline.js';
import { fromJson, toJson } from '../../result/format.js';
import { fixedResult } from '../helpers/driver-fixtures.js';
import { virtualClock } from '../helpers/virtual-clock.js';

// The seconds are the meter's on a virtual clock (test/helpers/virtual-clock.js): sleep(ms) takes
// no real time, so a step of seconds measures in milliseconds, and each latency is the one slept.
let clock;
beforeEach((t) => { clock = virtualClock(t); });
const sleep = (ms) => clock.sleep(ms);

// A closed loop of `concurrency` clients calling call(operation) (a status, or a rejection).
function callEngine(call, operations = ['read']) {
  return {
    async run({ concurrency, durationSeconds }, meter) {
      const deadline = clock.nowMs() + durationSeconds * 1000;
      let sent = 0;
      const client = async () => {
        while (clock.nowMs() < deadline) {
          const operation = operations[sent % operations.length];
          sent += 1;
          const request = meter.begin(undefined, operation);
          try {
            request.responded(await call(operation));
          } catch (error) {
            request.failed(error);
          }
        }
      };
      await Promise.all(Array.from({ length: concurrency }, client));
      return { reported: null };
    },
  };
}

const histogramCount = (encoded) => {
  const histogram = decodeHistogram(encoded);
  const count = histogram.totalCount;
  histogram.destroy();
  return count;
};
const total = (list, read) => list.reduce((sum, item) => sum + read(item), 0);

test('every response and error of a step is in exactly one second, ' +
  'each second\'s histogram holding its responses', async () => {
  let calls = 0;
  const step = await measureStep(callEngine(async () => {
    calls += 1;
    await sleep(5);
    if (calls % 40 === 0) throw Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    return calls % 25 === 0 ? 503 : 200;
  }), { url: 'direct:x', concurrency: 2, durationSeconds: 2.2 });
  assert.equal(step.timeline.length, 3, 'seconds 0, 1 and the last partial one');
  assert.deepEqual(step.timeline.map((sample) => sample.second), [0, 1, 2]);
  assert.deepEqual(step.timeline.slice(0, 2).map((sample) => sample.seconds), [1, 1]);
  assert.ok(
    step.timeline[2].seconds > 0.15 && step.timeline[2].seconds < 0.5,
    `the last second is partial: ${step.timeline[2].seconds}`,
  );
  assert.equal(total(step.timeline, (sample) => sample.responses), step.responses);
  assert.equal(total(step.timeline, (sample) => histogramCount(sample.histogram)), step.latency.count);
  for (const sample of step.timeline) assert.equal(histogramCount(sample.histogram), sample.responses);
  for (const kind of ['http 503', 'conn ECONNREFUSED']) {
    assert.ok(step.errors.byKind[kind] > 0, `the step had ${kind}`);
    assert.equal(
      total(step.timeline, (sample) => sample.errors[kind] ?? 0),
      step.errors.byKind[kind],
      `${kind} by second adds up`,
    );
  }
  const rates = timelineRps(step.timeline);
  assert.ok(rates[0] > 150 && rates[0] < 450, `about 2 clients / 5 ms in a whole second: ${rates[0]}`);
});

test('a stall shows in its own second\'s p99 and max, not in the seconds around it, ' +
  'while the step\'s p99 hides it', async () => {
  const started = clock.nowMs();
  let stalled = 0;
  // Three requests of 200 ms, 1.2 s in: about 2% of that second's responses, 0.3% of the
  // step's. 200 ms, far above the 2 ms of the others, so that a busy machine's own hiccups
  // (tens of ms) cannot pass for the stall, nor hide it.
  const step = await measureStep(callEngine(async () => {
    if (stalled < 3 && clock.nowMs() - started > 1200) {
      stalled += 1;
      await sleep(200);
    } else await sleep(2);
    return 200;
  }), { url: 'direct:x', concurrency: 1, durationSeconds: 3 });
  const p99 = step.timeline.map((sample) => sample.latency.p99Ms);
  const max = step.timeline.map((sample) => sample.latency.maxMs);
  assert.ok(max[1] >= 195, `the stall is second 1's max: ${max}`);
  assert.ok(p99[1] >= 195, `and its p99: ${p99}`);
  assert.ok(max[0] < 150 && max[2] < 150, `the seconds around it stay fast: ${max}`);
  assert.ok(step.latency.p99Ms < 150, `the step's own p99 hides it: ${step.latency.p99Ms}`);
});

test('several operations: each keeps its seconds, and they add up to the step\'s', async () => {
  const step = await measureStep(callEngine(async () => { await sleep(3); return 200; }, ['read', 'update']), {
    url: 'direct:x', concurrency: 2, durationSeconds: 1.2, workload: { operations: ['read', 'update'] },
  });
  const [read, update] = step.operations;
  assert.equal(read.timeline.length, step.timeline.length);
  step.timeline.forEach((sample, index) => {
    assert.equal(read.timeline[index].responses + update.timeline[index].responses, sample.responses);
    assert.equal(histogramCount(sample.histogram), sample.responses);
  });
});

test('side-by-side parts add second by second by histogram: ' +
  'the sum\'s p99 is the p99 of all, never an average', async () => {
  const fast = await measureStep(
    callEngine(async () => { await sleep(1); return 200; }),
    { url: 'x', concurrency: 1, durationSeconds: 1.1, keepSums: true },
  );
  const slow = await measureStep(
    callEngine(async () => { await sleep(20); return 200; }),
    { url: 'x', concurrency: 1, durationSeconds: 1.1, keepSums: true },
  );
  const added = addSteps([fast, slow]);
  assert.equal(added.timeline.length, Math.max(fast.timeline.length, slow.timeline.length));
  assert.equal(added.timeline[0].responses, fast.timeline[0].responses + slow.timeline[0].responses);
  assert.equal(histogramCount(added.timeline[0].histogram), added.timeline[0].responses);
  // The slow part holds a few % of the responses: the p99 of all is the slow one's latency, and
  // the p50 the fast one's; averaging the two p99s would give neither.
  assert.ok(added.timeline[0].latency.p99Ms >= 19, `p99 of all: ${added.timeline[0].latency.p99Ms}`);
  assert.ok(added.timeline[0].latency.p50Ms < 5, `p50 of all: ${added.timeline[0].latency.p50Ms}`);
  assert.equal(addTimelines([fast.timeline, null]), null, 'a part without seconds (an older file): no sum');
});

test('a step\'s seconds survive a results file: written and read back the same', async () => {
  const step = await measureStep(
    callEngine(async () => { await sleep(2); return 200; }),
    { url: 'x', concurrency: 1, durationSeconds: 1.1 },
  );
  const result = fixedResult();
  result.steps[0].timeline = step.timeline;
  const back = fromJson(toJson(result));
  assert.deepEqual(back.steps[0].timeline, step.timeline);
  delete result.steps[0].timeline;
  assert.equal(fromJson(toJson(result)).steps[0].timeline, undefined, 'a file written before timelines still reads');
});
