// The scenario verdicts (result/scenarios/verdicts.js) on known tables: each check type holds,
// fails, or says it cannot be judged when a cell is missing; a notRunnable conclusion says why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FAILS, HOLDS, judge } from '../../result/scenarios/verdicts.js';

// A sweep like study 000's: rps per store and concurrency, latency in ms.
const rps = {
  'redis/key1 c=5': 7,
  'redis/key1 c=15': 21,
  'redis/key1 c=30': 36,
  'cloudant/key1 c=5': 7,
  'cloudant/key1 c=15': 17,
  'cloudant/key1 c=20': 18,
  'cloudant/key1 c=30': 17,
};
const table = {
  id: 'sweep',
  title: 't',
  rowHeader: 'url',
  rows: Object.keys(rps),
  columns: [{ id: 'rps', label: 'rps', unit: 'req/s' }, { id: 'mean', label: 'mean', unit: 'ms' }],
  cells: Object.fromEntries(Object.entries(rps).map(([row, value]) => [row, { rps: value, mean: 1000 / value }])),
};
const one = (check) => judge([{ id: 'x', claim: 'c', check }], [table])[0];

test('faster: every pair, or most of them; ms columns are better low', () => {
  // level at c=5
  assert.equal(one({ type: 'faster', column: 'rps', faster: 'redis/', slower: 'cloudant/' }).verdict, FAILS);
  const most = one({ type: 'faster', column: 'rps', faster: 'redis/', slower: 'cloudant/', in: 'most' });
  assert.equal(most.verdict, HOLDS);
  assert.equal(
    most.explanation,
    'redis ahead on rps in 2 of 3 pairs, 1 within 10% (not distinguishable here) (its advantage 1.00x to 2.12x)',
  );
  assert.equal(
    one({ type: 'faster', column: 'mean', faster: 'redis/', slower: 'cloudant/', in: 'most' }).verdict,
    HOLDS,
  );
  assert.equal(
    one({ type: 'faster', column: 'mean', faster: 'cloudant/', slower: 'redis/', in: 'most' }).verdict,
    FAILS,
  );
});

test('plateau: within a tolerance of the median over the rows from a load on', () => {
  const flat = one({ type: 'plateau', column: 'rps', rows: { prefix: 'cloudant/key1 c=', from: 15 }, tolerance: 0.1 });
  assert.equal(flat.verdict, HOLDS);
  // Figures as the tables show them: whole numbers without a decimal.
  assert.match(flat.explanation, /17 to 18, at most 6% from its median/);
  assert.equal(
    one({ type: 'plateau', column: 'rps', rows: { prefix: 'redis/key1 c=' }, tolerance: 0.2 }).verdict,
    FAILS,
  );
  assert.equal(
    one({ type: 'plateau', column: 'rps', rows: ['cloudant/key1 c=15', 'cloudant/key1 c=30'], tolerance: 0 }).verdict,
    HOLDS,
  );
});

test('rises: last over first of the rows, at least a factor', () => {
  // 36 / 7 = 5.14
  assert.equal(one({ type: 'rises', column: 'rps', rows: { prefix: 'redis/key1 c=' }, atLeast: 5 }).verdict, HOLDS);
  assert.equal(one({ type: 'rises', column: 'rps', rows: { prefix: 'redis/key1 c=' }, atLeast: 6 }).verdict, FAILS);
});

test('ratio: within bounds, also across two columns', () => {
  assert.equal(
    one({ type: 'ratio', column: 'rps', row: 'redis/key1 c=30', over: 'cloudant/key1 c=30', atLeast: 2 }).verdict,
    HOLDS,
  );
  assert.equal(
    one({ type: 'ratio', column: 'rps', row: 'redis/key1 c=30', over: 'cloudant/key1 c=30', atMost: 2 }).verdict,
    FAILS,
  );
  const across = one({
    type: 'ratio',
    column: 'mean',
    row: 'cloudant/key1 c=5',
    over: 'cloudant/key1 c=5',
    overColumn: 'rps',
    atLeast: 20,
    atMost: 21,
  });
  assert.equal(across.verdict, HOLDS); // 142.9 ms / 7 rps = 20.4
  assert.match(across.explanation, /cloudant\/key1 c=5's rps/);
});

test('order: best first, in the column\'s direction', () => {
  assert.equal(
    one({ type: 'order', column: 'rps', rows: ['redis/key1 c=30', 'cloudant/key1 c=20', 'cloudant/key1 c=5'] }).verdict,
    HOLDS,
  );
  assert.equal(one({ type: 'order', column: 'rps', rows: ['cloudant/key1 c=30', 'redis/key1 c=30'] }).verdict, FAILS);
  assert.equal(one({ type: 'order', column: 'mean', rows: ['redis/key1 c=30', 'cloudant/key1 c=30'] }).verdict, HOLDS);
  assert.equal(
    one({ type: 'order', column: 'rps', direction: 'lower', rows: ['cloudant/key1 c=30', 'redis/key1 c=30'] }).verdict,
    HOLDS,
  );
});

test('ratio-falls: the first pair\'s ratio above the second\'s', () => {
  const pairs = [['redis/key1 c=30', 'cloudant/key1 c=30'], ['redis/key1 c=15', 'cloudant/key1 c=15']];
  assert.equal(one({ type: 'ratio-falls', column: 'rps', pairs }).verdict, HOLDS); // 2.12 > 1.24
  assert.equal(one({ type: 'ratio-falls', column: 'rps', pairs: [pairs[1], pairs[0]] }).verdict, FAILS);
});

test('a missing cell, table or column cannot be judged: not runnable, saying which', () => {
  const missing = one({ type: 'ratio', column: 'rps', row: 'redis/key3 c=30', over: 'cloudant/key1 c=30', atLeast: 1 });
  assert.equal(missing.verdict, 'not runnable here: no figure for redis/key3 c=30, rps');
  const nullCell = judge(
    [{ id: 'x', claim: 'c', check: { type: 'order', column: 'rps', rows: ['a', 'b'] } }],
    [{ ...table, rows: ['a', 'b'], cells: { a: { rps: 1 }, b: { rps: null } } }],
  )[0];
  assert.equal(nullCell.verdict, 'not runnable here: no figure for b, rps');
  assert.match(one({ type: 'order', table: 'nope', column: 'rps', rows: [] }).verdict, /^not runnable here: no table "nope"/);
  assert.match(one({ type: 'order', column: 'p99', rows: [] }).verdict, /^not runnable here: table "sweep" has no column "p99"/);
  assert.match(one({ type: 'plateau', column: 'rps', rows: { prefix: 'memcached/' }, tolerance: 0.1 }).verdict, /^not runnable here: fewer than two rows/);
  assert.match(one({ type: 'sideways' }).verdict, /^not runnable here: unknown check type "sideways"/);
});

test('a conclusion marked notRunnable keeps its reason, and verdicts keep the conclusions\' order and claims', () => {
  const verdicts = judge([
    { id: 'a', claim: 'A', notRunnable: 'no Kyoto Tycoon server is packaged' },
    { id: 'b', claim: 'B', check: { type: 'rises', column: 'rps', rows: { prefix: 'redis/key1 c=' }, atLeast: 2 } },
  ], [table]);
  assert.deepEqual(verdicts.map(({ id, claim, verdict }) => [id, claim, verdict]), [
    ['a', 'A', 'not runnable here: no Kyoto Tycoon server is packaged'],
    ['b', 'B', HOLDS],
  ]);
});

test('a margin: figures within 10% (or a check\'s own margin) ' +
  'are not distinguishable, neither a win nor a loss', () => {
  // redis/key1 c=5 and cloudant/key1 c=5 are level at 7 rps: 'faster' in every pair fails, saying so.
  const level = one({ type: 'faster', column: 'rps', faster: 'redis/', slower: 'cloudant/' });
  assert.equal(level.verdict, FAILS);
  assert.match(level.explanation, /in 2 of 3 pairs, 1 within 10% \(not distinguishable here\)/);
  // cloudant c=20 (18) over c=30 (17): 5.9% apart, no order under the default margin, one under a 5% margin.
  const close = one({ type: 'order', column: 'rps', rows: ['cloudant/key1 c=20', 'cloudant/key1 c=30'] });
  assert.equal(close.verdict, FAILS);
  assert.match(close.explanation, /within 10%: not distinguishable here/);
  assert.equal(
    one({ type: 'order', column: 'rps', margin: 0.05, rows: ['cloudant/key1 c=20', 'cloudant/key1 c=30'] }).verdict,
    HOLDS,
  );
  // ratio-falls: 2.12 over 1.24 is a clear fall; the same ratio twice is not.
  const same = [['redis/key1 c=30', 'cloudant/key1 c=30'], ['redis/key1 c=30', 'cloudant/key1 c=30']];
  assert.match(one({ type: 'ratio-falls', column: 'rps', pairs: same }).explanation, /not distinguishable here/);
});

test('last: one row behind every other, by more than the margin', () => {
  assert.equal(one({
    type: 'last', column: 'rps', row: 'redis/key1 c=5', others: ['redis/key1 c=15', 'cloudant/key1 c=20'],
  }).verdict, HOLDS);
  const tied = one({
    type: 'last',
    column: 'rps',
    row: 'redis/key1 c=5',
    others: ['redis/key1 c=15', 'cloudant/key1 c=5'],
  });
  assert.equal(tied.verdict, FAILS);
  assert.match(tied.explanation, /redis\/key1 c=5 not behind cloudant\/key1 c=5 by more than 10%/);
  // ms: worst is highest
  assert.equal(
    one({ type: 'last', column: 'mean', row: 'redis/key1 c=5', others: ['redis/key1 c=30'] }).verdict,
    HOLDS,
  );
});

test('a verdict names the cells it was judged on; a missing row says the scale may leave it out', () => {
  const judged = one({ type: 'ratio', column: 'rps', row: 'redis/key1 c=30', over: 'cloudant/key1 c=30', atLeast: 2 });
  assert.deepEqual(
    judged.figures,
    [{ table: 'sweep', row: 'redis/key1 c=30' }, { table: 'sweep', row: 'cloudant/key1 c=30' }],
  );
  const missing = one({ type: 'ratio', column: 'rps', row: 'redis/key3 c=30', over: 'cloudant/key1 c=30', atLeast: 1 });
  assert.deepEqual(missing.figures, []);
  assert.match(missing.explanation, /^no figure for redis\/key3 c=30, rps \(this scale does not run that row/);
});

test('explanations show figures as the tables do: thousands separated, one decimal, ' +
  'two significant digits under 1', async () => {
  const { formatFigure } = await import('../../report/scenario.js');
  const wide = {
    id: 't',
    rowHeader: 'r',
    rows: ['a', 'b', 'c'],
    columns: [{ id: 'rps', label: 'rps', unit: 'req/s' }],
    cells: { a: { rps: 3316.14 }, b: { rps: 2121.08 }, c: { rps: 0.0172 } },
  };
  const [verdict] = judge(
    [{ id: 'x', claim: 'c', check: { type: 'order', column: 'rps', rows: ['a', 'b', 'c'] } }],
    [wide],
  );
  assert.equal(verdict.explanation, 'rps: a 3,316.1, b 2,121.1, c 0.017');
  assert.deepEqual([3316.14, 2121.08, 0.0172, 13927].map(formatFigure), ['3,316.1', '2,121.1', '0.017', '13,927']);
});
