// Where the time went, as the reports show it: a line per step under its table, the bottleneck
// and (where rows share an app or driver bottleneck) the store ranks in the comparison, and the
// same in the HTML page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderRun } from '../../report/run-text.js';
import { renderComparison } from '../../report/comparison-table.js';
import { htmlReport } from '../../report/html.js';
import { fromJson, toJson } from '../../result/format.js';
import { createResult } from '../../result/result.js';
import { rankStoreTimes } from '../../result/ranking.js';
import { fixedResult, fixedStep } from '../helpers/driver-fixtures.js';

const tiersOf = ({ app = 98, redis = null }) => ({
  driver: { cpuPercent: 40, microsPerResponse: 80, threads: 1 },
  app: { cpuPercent: app, microsPerResponse: 190, processes: 1, cores: 1, source: 'proc' },
  servers: redis === null
    ? []
    : [{ name: 'redis', stores: ['redis'], cpuPercent: redis, microsPerResponse: 21.5, cores: 1, source: 'proc' }],
});
const appBound = {
  tier: 'app', server: null, evidence: 'the app used 98% of its 1 core (1 process, 190 µs per response)',
};

/** A Result of memory and redis at concurrency 20, both limited by the app, with these store times. */
function appBoundResult({ storeTimes = null } = {}) {
  const steps = [
    { ...fixedStep({ store: 'memory', concurrency: 20, rps: 5300 }), tiers: tiersOf({}), bottleneck: appBound },
    {
      ...fixedStep({ store: 'redis', concurrency: 20, rps: 5200 }), tiers: tiersOf({ redis: 12 }), bottleneck: appBound,
    },
  ];
  const base = fixedResult({ steps });
  const result = createResult({ ...base, steps });
  if (storeTimes) {
    // What the app's Server-Timing gives a row (added beside rps where the app sends it).
    for (const row of result.comparison[0].rows) row.storeTime = storeTimes[row.store];
  }
  return result;
}

test('--verbose: a line per step under its table: the bottleneck, its evidence, each tier\'s µs per response; ' +
  'by default the bottleneck in a word in the table', () => {
  const brief = renderRun(appBoundResult());
  assert.doesNotMatch(brief, /CPU µs per response/, 'the evidence is --verbose\'s (and the page\'s)');
  assert.match(brief, /\n## http:\/\/127\.0\.0\.1:40123\/redis\/key1\n-+\n.* {2}bottleneck {2}errors\n-+\n.* {2}app {9}0\n/);
  const text = renderRun(appBoundResult(), { verbose: true });
  assert.ok(text.includes('\nconcurrency 20: bottleneck app (the app used 98% of its 1 core (1 process, 190 µs per ' +
    'response)) · CPU µs per response: driver 80, app 190, redis 22\n'));
  assert.match(text, /\nconcurrency 20: bottleneck app \(.*\) · CPU µs per response: driver 80, app 190\n/);
});

test('the comparison names each row\'s bottleneck, and says when its rps ranks the app, not the stores', () => {
  const result = appBoundResult();
  const [group] = result.comparison;
  assert.equal(group.bottleneck, 'app');
  assert.deepEqual(group.rows.map((row) => row.bottleneck.tier), ['app', 'app']);
  const text = renderComparison(result.comparison);
  assert.match(text, /rps\/fastest {2}errors {2}bottleneck\n/);
  assert.match(text, /\n {9}20 {4}1= {2}memory {2}5300 .* {2}app\n/);
  assert.ok(text.endsWith('\nconcurrency 20: every store was limited by the app: its rps ranks the app\'s cost per ' +
    'request, not the stores'));
  assert.doesNotMatch(text, /storeRank/, 'no store time: no store ranks');
  const old = createResult({ ...fixedResult(), steps: fixedResult().steps });
  assert.doesNotMatch(renderComparison(old.comparison), /bottleneck/, 'steps without one (an older file): no column');
});

test('rows sharing an app bottleneck show their ranks by store time beside the rps ranks', () => {
  const storeTimes = {
    memory: { p50Ms: 0.004, p99Ms: 0.02, meanMs: 0.005 },
    redis: { p50Ms: 0.3, p99Ms: 0.9, meanMs: 0.35 },
  };
  const result = appBoundResult({ storeTimes });
  // Where the app sends Server-Timing, compareStores ranks rows with store time so.
  rankStoreTimes(result.comparison[0].rows);
  const text = renderComparison(result.comparison);
  assert.match(text, /errors {2}bottleneck {2}storeP50 {2}storeRank\n/);
  assert.match(text, /memory {2}5300 .* {2}app {12}0\.004 {10}1\n/);
  assert.match(text, /redis {3}5200 .* {2}app {12}0\.300 {10}2\n/);
  assert.match(text, /\nstoreP50 = the store's own time inside the app \(Server-Timing, ms\); storeRank = its rank/);
  assert.match(text, /not the stores; storeRank ranks the stores by their own time inside the app \(p50\)$/);
});

test('the HTML shows each step\'s tiers and bottleneck, and the comparison\'s', () => {
  const result = appBoundResult();
  assert.deepEqual(fromJson(toJson(result)), result);
  const html = htmlReport(result);
  assert.match(html, /<h4>Where the time went<\/h4>/);
  const heads = ['bottleneck', 'driver', 'app', 'redis', 'evidence'].map((name) => `<th class="text">${name}</th>`);
  assert.ok(html.includes(heads.join('')), 'a redis step: the driver, the app and its server');
  assert.match(html, /<td class="text">98% of 1 · 190 µs<\/td>/);
  assert.match(html, /every store was limited by the app: its rps ranks the app&#39;s cost per request, not the stores/);
});
