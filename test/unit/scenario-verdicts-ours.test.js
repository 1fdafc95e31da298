// The verdicts whose rows the studies' tables do not have (a run without Lite's limits, our
// update rows), so scenario-verdicts-everywhere.test.js cannot feed them: each judged on
// figures shaped as a run gives them, holding, and turned the other way, not holding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judge, HOLDS, FAILS } from '../../result/scenarios/verdicts.js';
import cloudantVsRedis from '../../scenarios/cloudant-vs-redis.js';
import redisVsMemory from '../../scenarios/redis-vs-memory.js';

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
const rowsOf = (prefix, rps, meanLatencyMs = () => 600) => Object.fromEntries(loads.map((c, i) => [`${prefix}/key1 c=${c}`, { rps: rps[i], meanLatencyMs: meanLatencyMs(c) }]));

test('plateau-is-lite holds when Lite\'s run levels off and the same run without the limits keeps rising, and not when both level off', () => {
  const lite = rowsOf('cloudant', [8, 17, 18]);
  const rising = sweep({ ...lite, ...rowsOf('cloudant-no-limits', [8, 24, 48]) });
  assert.equal(verdictOf(cloudantVsRedis, 'plateau-is-lite', rising).verdict, HOLDS);
  const alsoFlat = sweep({ ...lite, ...rowsOf('cloudant-no-limits', [8, 17, 18]) });
  assert.equal(verdictOf(cloudantVsRedis, 'plateau-is-lite', alsoFlat).verdict, FAILS);
});

test('network-dominates holds when both stores pay the same network at c=5, and not on loopback where their own times differ', () => {
  const behindNetwork = sweep({ ...rowsOf('redis', [8, 24, 48], () => 605), ...rowsOf('cloudant-no-limits', [8, 24, 48], () => 615) });
  assert.equal(verdictOf(cloudantVsRedis, 'network-dominates', behindNetwork).verdict, HOLDS);
  const loopback = sweep({ ...rowsOf('redis', [2500, 3000, 3500], () => 1.9), ...rowsOf('cloudant-no-limits', [900, 1000, 1000], () => 5.4) });
  assert.equal(verdictOf(cloudantVsRedis, 'network-dominates', loopback).verdict, FAILS);
});

test('split-when-large-and-hot holds when changing a user in its own key is faster at every count on every store, and not when turned around', () => {
  const columns = [{ id: 'c1', label: '1,000 users', unit: 'ms' }, { id: 'c2', label: '10,000 users', unit: 'ms' }];
  const table = (own, inOne) => [{
    id: 'methods',
    rows: ['redis update in one key', 'redis update own key', 'memory (cache) update in one key', 'memory (cache) update own key'],
    columns,
    cells: {
      'redis update in one key': inOne,
      'redis update own key': own,
      'memory (cache) update in one key': inOne,
      'memory (cache) update own key': own,
    },
  }];
  assert.equal(verdictOf(redisVsMemory, 'split-when-large-and-hot', table({ c1: 0.2, c2: 0.2 }, { c1: 3, c2: 30 })).verdict, HOLDS);
  assert.equal(verdictOf(redisVsMemory, 'split-when-large-and-hot', table({ c1: 3, c2: 30 }, { c1: 0.2, c2: 0.2 })).verdict, FAILS);
});
