// The workload generators against their definitions (YCSB's generators, docs/workloads.md):
// the seeded PRNG, YCSB's FNV-1a 64, the Zipfian's share of hot keys predicted from the zeta
// formula, uniform within chi-square bounds, hotspot, latest, sequential. Seeds are fixed, so
// every figure here is the same on every run: the tolerances cover sampling noise, not luck.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRandom, fnv64Mod, hash3 } from '../../util/random.js';
import {
  createKeyChooser, createZipfian, SCRAMBLED_ITEM_COUNT, SCRAMBLED_ZETAN, ZIPFIAN_CONSTANT, zeta,
} from '../../driver/workloads/distributions.js';
import { createValues, keyOf } from '../../driver/workloads/values.js';

const THETA = ZIPFIAN_CONSTANT;

// YCSB's Utils.fnvhash64, written the obvious way with BigInt: the reference for ours.
function fnvReference(value, n) {
  let hash = 0xcbf29ce484222325n;
  let rest = BigInt(value);
  for (let i = 0; i < 8; i += 1) {
    hash ^= rest & 0xffn;
    rest >>= 8n;
    hash = (hash * 1099511628211n) & 0xffffffffffffffffn;
  }
  if (hash >= 1n << 63n) hash = (1n << 64n) - hash; // Math.abs of a negative long
  return Number(hash % BigInt(n));
}

// zeta(N, theta) for a large N: the first terms summed, the rest by Euler-Maclaurin.
function zetaLarge(N, theta = THETA, exact = 100_000) {
  let sum = 0;
  for (let i = 1; i < exact; i += 1) sum += i ** -theta;
  const integral = (x) => x ** (1 - theta) / (1 - theta);
  const derivative = (x) => -theta * x ** (-theta - 1);
  return (
    sum + integral(N) - integral(exact) + (exact ** -theta + N ** -theta) / 2 + (derivative(N) - derivative(exact)) / 12
  );
}

// What YCSB's ZipfianGenerator gives rank v with probability, from its formula: ranks 0 and 1
// exactly (1/zeta, 0.5^theta/zeta), the others from the inverse of its approximation
// floor(N * (eta*u - eta + 1)^(1/(1-theta))) over u uniform in [0, 1).
function zipfianProbabilities(N, zetan, ranks) {
  const eta = (1 - (2 / N) ** (1 - THETA)) / (1 - zeta(2, THETA) / zetan);
  const first = (1 + 0.5 ** THETA) / zetan;
  const uAt = (v) => ((v / N) ** (1 - THETA) - 1 + eta) / eta;
  const p = new Float64Array(ranks);
  p[0] = 1 / zetan;
  p[1] = 0.5 ** THETA / zetan;
  for (let v = 2; v < ranks; v += 1) p[v] = Math.max(0, uAt(v + 1) - Math.max(uAt(v), first));
  return p;
}

test('FNV-1a 64 is YCSB\'s fnvhash64, modulo n, without BigInt', () => {
  const random = createRandom(99);
  for (let i = 0; i < 20_000; i += 1) {
    const value = random.below(SCRAMBLED_ITEM_COUNT);
    const n = 1 + random.below(2 ** 36);
    assert.equal(fnv64Mod(value, n), fnvReference(value, n), `fnv(${value}) mod ${n}`);
  }
  for (const value of [0, 1, 255, 256, 65_535, 2 ** 32, 2 ** 40 + 7, SCRAMBLED_ITEM_COUNT - 1]) {
    assert.equal(fnv64Mod(value, 1_000_003), fnvReference(value, 1_000_003));
  }
});

test('the seeded generator: the same seed gives the same sequence, another seed or stream another', () => {
  const take = (random, n = 1000) => Array.from({ length: n }, () => random.uint32());
  assert.deepEqual(take(createRandom(42)), take(createRandom(42)));
  assert.notDeepEqual(take(createRandom(42)), take(createRandom(43)));
  assert.notDeepEqual(take(createRandom(42, 1)), take(createRandom(42, 2)));
  const random = createRandom(7);
  for (let i = 0; i < 10_000; i += 1) {
    const u = random.random();
    assert.ok(u >= 0 && u < 1);
  }
  assert.equal(hash3(1, 2, 3), hash3(1, 2, 3));
  assert.notEqual(hash3(1, 2, 3), hash3(1, 2, 4));
});

test('YCSB\'s zeta(10^10, 0.99) constant is what the zeta formula gives', () => {
  assert.ok(
    Math.abs(zetaLarge(SCRAMBLED_ITEM_COUNT) - SCRAMBLED_ZETAN) < 1e-6,
    `${zetaLarge(SCRAMBLED_ITEM_COUNT)} vs ${SCRAMBLED_ZETAN}`,
  );
  assert.ok(
    Math.abs(zetaLarge(1e6, THETA, 1000) - zeta(1e6, THETA)) < 1e-6,
    'the approximation itself is right where both can be computed',
  );
});

test('zipfian (unscrambled): the hottest 1% of ranks take the share the formula predicts', () => {
  const items = 10_000;
  const zipfian = createZipfian({ items, random: createRandom(3) });
  const draws = 200_000;
  let hot = 0;
  for (let i = 0; i < draws; i += 1) if (zipfian.next() < items / 100) hot += 1;
  const predicted = zipfianProbabilities(items, zeta(items, THETA), items / 100).reduce((sum, p) => sum + p, 0);
  // The exact Zipfian (1/(r+1)^theta / zeta) would say 0.518: YCSB's approximation gives
  // ranks 2..5 up to 19% more, and the prediction follows the generator's own formula.
  assert.ok(
    Math.abs(hot / draws - predicted) < 0.005,
    `hottest 1%: ${(hot / draws).toFixed(4)} observed, ${predicted.toFixed(4)} predicted`,
  );
  assert.ok(predicted > 0.5 && predicted < 0.6);
});

test('zipfian (scrambled, as YCSB\'s request distribution): the hottest 1% of keys take the predicted share, ' +
  'spread over the key space', () => {
  const records = 10_000;
  // Predicted: each of the first 300,000 ranks of the 10^10-item draw lands on key fnv(rank) mod
  // records; the rest of the probability (the long tail) spreads evenly.
  const zetan = zetaLarge(SCRAMBLED_ITEM_COUNT);
  const ranks = 300_000;
  const p = zipfianProbabilities(SCRAMBLED_ITEM_COUNT, zetan, ranks);
  const perKey = new Float64Array(records);
  let placed = 0;
  for (let rank = 0; rank < ranks; rank += 1) {
    perKey[fnv64Mod(rank, records)] += p[rank];
    placed += p[rank];
  }
  for (let key = 0; key < records; key += 1) perKey[key] += (1 - placed) / records;
  const hottest = [...perKey.keys()].sort((a, b) => perKey[b] - perKey[a]).slice(0, records / 100);
  const predicted = hottest.reduce((sum, key) => sum + perKey[key], 0);

  const chooser = createKeyChooser({ name: 'zipfian' }, { records, random: createRandom(5) });
  const hotSet = new Set(hottest);
  const draws = 200_000;
  let hot = 0;
  let below = 0;
  for (let i = 0; i < draws; i += 1) {
    const key = chooser.next();
    assert.ok(key >= 0 && key < records);
    if (hotSet.has(key)) hot += 1;
    if (key < records / 100) below += 1;
  }
  assert.ok(
    Math.abs(hot / draws - predicted) < 0.005,
    `hottest 1%: ${(hot / draws).toFixed(4)} observed, ${predicted.toFixed(4)} predicted`,
  );
  assert.ok(
    predicted > 0.18 && predicted < 0.25,
    'folded from 10^10 items, the skew over 10,000 records is milder than a Zipfian over 10,000 (0.53)',
  );
  assert.ok(
    below / draws < 0.03,
    `the hot keys are spread: the first 1% of record numbers took ${(below / draws).toFixed(4)}`,
  );
});

test('uniform: every record about equally often (chi-square within its 99.9% bound)', () => {
  const buckets = 100;
  const draws = 100_000;
  const counts = new Array(buckets).fill(0);
  const chooser = createKeyChooser({ name: 'uniform' }, { records: buckets, random: createRandom(11) });
  for (let i = 0; i < draws; i += 1) counts[chooser.next()] += 1;
  const expected = draws / buckets;
  const chiSquare = counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
  assert.ok(chiSquare < 148.2, `chi-square ${chiSquare.toFixed(1)} over 99 degrees of freedom`); // 99.9% quantile
});

test('hotspot: the hot set (the first H% of records) takes O% of the requests, uniform within', () => {
  const records = 1000;
  const draws = 100_000;
  for (const [hotFraction, hotShare] of [[0.2, 0.8], [0.1, 0.9]]) {
    const chooser = createKeyChooser({ name: 'hotspot', hotFraction, hotShare }, { records, random: createRandom(13) });
    let hot = 0;
    for (let i = 0; i < draws; i += 1) if (chooser.next() < records * hotFraction) hot += 1;
    assert.ok(Math.abs(hot / draws - hotShare) < 0.01, `hotspot ${hotFraction}/${hotShare}: ${hot / draws}`);
  }
});

test('latest: the newest records are the hottest, and the key count can grow', () => {
  let count = 10_000;
  const chooser = createKeyChooser(
    { name: 'latest' },
    { records: count, random: createRandom(17), keyCount: () => count },
  );
  const draws = 100_000;
  let newest = 0;
  for (let i = 0; i < draws; i += 1) {
    const key = chooser.next();
    assert.ok(key >= 0 && key < count);
    if (key >= count - 100) newest += 1;
  }
  const predicted = zipfianProbabilities(count, zeta(count, THETA), 100).reduce((sum, p) => sum + p, 0);
  assert.ok(
    Math.abs(newest / draws - predicted) < 0.005,
    `newest 1%: ${newest / draws} observed, ${predicted} predicted`,
  );
  count = 10_100; // 100 inserts acknowledged
  let seenNew = false;
  for (let i = 0; i < 1000; i += 1) if (chooser.next() >= 10_000) seenNew = true;
  assert.ok(seenNew, 'the inserted records are read');
});

test('sequential: 0, 1, ..., n-1, then around again', () => {
  const chooser = createKeyChooser({ name: 'sequential' }, { records: 3, random: createRandom(1) });
  assert.deepEqual(Array.from({ length: 7 }, () => chooser.next()), [0, 1, 2, 0, 1, 2, 0]);
});

test('keys are user and ten digits; values are slices of one pool, made again from (record, version)', () => {
  assert.equal(keyOf(42), 'user0000000042');
  const values = createValues({ seed: 1, min: 100, max: 100 });
  const value = values.valueOf(7, 3);
  assert.equal(value.length, 100);
  assert.equal(value.buffer, values.pool.buffer, 'a slice of the pool, not a copy');
  assert.ok(
    value.equals(createValues({ seed: 1, min: 100, max: 100 }).valueOf(7, 3)),
    'the same seed makes the same value',
  );
  assert.ok(!value.equals(values.valueOf(7, 4)), 'another version, other bytes');
  assert.ok(!value.equals(createValues({ seed: 2, min: 100, max: 100 }).valueOf(7, 3)), 'another seed, other bytes');
  const ranged = createValues({ seed: 1, min: 100, max: 1000 });
  const sizes = Array.from({ length: 2000 }, (_, version) => ranged.valueOf(1, version).length);
  assert.ok(sizes.every((size) => size >= 100 && size <= 1000));
  assert.ok(Math.min(...sizes) < 150 && Math.max(...sizes) > 950, 'a range draws its sizes across the range');
  assert.equal(ranged.sizeOf(1, 5), ranged.valueOf(1, 5).length);
  const large = createValues({ seed: 1, min: 16 * 1024 * 1024, max: 16 * 1024 * 1024 });
  assert.equal(large.valueOf(0, 1).length, 16 * 1024 * 1024);
});
