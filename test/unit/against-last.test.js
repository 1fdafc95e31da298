// A run set against the last saved one (result/against-last.js): only a run of the same kind of
// target, stores and settings is compared, by node test compare's rule; a newer one with other
// settings is named with what differs. On the saved runs of test/fixtures/runs/ (make-runs.js):
// `slow` held each request 8 ms in before.json and 16 ms in after.json, so its rps halves beyond
// any noise; memory and fast held the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fromJson } from '../../result/format.js';
import { createResult } from '../../result/result.js';
import { againstLast, pickLast } from '../../result/against-last.js';
import { renderSummary } from '../../report/summary.js';
import { summarizeRun } from '../../result/summary.js';

const load = async (name) => fromJson(await readFile(new URL(`../fixtures/runs/${name}`, import.meta.url), 'utf8'));

// The run's key1 targets of memory, fast and slow alone (both files have them), its comparison made
// again. Each file swept servers of its own on ports of their own: here they are named one target.
function key1(result) {
  const kept = (record) => record.key === 'key1' && ['memory', 'fast', 'slow'].includes(record.store);
  const system = { ...result.system, target: 'http://127.0.0.1:8080/memory/key1, ...' };
  return createResult({ ...result, system, targets: result.targets.filter(kept), steps: result.steps.filter(kept) });
}

test('the last run of the same stores and settings is compared by compare\'s rule: slow\'s rps halved, ' +
  'beyond noise', async () => {
  const [before, after] = [key1(await load('before.json')), key1(await load('after.json'))];
  const picked = pickLast([before], after);
  assert.equal(picked.last, before);
  assert.equal(picked.differing, null);
  const { last, differing } = againstLast(after, picked);
  assert.equal(differing, null);
  assert.equal(last.date, before.system.date);
  assert.equal(last.compared, 6, 'three stores at two levels');
  assert.equal(last.judged, 6, 'three repeats on both sides: noise can be judged everywhere');
  const slowRps = last.beyond.filter((change) => change.store === 'slow' && change.name === 'rps');
  assert.equal(slowRps.length, 2, 'slow\'s rps at both levels');
  for (const { changePercent } of slowRps) assert.ok(changePercent < -35 && changePercent > -65, `${changePercent}%`);
  assert.ok(last.changes.low <= slowRps[0].changePercent && last.changes.high >= last.changes.median);
  const lines = renderSummary(summarizeRun(after), { against: { last, differing } }).split('\n');
  const head = lines.find((line) => line.startsWith('against the last run ('));
  const date = before.system.date.replace(/\./g, '\\.');
  assert.match(head, new RegExp(`^against the last run \\(${date}\\): 6 step\\(s\\) compared; rps −\\d+% to ` +
    '[+−]?\\d+% \\(median [+−]?\\d+%\\); beyond noise: slow key1 concurrency [24] \\w+ [+−]\\d+%'));
  assert.match(head, / and \d+ more \(node test compare\)$/, 'four named, the rest counted');
});

test('a newer run of the same stores with other settings is named with what differs, and never compared; ' +
  'other stores or another target kind are not the same run at all', async () => {
  const [before, after] = [key1(await load('before.json')), key1(await load('after.json'))];
  const longer = { ...before, settings: { ...before.settings, duration: 1 }, system: { ...before.system, date: 'x' } };
  const picked = pickLast([longer, before], after);
  assert.equal(picked.last, before, 'the newest with the same settings is compared');
  assert.equal(picked.differing, longer, 'the newer one with other settings is named');
  const { differing } = againstLast(after, picked);
  assert.deepEqual(differing, { date: 'x', settings: ['duration: 1 vs 0.3'] });
  const text = renderSummary(summarizeRun(after), { against: againstLast(after, pickLast([longer], after)) });
  assert.match(text, /\nthe last run of these stores \(x\) is not compared: its settings differ: duration: 1 vs 0\.3$/);
  assert.doesNotMatch(text, /against the last run/);

  const otherKeys = createResult({ ...before, targets: [...before.targets, { ...before.targets[0], key: 'key2' }] });
  assert.deepEqual(againstLast(after, pickLast([otherKeys], after)).differing.settings, ['keys: key1,key2 vs key1']);
  const fewer = key1({ ...before, targets: before.targets.filter((target) => target.store !== 'fast') });
  assert.deepEqual(pickLast([fewer], after), { last: null, differing: null }, 'other stores: not the same run');
  const direct = { ...before, settings: { ...before.settings, engine: 'direct' } };
  assert.deepEqual(pickLast([direct], after), { last: null, differing: null }, 'direct mode is another kind of target');
  assert.equal(againstLast(after, {}), null);
});
