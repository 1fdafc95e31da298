// The whole-table checks of the direct-mode scenarios (result/scenarios/checks-direct.js), run
// through verdicts.js's judge: on the studies' own published figures (each study's conclusions
// must hold on its own numbers) and on tables made to break them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judge, HOLDS, FAILS, NOT_RUNNABLE, NOT_PROVEN } from '../../result/scenarios/verdicts.js';
import { publishedTable } from '../../studies/tables.js';
import clientLibraries from '../../studies/scenarios/client-libraries.js';
import redisVsMemory from '../../studies/scenarios/redis-vs-memory.js';

const publishedOf = (scenario) =>
  scenario.published.map((table) => publishedTable(scenario.tables.find((spec) => spec.id === table.id), table));
const verdictOf = (verdicts, id) => verdicts.find((verdict) => verdict.id === id);

// A table of ms from { row: [cells] }, columns c1.. in order.
function msTable(id, rows, labels = ['1,000 users', '10,000 users', '100,000 users']) {
  const columns = labels.map((label, i) => ({ id: `c${i + 1}`, label, unit: 'ms' }));
  const cells = Object.fromEntries(
    Object.entries(rows).map(([row, values]) => [
      row,
      Object.fromEntries(values.map((value, i) => [`c${i + 1}`, value])),
    ]),
  );
  return { id, title: id, rowHeader: 'method', rows: Object.keys(rows), columns, cells };
}

test('redis-vs-memory: the study\'s own figures hold its conclusions, ' +
  'but for the ratio its own table does not show shrinking', () => {
  const verdicts = judge(redisVsMemory.conclusions, publishedOf(redisVsMemory));
  assert.equal(verdicts.length, redisVsMemory.conclusions.length);
  assert.equal(verdictOf(verdicts, 'memory-faster').verdict, HOLDS);
  assert.match(verdictOf(verdicts, 'memory-faster').explanation, /faster in 12 of 12 comparisons/);
  // once-faster and gap-narrows have no counter-run: printed as not proven, the check's outcome beside.
  assert.equal(verdictOf(verdicts, 'once-faster').verdict, NOT_PROVEN);
  assert.equal(verdictOf(verdicts, 'once-faster').outcome, HOLDS);
  // Judged step by step, the study's own ratios rise (or stay level) from 1,000 to 10,000 users in
  // every pair; only their ends would say "shrinks": its claim does not hold on its own table.
  assert.equal(verdictOf(verdicts, 'gap-narrows').outcome, FAILS);
  assert.match(verdictOf(verdicts, 'gap-narrows').explanation, /falls at every step in 0 of 4 .*: redis set 4.48x -> 11x -> 10x \(rises, level\)/);
  assert.match(verdictOf(verdicts, 'split-when-large-and-hot').verdict, new RegExp(`^${NOT_RUNNABLE}: `));
});

test('beats: one comparison lost is enough for "does not hold", and the explanation names it', () => {
  const table = msTable('methods', {
    'redis set once': [5, 16, 110],
    'redis set para': [24, 179, 1146],
    'memory (cache) set once': [1, 8, 98],
    'memory (cache) set para': [4, 45, 2000],
  });
  const check = { type: 'beats', table: 'methods', faster: 'memory (cache) ', slower: ['redis ', 'ioredis '] };
  const [verdict] = judge([{ id: 'x', claim: 'x', check }], [table]);
  assert.equal(verdict.verdict, FAILS);
  assert.match(verdict.explanation, /faster in 5 of 6 comparisons \(0.57x to 6.00x as fast\); not: memory \(cache\) set para 2,000 vs redis set para 1,146 ms at 100,000 users$/);
});

test('ratio-shrinks: every pair growing does not hold; a missing cell is "not runnable", never a guess', () => {
  const conclusion = {
    id: 'x',
    claim: 'x',
    check: { type: 'ratio-shrinks', table: 'methods', numerator: ' para', denominator: ' once', in: 'most' },
  };
  const growing = msTable('methods', { 'redis set once': [5, 10, 10], 'redis set para': [10, 50, 100] });
  assert.equal(judge([conclusion], [growing])[0].verdict, FAILS);
  const missing = msTable('methods', { 'redis set once': [5, 10, null], 'redis set para': [10, 50, 100] });
  assert.match(
    judge([conclusion], [missing])[0].verdict,
    new RegExp(`^${NOT_RUNNABLE}: no figure for redis set once, c3`),
  );
});

test('client-libraries: the two Kyoto Tycoon conclusions are not runnable, with the reason', () => {
  const verdicts = judge(clientLibraries.conclusions, []);
  for (const id of ['kyoto-client-faster', 'big-set-reverses']) {
    assert.match(verdictOf(verdicts, id).verdict, /^not runnable here: neither kyoto-client nor kyoto-tycoon is in the npm registry any more, and no Kyoto Tycoon server is packaged/);
  }
});

test('best-except: the study\'s own table has its shape (kyoto-client ahead but at ' +
  'serial_put_big); other shapes do not', () => {
  const [published] = publishedOf(clientLibraries);
  assert.deepEqual(published.columns.map((column) => column.id), ['kyoto-client', 'kyoto-tycoon']);
  const check = {
    type: 'best-except',
    table: 'scripts',
    columns: ['kyoto-client', 'kyoto-tycoon'],
    except: ['serial_put_big'],
  };
  const [holds] = judge([{ id: 'x', claim: 'x', check }], [published]);
  assert.equal(holds.verdict, HOLDS);
  assert.match(holds.explanation, /kyoto-client fastest on all of serial_put_large, get_random, get_random_large, get_random_big; serial_put_big: kyoto-tycoon fastest, 1.30x ahead of kyoto-client/);

  // kyoto-client also ahead at the big set: no reversal.
  const noReversal = structuredClone(published);
  noReversal.cells.serial_put_big['kyoto-client'] = 1000;
  assert.equal(judge([{ id: 'x', claim: 'x', check }], [noReversal])[0].verdict, FAILS);
  // the lead changes hands on an ordinary script.
  const split = structuredClone(published);
  split.cells.get_random['kyoto-tycoon'] = 1;
  assert.match(judge([{ id: 'x', claim: 'x', check }], [split])[0].explanation, /no one client clearly fastest .*get_random: kyoto-tycoon/);
});

test('beats and ratio-shrinks with nothing to compare cannot be judged: not runnable, never "does not hold"', () => {
  const lone = msTable('methods', { 'redis set once': [5, 10, 20] });
  for (const check of [
    { type: 'beats', table: 'methods', faster: 'memory (cache) ', slower: ['redis '] },
    { type: 'ratio-shrinks', table: 'methods', numerator: ' para', denominator: ' once' },
  ]) {
    const [verdict] = judge([{ id: 'x', claim: 'x', check }], [lone]);
    assert.match(verdict.verdict, new RegExp(`^${NOT_RUNNABLE}: no rows with ".*" and a counterpart to compare`));
  }
});

test('beats and best-except: a lead within the margin is no lead', () => {
  const close = msTable('methods', { 'memory (cache) set once': [9.5, 1, 1], 'redis set once': [10, 5, 5] });
  const beatsRedis = { type: 'beats', table: 'methods', faster: 'memory (cache) ', slower: ['redis '] };
  const [beats] = judge([{ id: 'x', claim: 'x', check: beatsRedis }], [close]);
  assert.equal(beats.verdict, FAILS);
  assert.match(beats.explanation, /faster in 2 of 3 comparisons, 1 within 10% \(not distinguishable here\)/);
  const scripts = {
    id: 'scripts',
    title: 's',
    rowHeader: 'script',
    rows: ['a', 'big'],
    columns: [{ id: 'x', label: 'X', unit: 'ms' }, { id: 'y', label: 'Y', unit: 'ms' }],
    cells: { a: { x: 100, y: 105 }, big: { x: 300, y: 100 } },
  };
  const check = { type: 'best-except', table: 'scripts', columns: ['x', 'y'], except: ['big'] };
  const [near] = judge([{ id: 'x', claim: 'x', check }], [scripts]);
  assert.equal(near.verdict, FAILS);
  assert.match(near.explanation, /no one client clearly fastest on a \(a: X, within 10%\)/);
  assert.equal(judge([{ id: 'x', claim: 'x', check: { ...check, margin: 0.01 } }], [scripts])[0].verdict, HOLDS);
});

test('all-at-least: holds only when every cell reaches the bound, and names the lowest', () => {
  const cpu = (value) => ({
    id: 'cpu',
    title: 'cpu',
    rowHeader: 'script',
    rows: ['a', 'b'],
    columns: [{ id: 'redis', label: 'node-redis', unit: '%' }],
    cells: { a: { redis: 99 }, b: { redis: value } },
  });
  const conclusion = { id: 'x', claim: 'x', check: { type: 'all-at-least', table: 'cpu', atLeast: 90 } };
  assert.equal(judge([conclusion], [cpu(95)])[0].verdict, HOLDS);
  const [low] = judge([conclusion], [cpu(40)]);
  assert.equal(low.verdict, FAILS);
  assert.equal(low.explanation, '1 of 2 at 90% or more; lowest 40% (node-redis, b)');
});
