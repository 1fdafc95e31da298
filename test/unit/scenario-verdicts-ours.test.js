// The verdicts whose rows the studies' tables do not have (a run without Lite's limits, our
// update rows), so scenario-verdicts-everywhere.test.js cannot feed them: each judged on
// figures shaped as a run gives them, holding, and turned the other way, not holding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judge, HOLDS, FAILS, SET_BY } from '../../result/scenarios/verdicts.js';
import cloudantVsRedis from '../../scenarios/cloudant-vs-redis.js';
import redisVsMemory from '../../scenarios/redis-vs-memory.js';
import tarantoolVsPostgres from '../../scenarios/tarantool-vs-postgres.js';
import clusterVsDocument from '../../scenarios/cluster-vs-document.js';

const row = (phase, store) =>
  `${{ a: 'a. 100 B writes', b: 'b. 100 B bulk writes', c: 'c. 10 KB writes' }[phase]} / ${store}`;

const conclusion = (scenario, id) => scenario.conclusions.find((candidate) => candidate.id === id);
const verdictOf = (scenario, id, tables) => judge([conclusion(scenario, id)], tables)[0];

// A sweep table of the rows given ({ row: { rps, meanLatencyMs } }).
function sweep(rows) {
  return [{
    id: 'sweep',
    rows: Object.keys(rows),
    columns: [{ id: 'rps', label: 'rps', unit: 'req/s' }, { id: 'meanLatencyMs', label: 'meanLatencyMs', unit: 'ms' }],
    cells: rows,
  }];
}
const loads = [5, 15, 30];
const rowsOf = (prefix, rps, meanLatencyMs = () => 600) =>
  Object.fromEntries(loads.map((c, i) => [`${prefix}/key1 c=${c}`, { rps: rps[i], meanLatencyMs: meanLatencyMs(c) }]));

test('plateau-is-lite holds when Lite\'s run levels off and the same run without the limits keeps rising, ' +
  'and not when both level off', () => {
  const lite = rowsOf('cloudant', [8, 17, 18]);
  const rising = sweep({ ...lite, ...rowsOf('cloudant-no-limits', [8, 24, 48]) });
  assert.equal(verdictOf(cloudantVsRedis, 'plateau-is-lite', rising).verdict, HOLDS);
  const alsoFlat = sweep({ ...lite, ...rowsOf('cloudant-no-limits', [8, 17, 18]) });
  assert.equal(verdictOf(cloudantVsRedis, 'plateau-is-lite', alsoFlat).verdict, FAILS);
});

test('network-dominates is set by the emulation, naming the round trip, with the figures beside it; ' +
  'its check holds when both stores pay the same network at c=5, and not on loopback', () => {
  const behindNetwork = sweep({
    ...rowsOf('redis', [8, 24, 48], () => 605),
    ...rowsOf('cloudant-no-limits', [8, 24, 48], () => 615),
  });
  const printed = verdictOf(cloudantVsRedis, 'network-dominates', behindNetwork);
  assert.equal(printed.verdict, SET_BY);
  assert.match(printed.setBy, /^the 300 ms round trip between the driver and the app/);
  assert.match(printed.explanation, /; measured: meanLatencyMs: cloudant-no-limits\/key1 c=5 615, redis\/key1 c=5 605: 1\.02x/);
  const { setBy: _setBy, ...check } = conclusion(cloudantVsRedis, 'network-dominates');
  assert.equal(judge([check], behindNetwork)[0].verdict, HOLDS);
  const loopback = sweep({
    ...rowsOf('redis', [2500, 3000, 3500], () => 1.9),
    ...rowsOf('cloudant-no-limits', [900, 1000, 1000], () => 5.4),
  });
  assert.equal(judge([check], loopback)[0].verdict, FAILS);
  // Never printed as holding, even where its figures would hold.
  assert.equal(verdictOf(cloudantVsRedis, 'network-dominates', loopback).verdict, SET_BY);
});

test('split-when-large-and-hot holds when changing a user in its own key is faster at every count on every store, ' +
  'and not when turned around', () => {
  const columns = [{ id: 'c1', label: '1,000 users', unit: 'ms' }, { id: 'c2', label: '10,000 users', unit: 'ms' }];
  const table = (own, inOne) => [{
    id: 'methods',
    rows: [
      'redis update in one key', 'redis update own key',
      'memory (cache) update in one key', 'memory (cache) update own key',
    ],
    columns,
    cells: {
      'redis update in one key': inOne,
      'redis update own key': own,
      'memory (cache) update in one key': inOne,
      'memory (cache) update own key': own,
    },
  }];
  assert.equal(
    verdictOf(redisVsMemory, 'split-when-large-and-hot', table({ c1: 0.2, c2: 0.2 }, { c1: 3, c2: 30 })).verdict,
    HOLDS,
  );
  assert.equal(
    verdictOf(redisVsMemory, 'split-when-large-and-hot', table({ c1: 3, c2: 30 }, { c1: 0.2, c2: 0.2 })).verdict,
    FAILS,
  );
});

test('memory-faster is judged on the study\'s methods (set, get), not on our update rows, ' +
  'and fails when memory is turned slower on one of them', () => {
  const columns = [{ id: 'c1', label: '1,000 users', unit: 'ms' }, { id: 'c2', label: '10,000 users', unit: 'ms' }];
  const methods = ['set once', 'set para', 'get once', 'get para', 'update in one key', 'update own key'];
  const stores = { 'memory (cache)': 1, redis: 10, ioredis: 12 };
  const table = (cellOf) => [{
    id: 'methods',
    rows: Object.keys(stores).flatMap((store) => methods.map((method) => `${store} ${method}`)),
    columns,
    cells: Object.fromEntries(Object.keys(stores).flatMap((store) => methods.map((method) =>
      [`${store} ${method}`, { c1: cellOf(store, method), c2: cellOf(store, method) * 10 }]))),
  }];
  // Updating inside one big key is JSON work in the process whichever store holds the key: level.
  const jsonBound = (store, method) => (method === 'update in one key' ? 50 : stores[store]);
  assert.equal(verdictOf(redisVsMemory, 'memory-faster', table(jsonBound)).verdict, HOLDS);
  const memorySlowGet = (store, method) =>
    (store === 'memory (cache)' && method === 'get para' ? 20 : jsonBound(store, method));
  assert.equal(verdictOf(redisVsMemory, 'memory-faster', table(memorySlowGet)).verdict, FAILS);
});

test('join-reads-slower holds when the key lookup reads faster than the study\'s join, ' +
  'and not when turned around', () => {
  const table = (key, join) => [{
    id: 'postgres',
    rows: ['read', 'read-key', 'write', 'write-concurrent'],
    columns: [{ id: 'rps', label: 'rps', unit: 'req/s' }],
    cells: { read: { rps: join }, 'read-key': { rps: key }, write: { rps: 900 }, 'write-concurrent': { rps: 1500 } },
  }];
  assert.equal(verdictOf(tarantoolVsPostgres, 'join-reads-slower', table(4000, 3000)).verdict, HOLDS);
  assert.equal(verdictOf(tarantoolVsPostgres, 'join-reads-slower', table(3000, 4000)).verdict, FAILS);
  // Within the 10% margin every check uses, the two are not told apart.
  assert.equal(verdictOf(tarantoolVsPostgres, 'join-reads-slower', table(3100, 3000)).verdict, FAILS);
});

test('large-writes-redis-unstable holds when Redis Cluster fails more than every other store under 10 KB ' +
  'writes, and not when its only errors are the memory cap\'s refusals, which the single Redis shares', () => {
  const stores = ['redis-cluster', 'redis', 'tarantool-memtx', 'postgres'];
  const phases = (cells) => [{
    id: 'phases',
    rows: stores.map((store) => row('c', store)),
    columns: [{ id: 'errors', label: 'errors (phase)', unit: '' }, { id: 'failures', label: 'failures', unit: '' }],
    cells: Object.fromEntries(stores.map((store, i) => [row('c', store), cells[i]])),
  }];
  // As run here: both Redis servers refuse the writes past the cap alike, and nothing else fails.
  const capOnly = phases([{ errors: 5742, failures: 0 }, { errors: 5741, failures: 0 }, ...Array(2).fill({
    errors: 0, failures: 0,
  })]);
  assert.equal(verdictOf(clusterVsDocument, 'large-writes-redis-unstable', capOnly).verdict, FAILS);
  // The study's: timeouts and lost connections on the cluster only.
  const unstable = phases([{ errors: 5900, failures: 158 }, { errors: 5741, failures: 0 }, ...Array(2).fill({
    errors: 0, failures: 0,
  })]);
  assert.equal(verdictOf(clusterVsDocument, 'large-writes-redis-unstable', unstable).verdict, HOLDS);
  // Turned around: the single Redis fails, the cluster does not.
  const turned = phases([{ errors: 5742, failures: 0 }, { errors: 5900, failures: 158 }, ...Array(2).fill({
    errors: 0, failures: 0,
  })]);
  assert.equal(verdictOf(clusterVsDocument, 'large-writes-redis-unstable', turned).verdict, FAILS);
});

test('a probe comparison closer than the table\'s resolution is too small to judge ' +
  'here, not a verdict that holds', () => {
  // Pins the bug where verdicts held on probe means around 0.05 ms apart by less than the probe can tell.
  const rows = [row('a', 'redis-cluster'), row('b', 'redis-cluster'), row('c', 'redis-cluster')];
  const phases = (values, resolution) => [{
    id: 'phases',
    rows,
    columns: [{ id: 'probeLoadMs', label: 'probe under load', unit: 'ms' }],
    cells: Object.fromEntries(rows.map((name, i) => [name, { probeLoadMs: values[i] }])),
    ...(resolution ? { resolution: { probeLoadMs: resolution } } : {}),
  }];
  const slower = verdictOf(clusterVsDocument, 'bulk-writes-slower', phases([0.05, 0.07, 0.06]));
  assert.equal(slower.verdict, HOLDS, slower.explanation);
  const unresolved = verdictOf(clusterVsDocument, 'bulk-writes-slower', phases([0.05, 0.07, 0.06], 0.05));
  assert.equal(unresolved.verdict, FAILS);
  assert.match(unresolved.explanation, /too small to judge here/);
  // Far apart, the resolution changes nothing.
  assert.equal(verdictOf(clusterVsDocument, 'bulk-writes-slower', phases([0.05, 0.5, 0.06], 0.05)).verdict, HOLDS);
});

test('saturation holds when Redis Cluster\'s ops stay flat and its latency rises in every phase but c, ' +
  'whatever c measured, and not when the latency stays flat', () => {
  const names = {
    a: 'a. 100 B writes', b: 'b. 100 B bulk writes', c: 'c. 10 KB writes', d: 'd. 100 B reads', e: 'e. 10 KB reads',
  };
  const steps = (meanAt500, cAnswered) => {
    const cells = {};
    for (const [phase, name] of Object.entries(names)) {
      const answered = phase !== 'c' || cAnswered;
      cells[`${name} / redis-cluster c=200`] = { ops: 20000, meanMs: 10 };
      cells[`${name} / redis-cluster c=500`] = answered ? { ops: 21000, meanMs: meanAt500 } : { ops: 0, meanMs: null };
    }
    return [{
      id: 'steps',
      rows: Object.keys(cells),
      columns: [{ id: 'ops', label: 'throughput', unit: 'ops/s' }, { id: 'meanMs', label: 'mean', unit: 'ms' }],
      cells,
    }];
  };
  // Phase c's last step refused every write (OOM): no mean to time, and the verdict still stands.
  assert.equal(verdictOf(clusterVsDocument, 'saturation', steps(25, false)).verdict, HOLDS);
  assert.equal(verdictOf(clusterVsDocument, 'saturation', steps(10, true)).verdict, FAILS);
});

test('probe-slower-under-load: a row whose load and idle probe means are closer than the ' +
  'resolution is too small to judge', () => {
  const stores = ['redis-cluster', 'redis', 'tarantool-memtx', 'postgres'];
  const rows = Object.values({
    a: 'a. 100 B writes', b: 'b. 100 B bulk writes', c: 'c. 10 KB writes', d: 'd. 100 B reads', e: 'e. 10 KB reads',
  }).flatMap((phase) => stores.map((store) => `${phase} / ${store}`));
  const phases = (load, resolution) => [{
    id: 'phases',
    rows,
    columns: [
      { id: 'probeIdleMs', label: 'probe idle', unit: 'ms' },
      { id: 'probeLoadMs', label: 'probe under load', unit: 'ms' },
    ],
    cells: Object.fromEntries(rows.map((name) => [name, { probeIdleMs: 0.05, probeLoadMs: load }])),
    ...(resolution ? { resolution: { probeIdleMs: resolution, probeLoadMs: resolution } } : {}),
  }];
  assert.equal(verdictOf(clusterVsDocument, 'probe-slower-under-load', phases(0.08)).verdict, HOLDS);
  const unresolved = verdictOf(clusterVsDocument, 'probe-slower-under-load', phases(0.08, 0.05));
  assert.equal(unresolved.verdict, FAILS);
  assert.match(unresolved.explanation, /too small to judge here/);
  assert.equal(verdictOf(clusterVsDocument, 'probe-slower-under-load', phases(0.5, 0.05)).verdict, HOLDS);
  assert.equal(verdictOf(clusterVsDocument, 'probe-slower-under-load', phases(0.03)).verdict, FAILS);
});
