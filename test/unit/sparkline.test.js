// The text's per-second lines (report/sparkline.js): a stall is the one tall p99 bar, and a
// saved run prints the same lines through node test report's renderRun.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderTimelines, sparkline } from '../../report/sparkline.js';
import { renderRun } from '../../report/run-text.js';
import { fixedResult, fixedSecond, fixedStep } from '../helpers/driver-fixtures.js';

const second = (index, responses, p99Ms, errors = {}) => ({
  ...fixedSecond({ second: index, seconds: 1, responses, errors }),
  latency: { p50Ms: 0.2, p90Ms: 0.3, p99Ms, maxMs: p99Ms * 2 },
});

test('sparkline scales from zero to the largest value; a missing value is a gap', () => {
  assert.equal(sparkline([0, 4, 8, null]), '▁▅█ ');
  assert.equal(sparkline([0, 0]), '▁▁');
});

test('one line per step: rps and p99 per second with their ranges; the stalled second is the tall p99 bar', () => {
  const step = fixedStep({
    concurrency: 5,
    timeline: [second(0, 5000, 0.3), second(1, 1200, 40, { timeout: 3 }), second(2, 5100, 0.3)],
  });
  const text = renderTimelines([step, fixedStep({ concurrency: 10, timeline: [second(0, 10, 1)] })]);
  const lines = text.split('\n');
  assert.equal(lines.length, 2, 'a heading and the one step with several seconds');
  assert.match(lines[1], /^ {2}c 5 {2}rps █▂█ 1200-5100 {2}p99 ▁█▁ 0\.30-40\.00 ms {2}errors 3$/);
});

test('a long step is folded to 60 bars, each the mean rps and the worst p99 of its seconds', () => {
  const timeline = Array.from({ length: 120 }, (_, index) => second(index, 1000, index === 77 ? 50 : 1));
  const line = renderTimelines([fixedStep({ timeline })]).split('\n')[1];
  assert.match(line, /\(2 s a bar\)$/);
  const p99Bars = line.split('p99 ')[1].split(' ')[0];
  assert.equal(p99Bars.length, 60);
  assert.equal(p99Bars.indexOf('█'), 38, 'second 77 is in bar 38');
});

test('node test report --verbose prints the seconds of a saved run under its table; a file without them prints ' +
  'none, nor does the default text', () => {
  const result = fixedResult();
  result.steps[0].timeline = [second(0, 900, 1), second(1, 950, 1.2)];
  assert.match(renderRun(result, { verbose: true }), /seconds \(rps and p99, one bar a second\):\n {2}c 5 {2}rps/);
  assert.doesNotMatch(renderRun(result), /seconds \(rps/, 'the default text leaves the seconds to the page');
  delete result.steps[0].timeline;
  assert.doesNotMatch(renderRun(result, { verbose: true }), /seconds \(rps/);
});
