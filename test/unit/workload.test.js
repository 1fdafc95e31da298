// The workload engine without HTTP: each workload's operation mix, what each operation sends,
// --seed reproducibility, the write tracker behind the verification, and the flags' problems.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createWorkload } from '../../driver/workloads/workload.js';
import { createTracker, outcomeOf } from '../../driver/workloads/tracker.js';
import { parseDistribution, parseValueSize, parseWorkload } from '../../options/workload.js';
import { WORKLOADS } from '../../config/workloads.js';
import { parseArguments } from '../../cli/options.js';
import { keyOf } from '../../driver/workloads/values.js';

const workloadOf = (name, {
  records = 1000, seed = 1, valueSize = { min: 100, max: 100 }, distribution, token = null,
} = {}) => {
  const { value, problem } = parseWorkload(name);
  assert.equal(problem, undefined);
  const chosen = distribution ?? (value.distribution ? { name: value.distribution } : null);
  return createWorkload({ ...value, distribution: chosen, records, valueSize, seed }, { basePath: '/redis', token });
};

// Runs n requests that all answer `status` and counts them by operation.
function drive(workload, n, status = 204) {
  const counts = {};
  for (let i = 0; i < n; i += 1) {
    const request = workload.next();
    counts[request.operation] = (counts[request.operation] ?? 0) + 1;
    request.settle(status, request.then ? 1 : 0);
  }
  return counts;
}

test('each workload sends its operations in its proportions: within 2 points over 10,000 requests', () => {
  const cases = {
    'mixed:90/10': { read: 0.9, update: 0.1 },
    'mixed:50/50': { read: 0.5, update: 0.5 },
    'ycsb-a': { read: 0.5, update: 0.5 },
    'ycsb-b': { read: 0.95, update: 0.05 },
    'ycsb-c': { read: 1 },
    'ycsb-d': { read: 0.95, insert: 0.05 },
    'ycsb-f': { read: 0.5, 'read-modify-write': 0.5 },
    read: { read: 1 },
    write: { write: 1 },
    update: { update: 1 },
    insert: { insert: 1 },
    append: { append: 1 },
  };
  for (const [name, shares] of Object.entries(cases)) {
    const workload = workloadOf(name, { seed: 5 });
    assert.deepEqual(workload.operations, Object.keys(shares), `${name}: its operations, in order`);
    const counts = drive(workload, 10_000);
    for (const [operation, share] of Object.entries(shares)) {
      const seen = (counts[operation] ?? 0) / 10_000;
      assert.ok(Math.abs(seen - share) <= 0.02, `${name}: ${operation} ${seen}, expected ${share}`);
    }
  }
});

test('every definition runs; ycsb-e is refused with the reason', () => {
  for (const [name, definition] of Object.entries(WORKLOADS)) {
    if (definition.unsupported) {
      assert.match(parseWorkload(name).problem, /range scans, and no store here offers an ordered scan over HTTP/);
      continue;
    }
    const mix = Object.values(definition.mix).reduce((sum, share) => sum + share, 0);
    assert.ok(Math.abs(mix - 1) < 1e-9, `${name}'s shares add up to 1`);
    assert.ok(drive(workloadOf(name), 10));
  }
});

test('what each operation sends: method, path, body and headers', () => {
  const workload = workloadOf('ycsb-f', { token: 's3cret' });
  const seen = {};
  for (let i = 0; i < 200 && Object.keys(seen).length < 2; i += 1) {
    const request = workload.next();
    seen[request.operation] ??= request;
  }
  const read = seen.read;
  assert.equal(read.method, 'GET');
  assert.match(read.path, /^\/redis\/user\d{10}$/);
  assert.equal(read.body, null);
  assert.equal(read.authorization, null, 'reads go out as they always did: no token, no body');
  const rmw = seen['read-modify-write'];
  assert.equal(rmw.method, 'GET');
  assert.equal(rmw.then.method, 'PUT');
  assert.equal(rmw.then.path, rmw.path, 'the same key is read and written');
  assert.equal(rmw.then.body.length, 100);
  assert.equal(rmw.then.authorization, 'Bearer s3cret');
  assert.equal(rmw.authorization, null, 'the read of a read-modify-write carries no token');

  const append = workloadOf('append').next();
  assert.equal(append.method, 'POST');
  assert.match(append.path, /^\/redis\/user\d{10}\/append$/);
  const inserts = workloadOf('insert', { records: 50 });
  assert.deepEqual(
    [inserts.next().path, inserts.next().path],
    ['/redis/user0000000050', '/redis/user0000000051'],
    'inserts go past the loaded records, in order',
  );
  assert.equal(workloadOf('write').next().method, 'PUT');
});

test('--seed: the same seed sends the same sequence (operations, keys, values); another seed another', () => {
  const sequence = (seed, name = 'ycsb-a', distribution) => {
    const workload = workloadOf(name, { seed, records: 100_000, valueSize: { min: 10, max: 1000 }, distribution });
    return Array.from({ length: 5000 }, () => {
      const request = workload.next();
      request.settle(204, 0);
      return `${request.operation} ${request.path} ${request.body?.toString('base64') ?? ''}`;
    });
  };
  assert.deepEqual(sequence(42), sequence(42));
  assert.notDeepEqual(sequence(42), sequence(43));
  for (const name of ['uniform', 'hotspot', 'latest', 'sequential']) {
    assert.deepEqual(sequence(7, 'mixed:50/50', { name }), sequence(7, 'mixed:50/50', { name }), name);
  }
  assert.notDeepEqual(sequence(7, 'mixed:50/50', { name: 'uniform' }), sequence(8, 'mixed:50/50', { name: 'uniform' }));
});

test('latest reads only records whose insert has ended', () => {
  const workload = workloadOf('ycsb-d', { records: 10 });
  const pending = [];
  for (let i = 0; i < 2000; i += 1) {
    const request = workload.next();
    if (request.operation === 'insert') pending.push(request);
    else {
      const index = Number(request.path.slice('/redis/user'.length));
      assert.ok(index < workload.keyCount(), `read of ${index} while only ${workload.keyCount()} records are in`);
    }
    if (pending.length > 3) pending.shift().settle(204, 0); // inserts end out of order
  }
  assert.ok(workload.keyCount() > 10);
});

test('tracker: a write that lands alone is known; overlapping writes are not, until one lands alone', () => {
  const tracker = createTracker({ capacity: 10, baseOf: () => 'loaded' });
  const a = tracker.begin(1, 'put');
  tracker.end(a, 'landed');
  assert.deepEqual(pick(tracker, 1), { known: true, base: 'absent', from: 1, to: 1 });
  const b = tracker.begin(1, 'put');
  const c = tracker.begin(1, 'put');
  tracker.end(c, 'landed');
  tracker.end(b, 'landed');
  assert.deepEqual(
    pick(tracker, 1),
    { known: false, why: 'overlap' },
    'two writes in flight at once may land in any order',
  );
  const d = tracker.begin(1, 'put');
  tracker.end(d, 'landed');
  assert.deepEqual(
    pick(tracker, 1),
    { known: true, base: 'absent', from: 4, to: 4 },
    'a later write alone makes it known again',
  );
  const e = tracker.begin(1, 'put');
  const f = tracker.begin(1, 'put');
  tracker.end(e, 'refused');
  tracker.end(f, 'landed');
  assert.deepEqual(
    pick(tracker, 1),
    { known: true, base: 'absent', from: 6, to: 6 },
    'a refused write changes nothing, so the other one is known',
  );
  const g = tracker.begin(1, 'put');
  tracker.end(g, 'unknown');
  assert.deepEqual(pick(tracker, 1), { known: false, why: 'failed' }, 'a timeout may or may not have landed');
});

test('tracker: appends are consecutive versions; a refusal frees its version; a doubt is for good', () => {
  const tracker = createTracker({ capacity: 10, baseOf: (index) => (index === 9 ? 'unknown' : 'loaded') });
  for (let i = 0; i < 3; i += 1) tracker.end(tracker.begin(2, 'append'), 'landed');
  assert.deepEqual(pick(tracker, 2), { known: true, base: 'loaded', from: 1, to: 3 });
  tracker.end(tracker.begin(2, 'append'), 'refused');
  tracker.end(tracker.begin(2, 'append'), 'landed');
  assert.deepEqual(
    pick(tracker, 2),
    { known: true, base: 'loaded', from: 1, to: 4 },
    'the refused append\'s version went to the next one',
  );
  tracker.end(tracker.begin(2, 'append'), 'unknown');
  tracker.end(tracker.begin(2, 'append'), 'landed');
  assert.deepEqual(pick(tracker, 2), { known: false, why: 'failed' });
  tracker.end(tracker.begin(9, 'append'), 'landed');
  assert.deepEqual(
    pick(tracker, 9),
    { known: false, why: 'unknown-base' },
    'an append to a value not loaded by this run',
  );
});

test('tracker: follows the first `capacity` keys written, and only those; writes to others get unique versions', () => {
  const tracker = createTracker({ capacity: 2, baseOf: () => 'absent' });
  const versions = [1, 2, 3, 4].map((index) => {
    const token = tracker.begin(index, 'put');
    return { index: token.entry?.index ?? null, version: token.version }; // read at once, as the workload does
  });
  assert.equal(tracker.size, 2);
  assert.deepEqual(versions.map((token) => token.index), [1, 2, null, null]);
  assert.ok(versions[2].version !== versions[3].version && versions[2].version > 2 ** 30);
  assert.deepEqual(
    [200, 204, 404, 413, 503, null].map(outcomeOf),
    ['landed', 'landed', 'refused', 'refused', 'unknown', 'unknown'],
  );
});

test('the tracker follows a 10,000,000-record run in a few bytes per sampled key, not per record', () => {
  const workload = workloadOf('update', { records: 10_000_000 });
  workload.recordLoad(0, 10_000_000, true);
  const before = process.memoryUsage().heapUsed;
  drive(workload, 200_000);
  assert.equal(workload.tracker.size, 1000, 'at most the sample size of keys is followed');
  const grew = process.memoryUsage().heapUsed - before;
  assert.ok(grew < 50 * 1024 * 1024, `the heap grew ${(grew / 1e6).toFixed(1)} MB over 200,000 writes`);
});

test('bad workload flags: one clear line each', () => {
  assert.match(parseWorkload('nosuch').problem, /^--workload: no workload "nosuch" \(known: read, write, update, insert, append, ycsb-a, ycsb-b, ycsb-c, ycsb-d, ycsb-f, mixed:R\/W; --workload list describes them\)$/);
  assert.equal(
    parseWorkload('mixed:120/5').problem,
    '--workload mixed:120/5: R and W are whole percentages of reads and updates adding up to 100, as in mixed:95/5',
  );
  assert.ok(parseWorkload('mixed:95/6').problem);
  assert.ok(parseWorkload('mixed:95').problem);
  assert.deepEqual(parseWorkload('mixed:100/0').value.mix, [{ operation: 'read', share: 1 }]);
  assert.equal(
    parseValueSize('-1').problem,
    '--value-size must be a size in bytes such as 100, 10KB or 1MB, or a range such as 100-1000, not "-1"',
  );
  assert.equal(parseValueSize('0').problem, '--value-size must be at least 1 byte, not "0"');
  assert.equal(
    parseValueSize('17MB').problem,
    '--value-size 17MB is more than the app accepts in one value: at most 16 MB (16,777,216 bytes)',
  );
  assert.equal(parseValueSize('1000-100').problem, '--value-size 1000-100: the smaller size comes first (MIN-MAX)');
  assert.deepEqual(parseValueSize('16MB').value, { min: 16 * 1024 * 1024, max: 16 * 1024 * 1024 });
  assert.deepEqual(parseValueSize('10KB').value, { min: 10240, max: 10240 });
  assert.deepEqual(parseValueSize('100-1k').value, { min: 100, max: 1024 });
  assert.equal(
    parseDistribution('pareto').problem,
    '--distribution: no distribution "pareto" (known: uniform, zipfian, latest, hotspot, sequential)',
  );
  assert.deepEqual(parseDistribution('hotspot:10/90').value, { name: 'hotspot', hotFraction: 0.1, hotShare: 0.9 });
  assert.ok(parseDistribution('hotspot:0/90').problem);

  const problemsOf = (...args) => parseArguments(args, {}).problems;
  assert.deepEqual(problemsOf('--records', '0'), ['--records must be a positive whole number of records, not "0"']);
  assert.deepEqual(
    problemsOf('-w', 'write', '--value-size', '20MB'),
    ['--value-size 20MB is more than the app accepts in one value: at most 16 MB (16,777,216 bytes)'],
  );
  assert.deepEqual(
    problemsOf('--value-size', '100'),
    ['--value-size applies to a key space: add --records N (or a --workload other than read)'],
  );
  assert.deepEqual(
    problemsOf('-w', 'ycsb-a', '--keys', 'key1'),
    ['--keys picks among the seeded keys; a workload over --records picks its own keys'],
  );
  assert.deepEqual(problemsOf('-w', 'insert', '--distribution', 'zipfian'), [
    '--distribution does not apply to insert: it writes new keys past the loaded ones ' +
    '(user<records>, then the next, ...)',
  ]);
});

test('workload options: defaults, the key space, the token from the environment', () => {
  const seeded = parseArguments([], {}).options;
  assert.equal(seeded.keySpace, false, 'no flags: the seeded reads, as always');
  const { options } = parseArguments(['-w', 'ycsb-b', '--value-size', '1KB'], { STOREBENCH_WRITE_TOKEN: 'from-env' });
  assert.equal(options.keySpace, true);
  assert.equal(options.records, 1000, 'YCSB\'s default record count');
  assert.deepEqual(options.distribution, { name: 'zipfian' });
  assert.deepEqual(options.valueSize, { min: 1024, max: 1024 });
  assert.ok(
    Number.isInteger(options.seed) && options.seed >= 0,
    'a seed is picked when none is given, so the run can be repeated',
  );
  assert.equal(options.load, true);
  assert.equal(options.verify, true);
  assert.equal(options.token, 'from-env');
  assert.equal(
    parseArguments(['--token', 'flag', '-w', 'write'], { STOREBENCH_WRITE_TOKEN: 'env' }).options.token,
    'flag',
  );
  assert.equal(parseArguments(['-w', 'write'], {}).options.load, false, 'write does not load first');
  assert.equal(parseArguments(['--records', '10', '--no-load', '--no-verify'], {}).options.load, false);
  assert.equal(parseArguments(['--records', '10'], {}).options.keySpace, true, 'read over --records is a key space');
  assert.equal(parseArguments(['--workload', 'list'], {}).command, 'list');
  assert.equal(keyOf(parseArguments(['--records', '10'], {}).options.records - 1), 'user0000000009');
});

function pick(tracker, index) {
  const entry = tracker.entries().find((candidate) => candidate.index === index);
  return entry.known
    ? { known: true, base: entry.base, from: entry.from, to: entry.to }
    : { known: false, why: entry.why };
}
