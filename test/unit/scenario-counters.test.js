// Counter-runs (node test --scenario NAME --counter): which change each verdict's counter-run
// makes and which runs share one, the system it runs on, the runs a conclusion uses, the
// checks the counters brought (share-below, at-least), and the text that shows both outcomes
// side by side. The counter-runs themselves, on real servers, are test/cli/scenario-counter.test.js's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { counterPlans, listScenarios, systemOf } from '../../studies/index.js';
import { subset as sweepSubset } from '../../studies/kinds/sweep.js';
import { subset as serialSubset } from '../../studies/kinds/serial.js';
import { subset as batchSubset } from '../../studies/kinds/batch.js';
import { judge, HOLDS, FAILS, NOT_RUNNABLE, SET_BY, NOT_PROVEN } from '../../result/scenarios/verdicts.js';
import { renderScenario, scenarioHtml } from '../../report/scenario.js';
import cloudantVsRedis from '../../studies/scenarios/cloudant-vs-redis.js';
import clusterVsDocument from '../../studies/scenarios/cluster-vs-document.js';
import tarantoolVsPostgres from '../../studies/scenarios/tarantool-vs-postgres.js';
import clientLibraries from '../../studies/scenarios/client-libraries.js';

const scenarios = await listScenarios();

test('every judged conclusion of every scenario has a counter-run, or says what set it, or why none exists', () => {
  for (const scenario of scenarios) {
    for (const conclusion of scenario.conclusions.filter((candidate) => candidate.check)) {
      const ways = [conclusion.counter, conclusion.setBy, conclusion.noCounter].filter(Boolean);
      assert.equal(ways.length, 1, `${scenario.name} ${conclusion.id}: one of counter, setBy, noCounter`);
      const counters = conclusion.counter?.ifHolds
        ? [conclusion.counter.ifHolds, conclusion.counter.ifFails]
        : [conclusion.counter].filter(Boolean);
      for (const counter of counters) {
        assert.ok(counter.change && counter.system, `${scenario.name} ${conclusion.id}: a change and its system`);
      }
      // What it uses is what its kind can cut a run down to.
      if (conclusion.uses) assert.ok(Array.isArray(conclusion.uses) && conclusion.uses.length);
    }
  }
});

test('conclusions sharing a change share one counter-run; { ifHolds, ifFails } picks the change that turns ' +
  'this run\'s outcome around', () => {
  const conclusions = cloudantVsRedis.conclusions;
  const judged = conclusions.map((conclusion) => ({ id: conclusion.id, verdict: FAILS }));
  const plans = counterPlans(conclusions, judged);
  assert.deepEqual(plans.map((plan) => plan.conclusions.map((conclusion) => conclusion.id)), [
    ['redis-faster'], ['cloudant-plateau', 'plateau-is-lite'], ['advantage-shrinks'], ['json-parse-negligible'],
  ]);
  const bulk = clusterVsDocument.conclusions.filter((conclusion) => conclusion.id === 'bulk-writes-fewer-ops');
  const [held] = counterPlans(bulk, [{ id: 'bulk-writes-fewer-ops', verdict: HOLDS }]);
  assert.deepEqual(held.counter.system, { kind: { serverCpu: { cores: 0.05, phases: ['a'] } } });
  const [failed] = counterPlans(bulk, [{ id: 'bulk-writes-fewer-ops', verdict: FAILS }]);
  assert.deepEqual(failed.counter.system, { kind: { serverCpu: { cores: 0.05, phases: ['b'] } } });
});

test('a counter-run\'s system is the run\'s with its change over it: the flags\' over the scenario\'s', () => {
  const flags = { storeDelay: { rttMs: 5 } };
  const plain = systemOf(cloudantVsRedis, flags);
  assert.equal(plain.plan, 'lite');
  assert.deepEqual(plain.storeDelay, { rttMs: 5 });
  assert.deepEqual(plain.clientDelay, { rttMs: 300, bandwidth: 325 * 1024, perConnection: true });
  const lite = systemOf(cloudantVsRedis, flags, { cloudantPlan: 'none' });
  assert.equal(lite.plan, 'none');
  assert.deepEqual(lite.storeDelay, { rttMs: 5 }, 'the flags\' network stays');
  // --client-bandwidth 0 takes the link's bandwidth away, the round trip stays.
  const narrow = systemOf(cloudantVsRedis, {}, { clientDelay: { bandwidth: 0 } });
  assert.deepEqual(narrow.clientDelay, { rttMs: 300, bandwidth: 0, perConnection: true });
  assert.equal(systemOf(cloudantVsRedis, {}, { clientDelay: { rttMs: 0, bandwidth: 0 } }).clientDelay, null);
  const pool = systemOf(tarantoolVsPostgres, {}, { env: { POSTGRES_POOL_SIZE: '1' } });
  assert.deepEqual(pool.env, { POSTGRES_POOL_SIZE: '1' });
});

test('the kinds cut a run down to what a conclusion uses: runs by id or by id and store, stores, groups', () => {
  const scale = tarantoolVsPostgres.scales.tiny;
  const cut = sweepSubset(tarantoolVsPostgres, scale, ['write tarantool', 'write postgres', 'read-key']);
  assert.deepEqual(cut.scale.runs.map((run) => `${run.id} ${run.options.stores}`),
    ['write tarantool', 'write postgres', 'read-key postgres']);
  const serial = serialSubset(clientLibraries, clientLibraries.scales.tiny, ['redis', 'cloudant']);
  assert.deepEqual(serial.scenario.groups.map((group) => group.stores), [['redis'], ['cloudant']]);
  const batch = batchSubset({ stores: ['redis', 'ioredis', 'memory'] }, {}, ['memory', 'redis']);
  assert.deepEqual(batch.scenario.stores, ['redis', 'memory']);
});

test('a verdict set by the emulation is never printed as holding; a noCounter reason stays with its verdict', () => {
  const sweep = [{
    id: 'sweep',
    rows: ['redis/key1 c=5', 'redis/key1 c=30'],
    columns: [{ id: 'rps', label: 'rps', unit: 'req/s' }],
    cells: { 'redis/key1 c=5': { rps: 8.3 }, 'redis/key1 c=30': { rps: 41.6 } },
  }];
  const [rises] = judge(cloudantVsRedis.conclusions.filter((conclusion) => conclusion.id === 'redis-rises'), sweep);
  assert.equal(rises.verdict, SET_BY);
  assert.match(rises.explanation, /^the 300 ms round trip .*; measured: rps at redis\/key1 c=30 is 5\.01x/);
  const [unmeasured] = judge(cloudantVsRedis.conclusions.filter((conclusion) => conclusion.id === 'redis-rises'), []);
  assert.equal(unmeasured.verdict, SET_BY, 'set by the emulation even with nothing measured');
  const join = tarantoolVsPostgres.conclusions.filter((conclusion) => conclusion.id === 'join-reads-slower');
  const [judged] = judge(join, []);
  assert.ok(judged.verdict.startsWith(NOT_RUNNABLE));
  assert.match(judged.noCounter, /second index walk/);
});

// A scenario's record for the reports, with nothing measured but the verdicts given.
const scenarioRecord = (name, verdicts) => ({
  name,
  title: 't',
  study: { file: 'f', hardware: 'h', date: 'd' },
  scale: 'tiny',
  measured: [],
  published: [],
  notes: [],
  verdicts,
});

test('a verdict no counter-run can turn is printed as not proven, never as holding, with its reason ' +
  'and the outcome measured', () => {
  const sweep = [{
    id: 'sweep',
    rows: ['redis/key1 c=5', 'redis/key1 c=30'],
    columns: [{ id: 'rps', label: 'rps', unit: 'req/s' }],
    cells: { 'redis/key1 c=5': { rps: 8.3 }, 'redis/key1 c=30': { rps: 41.6 } },
  }];
  const conclusion = {
    id: 'fast-enough',
    claim: 'Redis serves 5 a second',
    check: { type: 'at-least', table: 'sweep', column: 'rps', rows: { prefix: 'redis/key1' }, atLeast: 5 },
  };
  const [judged] = judge([conclusion], sweep);
  assert.equal(judged.verdict, HOLDS);
  const [unproven] = judge([{ ...conclusion, noCounter: 'nothing here can turn it' }], sweep);
  assert.equal(unproven.verdict, NOT_PROVEN);
  assert.equal(unproven.outcome, HOLDS);
  assert.equal(unproven.explanation,
    `no counter-run can turn it: nothing here can turn it; measured: holds here (${judged.explanation})`);
  // Nothing measured: not runnable, as any verdict, with the reason it has no counter-run kept.
  const [unmeasured] = judge([{ ...conclusion, noCounter: 'nothing here can turn it' }], []);
  assert.ok(unmeasured.verdict.startsWith(NOT_RUNNABLE));
  assert.equal(unmeasured.outcome, undefined);
  const record = scenarioRecord('x', [unproven]);
  const text = renderScenario(record);
  assert.match(text, new RegExp('^ {2}not proven here {2}fast-enough: Redis serves 5 a second -- ' +
    'no counter-run can turn it: nothing here can turn it; measured: holds here \\(', 'm'));
  assert.doesNotMatch(text, /^ {2}holds here/m);
  const countered = renderScenario({ ...record, counterRuns: [] });
  assert.match(countered, /^ {2}not proven here \| - +fast-enough: /m);
  assert.doesNotMatch(countered, /^ {4}no counter-run: /m, 'the reason is said once, in the explanation');
  const page = scenarioHtml({ ...record, counterRuns: [] }, (html) => String(html).replaceAll('<', '&lt;'));
  assert.match(page, /<strong>not proven here<\/strong> fast-enough: /);
  assert.match(page, /no counter-run can turn it: nothing here can turn it; measured: holds here \(/);
  assert.doesNotMatch(page, /<strong>holds here<\/strong>/);
});

test('share-below: each document\'s parse under a hundredth of its request, the rows a scale ran; ' +
  'at-least: every row at least the figure', () => {
  const tables = (parse, latency) => [
    {
      id: 'sweep',
      rows: ['redis/key1 c=5', 'redis/key3 c=5'],
      columns: [{ id: 'meanLatencyMs', label: 'meanLatencyMs', unit: 'ms' }],
      cells: { 'redis/key1 c=5': { meanLatencyMs: latency }, 'redis/key3 c=5': { meanLatencyMs: latency } },
    },
    {
      id: 'json-parse',
      rows: ['key1', 'key2', 'key3'],
      columns: [{ id: 'parseMs', label: 'parse', unit: 'ms' }],
      cells: { key1: { parseMs: 0.001 }, key2: { parseMs: 0.01 }, key3: { parseMs: parse } },
    },
  ];
  const parseNegligible = cloudantVsRedis.conclusions.filter((conclusion) => conclusion.id === 'json-parse-negligible');
  const [behindNetwork] = judge(parseNegligible, tables(0.3, 1400));
  assert.equal(behindNetwork.verdict, HOLDS, behindNetwork.explanation);
  // key2 has no request at this scale: left out, as the scale's rows are.
  assert.doesNotMatch(behindNetwork.explanation, /key2/);
  const [loopback] = judge(parseNegligible, tables(0.3, 3));
  assert.equal(loopback.verdict, FAILS);
  assert.match(loopback.explanation, /key3 0\.3 of redis\/key3 c=5 3 ms \(10%\).*; not: key3\)/);
  const atLeast = judge([{
    id: 'x',
    claim: 'x',
    check: { type: 'at-least', table: 'sweep', column: 'meanLatencyMs', rows: { prefix: 'redis/key' }, atLeast: 2 },
  }], tables(0.3, 3));
  assert.equal(atLeast[0].verdict, HOLDS);
});

test('with counter-runs the text shows each verdict\'s two outcomes side by side, what each counter-run ' +
  'changed and measured, and why a verdict has none', () => {
  const record = {
    ...scenarioRecord('cloudant-vs-redis', [
      {
        id: 'redis-faster',
        claim: 'Redis faster',
        verdict: FAILS,
        explanation: 'level',
        figures: [],
        counter: {
          change: 'Cloudant far',
          how: '--store-rtt cloudant-legacy=300',
          verdict: HOLDS,
          explanation: 'ahead',
          figures: [],
          doubts: [{ code: 'BUSY_MACHINE', steps: 1, of: 6 }],
        },
      },
      {
        id: 'redis-rises',
        claim: 'rises',
        verdict: SET_BY,
        setBy: 'the 300 ms round trip',
        explanation: 'the 300 ms',
        figures: [],
      },
      {
        id: 'join',
        claim: 'join',
        verdict: `${NOT_RUNNABLE}: no rows`,
        explanation: 'no rows',
        figures: [],
        noCounter: 'nothing here can',
      },
      {
        id: 'flat',
        claim: 'flat',
        verdict: FAILS,
        explanation: 'rises',
        figures: [],
        counter: { change: 'servers slow', verdict: FAILS, explanation: 'still rises', figures: [], doubts: [] },
      },
    ]),
    counterRuns: [{ change: 'Cloudant far', how: '--store-rtt cloudant-legacy=300', verdicts: ['redis-faster'] }],
  };
  const text = renderScenario(record);
  assert.match(text, /^ {2}this run\s+\| counter-run\s*$/m);
  assert.match(text, /^! does not hold here +\| holds here +redis-faster: Redis faster -- level$/m);
  assert.match(text, /^ {4}counter-run, Cloudant far \(--store-rtt cloudant-legacy=300\): ahead$/m);
  assert.match(text,
    /^ {4}in the counter-run: distrust this verdict: its figures come from steps with BUSY_MACHINE \(1 of 6\)$/m);
  assert.match(text, /^ {2}set by the emulation \| - +redis-rises: rises -- the 300 ms$/m);
  assert.match(text, /^ {4}no counter-run: nothing here can$/m);
  // A counter-run that came out as the run did is said to be one, under that verdict only.
  const notFlipped = /^ {4}not flipped: the counter-run came out as this run did, so this verdict has not been seen/gm;
  assert.equal(text.match(notFlipped).length, 1);
  assert.match(text, /counter-run, servers slow: still rises\n {4}not flipped: /);
  assert.match(text, /^ {2}- Cloudant far \(--store-rtt cloudant-legacy=300\): redis-faster$/m);
  // The page says the same.
  const page = scenarioHtml(record, (text) => String(text).replaceAll('<', '&lt;'));
  assert.match(page, /counter-run, Cloudant far \(--store-rtt cloudant-legacy=300\): <strong>holds here<\/strong>/);
  assert.match(page, /no counter-run: nothing here can/);
  assert.equal(page.match(/not flipped: the counter-run came out as this run did/g).length, 1);
  // Without counter-runs, as before: one column.
  const plain = renderScenario({ ...record, counterRuns: undefined, verdicts: [record.verdicts[1]] });
  assert.match(plain, /^ {2}set by the emulation {2}redis-rises: rises -- the 300 ms$/m);
});
