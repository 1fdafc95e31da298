// The summary a sweep ends with (result/summary.js, report/summary.js), derived from recorded
// runs whose answers are known by construction (test/fixtures/runs/make-summary-runs.js): an
// app-bound run, a latency-bound run, two stores tying, a failed store, one store alone, and
// two frameworks. Every claim is checked against the steps it stands for, and every figure the
// text prints against the comparison table printed above it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fromJson } from '../../result/format.js';
import { createResult } from '../../result/result.js';
import { frameworkOf, summarizeRun } from '../../result/summary.js';
import { storeTimesApart } from '../../result/ranking.js';
import { loadOf } from '../../result/repeat.js';
import { bottleneckText } from '../../result/bottleneck.js';
import { renderSummary } from '../../report/summary.js';
import { renderRun } from '../../report/run-text.js';
import { formatRps } from '../../report/table.js';
import { formatStoreMs } from '../../report/store-time.js';
import { median } from '../../util/stats.js';

const text = (name) => readFile(new URL(`../fixtures/runs/${name}.json`, import.meta.url), 'utf8');
const recorded = async (name) => fromJson(await text(name));
// The frameworks run carries `framework` on its steps, a field the results format gains with --framework.
const recordedRaw = async (name) => JSON.parse(await text(name));

const stepsAt = (steps, key, store, load) =>
  steps.filter((step) => step.key === key && step.store === store && loadOf(step) === load);

/** Checks every claim of the summary of `result` against its steps and its comparison; returns the summary. */
function checkClaims(result) {
  const summary = summarizeRun(result);
  const steps = result.steps.filter((step) => frameworkOf(step) === summary.framework);
  for (const key of summary.keys) {
    const keySteps = steps.filter((step) => step.key === key.key);
    for (const entry of key.stores) {
      const own = stepsAt(keySteps, key.key, entry.store, key.load);
      assert.ok(own.length, `${entry.store}: its steps at ${key.load}`);
      if (entry.failed) {
        assert.equal(entry.rps, null);
        continue;
      }
      assert.equal(entry.rps, median(own.map((step) => step.rps)), `${entry.store}: rps is its steps' (median)`);
      const p50s = own.map((step) => step.storeTime?.p50Ms).filter((value) => value !== undefined && value !== null);
      assert.equal(entry.storeP50Ms, p50s.length ? median(p50s) : null, `${entry.store}: storeP50 is its steps'`);
    }
    // In order of store time (or rps), failed last, and ranks recomputed from those figures.
    const ranked = key.stores.filter((entry) => !entry.failed);
    assert.deepEqual(key.stores.slice(ranked.length).map((entry) => entry.failed), key.stores.slice(ranked.length)
      .map(() => true), 'failed stores last');
    if (key.by === 'store-time') {
      for (let i = 1; i < ranked.length; i += 1) assert.ok(ranked[i - 1].storeP50Ms <= ranked[i].storeP50Ms);
      let leader = null;
      for (const [index, entry] of ranked.entries()) {
        if (leader === null || storeTimesApart(leader.storeP50Ms, entry.storeP50Ms)) leader = { ...entry, index };
        assert.equal(entry.storeRank, leader.index + 1, `${entry.store}: its storeRank from the store times`);
      }
    }
    // The level shown told the stores apart at least as well as any other, by the table's rps ranks.
    const groups = result.comparison.filter((group) => group.key === key.key && group.operation === null);
    const apart = (group) => new Set(group.rows.filter((row) => !row.failed).map((row) => row.rank)).size;
    const shown = groups.find((group) => group.load === key.load);
    if (summary.frameworks.length === 1) {
      assert.ok(groups.every((group) => apart(group) <= apart(shown)), 'the level with the most rps ranks');
      for (const entry of ranked) {
        const row = shown.rows.find((candidate) => candidate.store === entry.store);
        assert.equal(entry.rps, row.rps, 'the comparison\'s rps');
        assert.equal(entry.rank, row.rank, 'the comparison\'s rank');
        assert.equal(entry.storeRank, row.storeRank, 'the comparison\'s storeRank');
      }
    }
    // The limiter: the tier of the most steps, counted from the steps themselves.
    const counts = {};
    for (const { bottleneck } of keySteps) {
      if (bottleneck?.tier) counts[bottleneck.tier] = (counts[bottleneck.tier] ?? 0) + 1;
    }
    if (key.limiter) {
      assert.equal(key.limiter.steps, counts[key.limiter.tier]);
      assert.equal(key.limiter.of, keySteps.length);
      assert.ok(Object.values(counts).every((count) => count <= key.limiter.steps), 'no tier limited more steps');
    } else {
      assert.deepEqual(counts, {}, 'no limiter only when no step had one');
    }
  }
  const appHint = summary.hints.some((hint) => hint.flag === '--app-workers auto');
  assert.equal(appHint, summary.limiter?.tier === 'app' && result.settings.appWorkers === 1 &&
    result.system.cpuCount > 1, '--app-workers auto exactly when the app limited most steps and cores were there');
  return summary;
}

/** The summary's text: the last section of the run's text, at most about 30 lines. */
function summaryText(result) {
  const run = renderRun(result);
  const at = run.lastIndexOf('\n## Summary: ');
  assert.ok(at > 0, 'the text has a summary');
  const section = run.slice(at + 1).trimEnd();
  assert.ok(!section.slice(1).includes('\n## '), 'the summary is the last section');
  assert.ok(section.split('\n').length <= 30, `at most 30 lines, not ${section.split('\n').length}`);
  return { run, section };
}

// Each store's line in the summary table says what its row in the comparison above says.
function checkAgainstComparison(result, summary, section) {
  for (const key of summary.keys) {
    for (const entry of key.stores) {
      const line = section.split('\n').find((candidate) => candidate.startsWith(`${entry.store} `));
      assert.ok(line, `${entry.store} has a line`);
      if (entry.failed) {
        assert.match(line, / failed$/);
        continue;
      }
      assert.ok(line.includes(` ${formatRps(entry.rps)}`), `${entry.store}: rps ${formatRps(entry.rps)} in "${line}"`);
      if (key.by === 'store-time') assert.ok(line.includes(formatStoreMs(entry.storeP50Ms)), line);
    }
  }
}

test('an app-bound run: the app limited most steps, and the summary says --app-workers auto', async () => {
  const result = await recorded('app-bound');
  const summary = checkClaims(result);
  assert.equal(summary.limiter.tier, 'app');
  assert.deepEqual(summary.keys.map((key) => key.stores.map((entry) => entry.store)), [['memory', 'redis']],
    'memory\'s own time is the in-process map\'s: first');
  const { section } = summaryText(result);
  checkAgainstComparison(result, summary, section);
  assert.match(section, /most steps limited by the app \(\d+ of 4 steps\)/);
  assert.match(section, /\nto tell the stores apart better: --app-workers auto \(the app limited \d+ of 4 steps/);
});

test('a latency-bound run: latency limited most steps, and nothing of the app or the machine is hinted', async () => {
  const result = await recorded('latency-bound');
  const summary = checkClaims(result);
  assert.equal(summary.limiter.tier, 'latency');
  assert.ok(!summary.hints.some((hint) => hint.flag === '--app-workers auto' || hint.machine));
  const { section } = summaryText(result);
  checkAgainstComparison(result, summary, section);
  assert.match(section, /most steps limited by latency, the clients waiting on the store or the network \(\d of 4 steps\)/);
});

test('two stores that tie share a rank by store time and by rps, and read as 2=', async () => {
  const result = await recorded('tie');
  const summary = checkClaims(result);
  const [key] = summary.keys;
  const rankOf = (store) => key.stores.find((entry) => entry.store === store);
  assert.equal(key.stores[0].store, 'quick');
  assert.equal(rankOf('same1').storeRank, rankOf('same2').storeRank, 'both held 4 ms: one store-time rank');
  assert.equal(rankOf('same1').rank, rankOf('same2').rank, 'and one rps rank');
  const { section } = summaryText(result);
  checkAgainstComparison(result, summary, section);
  assert.match(section, /\nsame1 +2= +4\.00 +\d+\nsame2 +2= +4\.00 +\d+\n/);
});

test('a failed store is last, not ranked, and reads as failed', async () => {
  const result = await recorded('failed');
  const summary = checkClaims(result);
  const stores = summary.keys[0].stores.map((entry) => [entry.store, entry.failed]);
  assert.deepEqual(stores, [['ok', false], ['broken', true]]);
  const { section, run } = summaryText(result);
  checkAgainstComparison(result, summary, section);
  assert.match(section, /\nbroken +- +- +failed\n/);
  assert.match(run, /\nbroken at concurrency 2: failed, not ranked: no request succeeded \(http 503: \d+/,
    'the comparison above says so too');
});

test('one store alone: its figures, and no ranking to speak of', async () => {
  const result = await recorded('one-store');
  const summary = checkClaims(result);
  assert.deepEqual(summary.keys[0].stores.map((entry) => entry.store), ['memory']);
  const { section } = summaryText(result);
  checkAgainstComparison(result, summary, section);
  assert.match(section, /\nkey1: rps at concurrency \d+ \(one store ranked: nothing to tell apart\); most steps limited by /);
});

test('a run of two frameworks ranks the stores under express and says what fastify changed', async () => {
  const result = await recordedRaw('frameworks');
  assert.deepEqual([...new Set(result.steps.map(frameworkOf))].sort(), ['express', 'fastify']);
  const summary = checkClaims(result);
  assert.equal(summary.framework, 'express');
  const [other] = summary.switching.others;
  assert.equal(other.framework, 'fastify');
  // fastify's rps over express's for every store and level both ran, from the steps alone.
  const ratios = [];
  for (const step of result.steps.filter((candidate) => candidate.framework === 'fastify')) {
    const [twin] = result.steps.filter((candidate) => candidate.framework === 'express' &&
      candidate.store === step.store && candidate.key === step.key && candidate.concurrency === step.concurrency);
    ratios.push(step.rps / twin.rps);
  }
  assert.equal(other.cells, ratios.length);
  assert.equal(other.ratio, median(ratios));
  assert.equal(other.low, Math.min(...ratios));
  assert.equal(other.high, Math.max(...ratios));
  const fastifySteps = result.steps.filter((step) => step.framework === 'fastify');
  assert.equal(other.limiter.of, fastifySteps.length);
  const tiers = fastifySteps.map((step) => bottleneckText(step.bottleneck));
  assert.equal(other.limiter.steps, tiers.filter((tier) => tier === other.limiter.tier).length);
  const section = renderSummary(summary);
  assert.match(section, /under express;/);
  assert.match(section, new RegExp(`\\nswitching framework: fastify's rps was ${other.ratio.toFixed(2)}x express's ` +
    `\\(the median over the ${ratios.length} store, key and levels both ran: `));
});

test('a run of one framework says nothing of switching; --framework only from a storebench that records frameworks',
  async () => {
    const result = await recorded('app-bound');
    const summary = summarizeRun(result);
    assert.equal(summary.switching, null);
    assert.ok(!summary.hints.some((hint) => hint.flag === '--framework'), 'these steps carry no framework');
    const knowing = { ...result, steps: result.steps.map((step) => ({ ...step, framework: 'express' })) };
    const hinted = summarizeRun(knowing).hints.find((hint) => hint.flag === '--framework');
    assert.equal(hinted?.framework, 'express', 'app-bound under express: another framework is worth a try');
  });

test('13 stores and three keys still fit in 30 lines', async () => {
  const base = await recorded('app-bound');
  const stores = ['memory', 'redis', 'ioredis', 'redis-cluster', 'postgres', 'memcached', 'tarantool',
    'tarantool-memtx', 'cloudant', 'cloudant-legacy', 'couchdb-nano', 'postgres+redis', 'redis+postgres'];
  const steps = [];
  for (const key of ['key1', 'key2', 'key3']) {
    for (const [index, store] of stores.entries()) {
      const from = base.steps.filter((step) => step.store === (index % 2 ? 'redis' : 'memory'));
      steps.push(...from.map((step) => ({ ...step, store, key, url: `http://127.0.0.1:1/${store}/${key}` })));
    }
  }
  const result = createResult({ ...base, steps, control: null });
  const { section } = summaryText(result);
  assert.equal(section.split('\n').filter((line) => stores.some((store) => line.startsWith(`${store} `))).length, 13);
});
