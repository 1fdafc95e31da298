// The ratio logic of perf:accuracy's 20 ms server and perf:direct's pipelining, on figures
// recorded by those benches on the 2-vCPU VM (2026-11-29, issue 37).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { medianRatio, pipelineVerdict, timerVerdict } from '../../bench/verdicts.js';

// npm run perf:accuracy -- --server timer --rounds 4 --loadtest-alone: mean ms and CPU µs per response.
const round = (wrk, fast, loadtest) => ({
  wrk: { meanMs: wrk[0], cpuUs: wrk[1] },
  fast: { meanMs: fast[0], cpuUs: fast[1] },
  loadtest: { meanMs: loadtest[0], cpuUs: loadtest[1] },
});
const timerRounds = [
  round([20.760, 31], [21.050, 76], [21.485, 270]),
  round([20.840, 10], [21.732, 61], [23.102, 227]),
  round([20.850, 21], [20.686, 59], [22.055, 194]),
  round([20.680, 21], [20.857, 55], [21.065, 195]),
];

test('each round\'s ratio first, then the median: a round that met a slow moment moves the median little', () => {
  const ratio = medianRatio(timerRounds, 'fast', 'wrk', (figures) => figures.meanMs);
  // Rounds: 1.0140, 1.0428, 0.9922, 1.0085; the median of the middle two.
  assert.ok(Math.abs(ratio - (21.050 / 20.760 + 20.857 / 20.680) / 2) < 1e-12);
  assert.equal(medianRatio([{ wrk: { meanMs: 1 } }], 'fast', 'wrk', (figures) => figures.meanMs), null);
});

test('the 20 ms server: fast within 3% of wrk and under 300 µs a response; loadtest 4.6% high', () => {
  const fast = timerVerdict(timerRounds, 'fast');
  assert.equal(fast.met, true);
  assert.equal(fast.cpuUs, 60);
  const loadtest = timerVerdict(timerRounds, 'loadtest');
  assert.equal(loadtest.meanMet, false, `mean ratio ${loadtest.meanRatio}`);
  assert.equal(loadtest.cpuMet, true);
  assert.ok(loadtest.meanRatio > 1.04 && loadtest.meanRatio < 1.05);
  assert.equal(timerVerdict(timerRounds, 'fast', { meanWithin: 0.03, cpuMicros: 50 }).cpuMet, false);
});

// npm run perf:direct -- --parts pipeline -t 3 --rounds 4: rps per round.
const pipelineRounds = [
  [126049, 322831, 220701, 400256, 164589],
  [122800, 315303, 192357, 507197, 165582],
  [99234, 343025, 232199, 422280, 188409],
  [66254, 267711, 160133, 355551, 167504],
].map(([p1, pN, auto, pipeline, ioredis]) => ({
  p1: { rps: p1 },
  pN: { rps: pN },
  'node-redis auto': { rps: auto },
  'node-redis pipeline': { rps: pipeline },
  'ioredis pipeline': { rps: ioredis },
}));

test('pipelining: --pipeline 16 over --pipeline 1, and over the client\'s own faster pipelined way', () => {
  const verdict = pipelineVerdict(pipelineRounds, ['node-redis auto', 'node-redis pipeline']);
  // Rounds over P1: 2.56, 2.57, 3.46, 4.04; over node-redis's pipeline (its faster way each round):
  // 0.807, 0.622, 0.812, 0.753.
  assert.ok(Math.abs(verdict.overUnpipelined - (315303 / 122800 + 343025 / 99234) / 2) < 1e-12);
  assert.equal(verdict.overMet, true);
  assert.ok(Math.abs(verdict.ofBareClient - (322831 / 400256 + 267711 / 355551) / 2) < 1e-12);
  assert.equal(verdict.bareMet, true);
  // Against node-redis's auto-pipelining alone the driver is faster: the best way is the bar.
  const againstAuto = pipelineVerdict(pipelineRounds, ['node-redis auto']);
  assert.ok(againstAuto.ofBareClient > 1.4);
  // A P16 that gains nothing over P1 fails the first target.
  const flat = pipelineRounds.map((figures) => ({ ...figures, pN: figures.p1 }));
  assert.equal(pipelineVerdict(flat, ['node-redis pipeline']).overMet, false);
});
