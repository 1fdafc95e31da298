// A step's store time (result/store-time.js) from known samples: the meter records it only for a
// 2xx response that carried one, per operation and per second; parts that ran side by side add
// by histogram, exactly as one histogram of all samples; the results file keeps it (and reads
// files from before it); the comparison takes medians over repeats; the reports show it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StepMeter } from '../../driver/meter.js';
import { createLatencyRecorder, decodeHistogram } from '../../result/recorder.js';
import { addStoreTimes, latencySums, withoutSums } from '../../result/add-steps.js';
import { STORE_TIME_SOURCES, storeTimeFigures, withDirectStoreTime } from '../../result/store-time.js';
import { addTimelines, createTimeline } from '../../result/timeline.js';
import { fromJson, toJson } from '../../result/format.js';
import { resultsSchema } from '../../result/schema.js';
import { compareStores } from '../../result/comparison.js';
import { renderStepTable } from '../../report/table.js';
import { renderRepeatTable } from '../../report/repeat-table.js';
import { renderTimelines } from '../../report/sparkline.js';
import { buildCsv } from '../../report/csv.js';
import { renderHtml } from '../../report/html.js';
import { buildTimelineCharts } from '../../report/html-timeline.js';
import { validate } from '../helpers/json-schema.js';
import { fixedResult, fixedSecond, fixedStep, fixedStoreTime } from '../helpers/driver-fixtures.js';

// A recorder of these samples (ns), and a storeTime of it with its exact sums.
function recorded(samplesNs) {
  const recorder = createLatencyRecorder();
  for (const ns of samplesNs) recorder.recordNs(ns);
  return recorder;
}
function storeTimeOf(samplesNs, { sums = true } = {}) {
  const recorder = recorded(samplesNs);
  const figures = storeTimeFigures(STORE_TIME_SOURCES.serverTiming, recorder.summary(), recorder.encode(),
    sums ? latencySums(recorder) : undefined);
  recorder.destroy();
  return figures;
}
const histogramCounts = (encoded) => {
  const histogram = decodeHistogram(encoded);
  const counts = [0.05, 0.1, 0.5, 1, 2, 5, 10, 50].map((ms) => histogram.getCountAtValue(Math.round(ms * 1000)));
  const total = histogram.totalCount;
  histogram.destroy();
  return { counts, total };
};
const withoutHistogram = ({ histogram, sums, ...figures }) => figures;
const near = (value, expected) => Math.abs(value - expected) <= expected * 0.01;

test('the meter keeps the store time of 2xx responses that carried one, per operation and per second', async () => {
  const meter = new StepMeter({ timeoutMs: 10_000, operations: ['read', 'update'] });
  meter.begin().responded(200, undefined, 0.25);
  meter.begin().responded(200, undefined, 0.75);
  meter.begin().responded(200); // no header: a latency, no store time
  meter.begin().responded(404, '{"code":"KEY_NOT_FOUND"}', 0.5); // an error answer: not the store's speed
  meter.begin(undefined, 'update').responded(204, undefined, 2);
  meter.begin(undefined, 'update').failed(Object.assign(new Error('reset'), { code: 'ECONNRESET' }));
  meter.close();
  await meter.drain(10);
  const figures = meter.figures();
  assert.equal(figures.latency.count, 5);
  assert.deepEqual(withoutHistogram(figures.storeTime), {
    source: 'server-timing', count: 3, meanMs: 1, minMs: 0.25, maxMs: 2, p50Ms: 0.75, p90Ms: 2, p99Ms: 2,
  });
  const [read, update] = figures.operations;
  assert.equal(read.storeTime.count, 2);
  assert.equal(read.storeTime.meanMs, 0.5);
  assert.equal(update.storeTime.count, 1);
  assert.equal(update.storeTime.maxMs, 2);
  // The second's own histogram has 2 significant digits: its figures are within 1% of the samples.
  assert.equal(figures.timeline.length, 1);
  assert.ok(near(figures.timeline[0].storeTime.p50Ms, 0.75), figures.timeline[0].storeTime.p50Ms);
  assert.ok(near(figures.timeline[0].storeTime.p99Ms, 2), figures.timeline[0].storeTime.p99Ms);
});

test('a target that never says its store time: storeTime null in the step, its operations, its seconds', async () => {
  const meter = new StepMeter({ timeoutMs: 10_000 });
  for (let i = 0; i < 5; i += 1) meter.begin().responded(200);
  meter.close();
  await meter.drain(10);
  const figures = meter.figures();
  assert.equal(figures.storeTime, null);
  assert.equal(figures.operations[0].storeTime, null);
  assert.equal(figures.timeline[0].storeTime, null);
});

test('side by side (--workers, merge): store times add into exactly one histogram of all the samples', () => {
  const first = [12_000, 40_000, 41_000, 250_000, 1_900_000];
  const second = [9_000, 43_000, 47_000, 52_000, 12_400_000, 60_000];
  const whole = storeTimeOf([...first, ...second]);
  const added = addStoreTimes([storeTimeOf(first), storeTimeOf(second), null]);
  assert.deepEqual(withoutHistogram(added), withoutHistogram(whole));
  assert.deepEqual(histogramCounts(added.histogram), histogramCounts(whole.histogram));
  assert.deepEqual(added.sums, whole.sums, 'the exact nanosecond sums travel on');
  // From results files (no sums): the mean from meanMs x count, within a nanosecond a sample.
  const fromFiles = addStoreTimes([storeTimeOf(first, { sums: false }), storeTimeOf(second, { sums: false })]);
  assert.ok(Math.abs(fromFiles.meanMs - whole.meanMs) < 1e-6);
  assert.equal(fromFiles.p99Ms, whole.p99Ms);
  assert.equal(addStoreTimes([null, null]), null, 'no part had one');
  assert.equal(addStoreTimes([undefined, undefined]), undefined, 'files from before store times: none either');
  const step = withoutSums({ storeTime: added, operations: [{ sums: {}, storeTime: added }] });
  assert.equal(step.storeTime.sums, undefined);
  assert.equal(step.operations[0].storeTime.sums, undefined);
});

test('seconds side by side add their store-time histograms; a part without adds nothing', () => {
  const timelines = [[0.2, 0.3], [0.4, null]].map((storeMs) => {
    const timeline = createTimeline();
    for (const ms of storeMs) timeline.response(0, 1e6, ms === null ? -1 : ms * 1e6);
    return timeline.samples(0.5e9);
  });
  const [sum] = addTimelines(timelines);
  assert.equal(sum.responses, 4);
  assert.equal(decodeHistogram(sum.storeTime.histogram).totalCount, 3);
  assert.ok(near(sum.storeTime.p50Ms, 0.3), sum.storeTime.p50Ms);
  assert.ok(near(sum.storeTime.p99Ms, 0.4), sum.storeTime.p99Ms);
});

test('direct mode: the store time is the latency, the same figures and histogram, each second too', () => {
  const step = fixedStep({ mode: 'direct', timeline: [fixedSecond()] });
  const direct = withDirectStoreTime(step);
  assert.equal(direct.storeTime.source, 'direct');
  for (const name of ['count', 'meanMs', 'minMs', 'maxMs', 'p50Ms', 'p90Ms', 'p99Ms']) {
    assert.equal(direct.storeTime[name], step.latency[name], name);
  }
  assert.equal(direct.storeTime.histogram, step.histogram);
  assert.deepEqual(direct.timeline[0].storeTime,
    { p50Ms: 1.1, p99Ms: 1.5, histogram: step.timeline[0].histogram });
});

test('the results file keeps store times and checks their shape; a file from before them still reads', () => {
  const result = fixedResult();
  result.steps[0].storeTime = fixedStoreTime();
  result.steps[0].operations[0].storeTime = fixedStoreTime();
  result.steps[0].timeline[0].storeTime = { p50Ms: 0.04, p99Ms: 0.3, histogram: result.steps[0].histogram };
  result.steps[1].storeTime = null;
  result.comparison = compareStores(result.steps);
  const text = toJson(result);
  assert.deepEqual(fromJson(text), JSON.parse(text));
  assert.deepEqual(fromJson(text).steps[0].storeTime, fixedStoreTime());
  assert.deepEqual(validate(resultsSchema(), JSON.parse(text)), []);
  const broken = JSON.parse(text);
  delete broken.steps[0].storeTime.p99Ms;
  assert.throws(() => fromJson(broken), /steps\[0\]\.storeTime\.p99Ms is missing, expected a number/);
  assert.ok(validate(resultsSchema(), broken).length > 0, 'the schema refuses it too');
  const before = JSON.parse(text);
  delete before.steps[0].storeTime;
  assert.equal(fromJson(before).steps[0].storeTime, undefined);
});

test('a comparison row\'s store time: the medians over the repeats that have one; null when none has', () => {
  const repeats = [0.04, 0.05, 0.09].map((p50Ms, index) => fixedStep({
    store: 'memory', repeat: index + 1, storeTime: fixedStoreTime({ p50Ms, p99Ms: p50Ms * 10, meanMs: p50Ms * 2 }),
  }));
  const [group] = compareStores([...repeats, fixedStep({ store: 'redis', storeTime: null }),
    fixedStep({ store: 'redis', repeat: 2 })]);
  const row = (store) => group.rows.find((each) => each.store === store);
  assert.deepEqual(row('memory').storeTime,
    { p50Ms: 0.05, p99Ms: 0.5, meanMs: 0.1, p50MinMs: 0.04, p50MaxMs: 0.09, noise: null });
  assert.equal(row('redis').storeTime, null);
});

test('the reports: store-time columns beside the latency, the store\'s p99 a second, CSV columns, HTML', () => {
  const stored = fixedStep({ concurrency: 5, storeTime: fixedStoreTime() });
  const bare = fixedStep({ concurrency: 10, storeTime: null });
  const table = renderStepTable(stored.url, [stored, bare]).split('\n');
  assert.match(table[2], /p99 +storeP50 +storeP99 +storeMean +errors$/);
  assert.match(table[4], / 4\.35 +0\.041 +0\.310 +0\.052 +0$/);
  assert.match(table[5], / 4\.35 +- +- +- +0$/);
  assert.ok(table.some((line) => line.startsWith('store: the store\'s own time inside the app (Server-Timing)') &&
    line.endsWith('- where the target sent none')));
  assert.doesNotMatch(renderStepTable(bare.url, [bare]), /store/, 'no store time, no columns');
  const direct = renderStepTable('direct://redis/key1', [withDirectStoreTime(fixedStep({ mode: 'direct' }))]);
  assert.doesNotMatch(direct, /storeP50/, 'direct: the latency columns are the store time');
  assert.match(direct, /store time = latency here \(--direct/);
  assert.match(renderRepeatTable(stored.url, [stored, { ...stored, repeat: 2 }]), /storeP50 {2}storeP99/);

  const second = (index, storeP99) => ({
    ...fixedSecond({ second: index, seconds: 1, responses: 1000 }),
    storeTime: storeP99 === null ? null : { p50Ms: 0.04, p99Ms: storeP99, histogram: stored.histogram },
  });
  const line = renderTimelines([{ ...stored, timeline: [second(0, 0.1), second(1, 3), second(2, null)] }]);
  assert.match(line, /^seconds \(rps, p99 and the store's own p99, one bar a second\):\n/);
  assert.match(line, /store p99 ▁█ {2}0\.10-3\.00 ms$/);

  const [header, row, bareRow] = buildCsv([stored, bare]).split('\n');
  const cell = (line, name) => line.split(',')[header.split(',').indexOf(name)];
  assert.deepEqual(['storeP50Ms', 'storeP99Ms', 'storeMeanMs', 'storeMaxMs'].map((name) => cell(row, name)),
    ['0.041', '0.31', '0.052', '1.9']);
  assert.equal(cell(bareRow, 'storeP50Ms'), '');

  const result = fixedResult({
    steps: [{ ...stored, timeline: [second(0, 0.2), second(1, 0.3)] }, fixedStep({ store: 'memory', storeTime: null })],
  });
  const html = renderHtml(result);
  assert.match(html, /<th class="text">storeP50<\/th><th class="text">storeP99<\/th><th class="text">storeMean<\/th>/);
  const [chart] = buildTimelineCharts(result);
  assert.deepEqual(chart.series.map((series) => series.label), ['rps', 'p99', 'store p99']);
  assert.deepEqual(chart.series[2].values, [0.2, 0.3, null]);
});
