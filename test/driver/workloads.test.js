// Key-space workloads end to end against a real HTTP server speaking the app's write contract
// (test/helpers/contract-server.js): per-request methods, paths and bodies, per-operation
// figures that add up to the step's, the load phase, the verification (including a server
// that loses writes), and refused writes shown as errors, never a crash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as hdr from 'hdr-histogram-js';
import { measureStep } from '../../driver/step.js';
import { HTTP_ENGINES } from '../../driver/engines/index.js';
import { createWorkload } from '../../driver/workloads/workload.js';
import { parseWorkload } from '../../options/workload.js';
import { keyOf } from '../../driver/workloads/values.js';
import { decodeHistogram } from '../../result/recorder.js';
import { parseArguments } from '../../cli/options.js';
import { resultError, runBenchmark } from '../../driver/run.js';
import { fromJson, toJson } from '../../result/format.js';
import { renderRun } from '../../report/run-text.js';
import { buildCsv } from '../../report/csv.js';
import { VerifyError } from '../../util/errors.js';
import { startContractServer } from '../helpers/contract-server.js';

const workloadFor = (name, {
  records = 1000, seed = 1, distribution, valueSize = { min: 100, max: 100 }, basePath = '/memory', token = null,
} = {}) => {
  const { value } = parseWorkload(name);
  const chosen = distribution ?? (value.distribution ? { name: value.distribution } : null);
  return createWorkload({ ...value, distribution: chosen, records, valueSize, seed }, { basePath, token });
};

const run = (args, hooks) => {
  const { options, problems } = parseArguments(args, {});
  assert.deepEqual(problems, []);
  return runBenchmark(options, hooks);
};

// Every engine that sends HTTP sends each workload request as it says, and its figures add up.
for (const [name, engine] of Object.entries(HTTP_ENGINES)) {
  const named = (title) => `${name} engine: ${title}`;

  test(named('each request is what the workload says: PUT bodies land byte-exact at the keys it names'), async (t) => {
    const server = await startContractServer(t);
    const workload = workloadFor('write', {
      records: 300, distribution: { name: 'sequential' }, valueSize: { min: 10, max: 2000 },
    });
    const step = await measureStep(engine, { url: `${server.url}/memory`, concurrency: 3, maxRequests: 300, workload });
    assert.equal(step.responses, 300);
    assert.deepEqual(step.errors, { total: 0, byKind: {}, samples: {} });
    assert.equal(server.counts.put, 300);
    const stored = server.data.get('memory');
    for (let index = 0; index < 300; index += 1) {
      // Sequential over 300 records: each written once, by the first 300 (tracked) writes: version 1.
      assert.ok(stored.get(keyOf(index)).equals(workload.values.valueOf(index, 1)),
        `${keyOf(index)} holds the bytes sent`);
    }
    const sizes = [...stored.values()].map((value) => value.length);
    assert.ok(Math.min(...sizes) >= 10 && Math.max(...sizes) <= 2000 && new Set(sizes).size > 100,
      'a size range draws per request');
  });

  test(named('per-operation figures add up exactly to the step: counts, errors, rps and histograms'), async (t) => {
    const server = await startContractServer(t);
    // No load: about a third of the reads find nothing (404), so errors are split by operation too.
    const workload = workloadFor('ycsb-a', { records: 300 });
    const step = await measureStep(engine, {
      url: `${server.url}/memory`, concurrency: 4, maxRequests: 3000, workload,
    });
    assert.deepEqual(step.operations.map((figures) => figures.operation), ['read', 'update']);
    const sum = (pick) => step.operations.reduce((total, figures) => total + pick(figures), 0);
    assert.equal(sum((figures) => figures.requests), step.requests);
    assert.equal(step.requests, 3000);
    assert.equal(sum((figures) => figures.responses), step.responses);
    assert.equal(sum((figures) => figures.errors.total), step.errors.total);
    assert.ok(step.operations[0].errors.byKind['http 404'] > 0, 'reads of keys never written answer 404');
    assert.deepEqual(step.operations[1].errors, { total: 0, byKind: {}, samples: {} });
    assert.equal(step.errors.byKind['http 404'], step.operations[0].errors.byKind['http 404']);
    assert.ok(Math.abs(sum((figures) => figures.rps) - step.rps) < 1e-6 * step.rps);
    const merged = hdr.build({
      lowestDiscernibleValue: 1,
      highestTrackableValue: 3_600_000_000,
      numberOfSignificantValueDigits: 3,
      useWebAssembly: false,
    });
    for (const figures of step.operations) merged.add(decodeHistogram(figures.histogram));
    const total = decodeHistogram(step.histogram);
    assert.equal(merged.totalCount, total.totalCount);
    assert.equal(merged.getValueAtPercentile(99), total.getValueAtPercentile(99));
    assert.equal(step.latency.count, sum((figures) => figures.latency.count));
    assert.equal(step.latency.maxMs, Math.max(...step.operations.map((figures) => figures.latency.maxMs)));
    const weighted = sum((figures) => figures.latency.meanMs * figures.latency.count) / step.latency.count;
    assert.ok(Math.abs(weighted - step.latency.meanMs) < 1e-5,
      'the mean is the operations\' means weighted by their counts');
  });

  test(named('read-modify-write is one operation of two requests, timed together; ' +
    'a failed read sends no write'), async (t) => {
    const server = await startContractServer(t, { holdMs: 5 });
    const workload = workloadFor('ycsb-f', { records: 50 });
    // Half the keys exist.
    for (let index = 0; index < 25; index += 1) server.data.get('memory').set(keyOf(index), Buffer.from('x'));
    const step = await measureStep(engine, { url: `${server.url}/memory`, concurrency: 2, maxRequests: 400, workload });
    const [reads, rmw] = step.operations;
    assert.equal(rmw.operation, 'read-modify-write');
    assert.equal(reads.requests + rmw.requests, 400);
    const rmwFailed = rmw.errors.byKind['http 404'] ?? 0;
    assert.ok(rmwFailed > 0 && rmwFailed < rmw.requests, 'reads of the missing half end the operation with their 404');
    assert.equal(server.counts.put, rmw.requests - rmwFailed, 'a PUT went out only after a read that found the key');
    // Every key there: each read-modify-write is two requests held 5 ms each, timed as one.
    for (let index = 25; index < 50; index += 1) server.data.get('memory').set(keyOf(index), Buffer.from('x'));
    const whole = await measureStep(engine, {
      url: `${server.url}/memory`, concurrency: 2, maxRequests: 200, workload,
    });
    const [wholeReads, wholeRmw] = whole.operations;
    assert.deepEqual(whole.errors, { total: 0, byKind: {}, samples: {} });
    // Node's timers may fire up to ~1 ms early by hrtime: two holds of 5 ms are at least ~8 ms.
    assert.ok(wholeRmw.latency.minMs >= 8,
      `two requests held 5 ms each, measured ${wholeRmw.latency.minMs} ms at least`);
    assert.ok(wholeRmw.latency.meanMs > 1.6 * wholeReads.latency.meanMs,
      `read-modify-write ${wholeRmw.latency.meanMs} ms, read ${wholeReads.latency.meanMs} ms`);
  });

  // Regression: the loadtest engine sent a write's token only with a body, so a DELETE was refused 401.
  test(named('DELETE and append go out as the workload request says: ' +
    'method, path, body and Authorization'), async (t) => {
    const server = await startContractServer(t, { token: 'right' });
    const memory = server.data.get('memory');
    for (let index = 0; index < 10; index += 1) memory.set(keyOf(index), Buffer.from('x'));
    let sent = 0;
    // A workload of two operations the built-in ones do not mix: delete every even key, append to every odd one.
    const workload = {
      operations: ['delete', 'append'],
      next() {
        const index = sent % 10;
        sent += 1;
        const settle = () => {};
        const authorization = 'Bearer right';
        const path = `/memory/${keyOf(index)}`;
        if (index % 2 === 0) return { operation: 'delete', method: 'DELETE', path, body: null, authorization, settle };
        return {
          operation: 'append', method: 'POST', path: `${path}/append`, body: Buffer.from('yz'), authorization, settle,
        };
      },
    };
    const step = await measureStep(engine, { url: `${server.url}/memory`, concurrency: 1, maxRequests: 10, workload });
    assert.deepEqual(step.errors, { total: 0, byKind: {}, samples: {} });
    assert.deepEqual([server.counts.delete, server.counts.append], [5, 5]);
    assert.deepEqual(step.operations.map((figures) => [figures.operation, figures.responses]),
      [['delete', 5], ['append', 5]]);
    for (let index = 0; index < 10; index += 1) {
      assert.deepEqual(memory.get(keyOf(index)), index % 2 === 0 ? undefined : Buffer.from('xyz'), keyOf(index));
    }
  });
}

test('a run over a key space: load phase table, steps per operation, verified written values, ' +
  'and a Result that renders the same again', async (t) => {
  const server = await startContractServer(t, { stores: ['memory'] });
  const result = await run([
    '--target', server.url, '-w', 'ycsb-a', '--records', '3000', '-c', '2,4', '-n', '1500', '--warmup', '100',
    '--seed', '9',
  ]);
  assert.equal(result.format, 'storebench-results/6');
  assert.equal(resultError(result), null);
  assert.deepEqual(result.settings.mix, { read: 0.5, update: 0.5 });
  const { settings } = result;
  assert.deepEqual(
    [settings.workload, settings.records, settings.distribution, settings.seed, settings.load, settings.verify],
    ['ycsb-a', 3000, 'zipfian', 9, true, true]);
  assert.deepEqual(result.targets, [{ url: `${server.url}/memory`, store: 'memory', key: 'ycsb-a', named: false }]);
  const [load] = result.loads;
  assert.deepEqual([load.records, load.loaded, load.errors.total], [3000, 3000, 0]);
  assert.equal(server.counts.bulkRecords, 3000);
  assert.equal(load.bytes, 3000 * (2 + 14 + 4 + 100));
  assert.equal(decodeHistogram(load.histogram).totalCount, load.batches);
  assert.equal(result.steps.length, 2);
  for (const step of result.steps) {
    assert.equal(step.workload, 'ycsb-a');
    assert.equal(step.requests, 1500);
    assert.deepEqual(step.errors, { total: 0, byKind: {}, samples: {} }, 'every key read was loaded first');
    assert.deepEqual(step.operations.map((figures) => figures.operation), ['read', 'update']);
  }
  const [verification] = result.verifications;
  assert.ok(verification.sampled >= 990 && verification.sampled <= 1000, `sampled ${verification.sampled}`);
  assert.equal(verification.verified, verification.sampled);
  assert.equal(verification.mismatched, 0);
  assert.deepEqual(result.comparison.map((group) => group.operation),
    [null, null, 'read', 'read', 'update', 'update'], 'totals, then each operation');

  assert.deepEqual(fromJson(toJson(result)), result);
  const text = renderRun(fromJson(toJson(result)));
  assert.equal(text, renderRun(result));
  assert.match(text, /^Workload: ycsb-a \(read 50%, update 50%\) over 3,000 records, zipfian; values 100 B; seed 9; loaded first; written values verified after$/m);
  assert.match(text, /## load: http:\/\/127\.0\.0\.1:\d+\/memory \(POST: 1 batch of records; rps = records loaded per second\)\n-+\nrecords {2}loaded {2}MB /);
  assert.match(text, /\n {3}3000 {4}3000 {2}0\.34 {8}1 /);
  assert.match(text, /## http:\/\/127\.0\.0\.1:\d+\/memory · ycsb-a\n-+\nmaxRequests {2}concurrency {2}operation {2}rps /);
  assert.match(text, /\n {7}1500 {12}2 {2}all {8}\s*\d+ /);
  assert.match(text, /\n {26}read {7}\s*\d+ /);
  assert.match(text, /\n {26}update {5}\s*\d+ /);
  assert.match(text, /\nverified \d+\/\d+ written values\n/);
  const csv = buildCsv(result.steps).trim().split('\n');
  assert.equal(csv.length, 1 + 2 * 3, 'a row per step, then a row per operation');
  assert.deepEqual(csv.slice(1).map((line) => line.split(',')[5]), ['all', 'read', 'update', 'all', 'read', 'update']);
});

test('verification catches a store that loses writes: every 100th PUT acknowledged but dropped', async (t) => {
  const server = await startContractServer(t, { stores: ['memory'], dropEvery: 100 });
  // Sequential updates over 2000 loaded records, one request at a time: each key written once.
  const result = await run([
    '--target', server.url, '-w', 'update', '--records', '2000', '--distribution', 'sequential',
    '-c', '1', '-n', '2000', '--warmup', '0',
  ]);
  assert.equal(server.counts.dropped, 20);
  const [verification] = result.verifications;
  assert.equal(verification.sampled, 1000);
  assert.equal(verification.mismatched, 10, 'the first 1,000 keys written are followed: 10 of the 20 drops');
  assert.equal(verification.verified, 990);
  assert.deepEqual(verification.examples[0],
    { key: keyOf(99), expected: 'version 1, 100 B', got: 'its loaded value: the write was lost' });
  assert.equal(verification.warnings[0].code, 'VERIFY_MISMATCH');
  const error = resultError(result);
  assert.ok(error instanceof VerifyError);
  assert.equal(error.message,
    'memory: 10 of 1000 written values read back different from what it acknowledged (listed under its table)');
  const text = renderRun(result);
  assert.match(text, /\nverified 990\/1000 written values\n {2}user0000000099: expected version 1, 100 B; got its loaded value: the write was lost\n/);
  assert.match(text, /\nwarning \(verification\): 10 of 1000 written values read back different: the store lost or changed values it acknowledged\n/);
});

test('a store that promises less (memcached may evict) gets a warning for lost values, not a failure', async (t) => {
  const server = await startContractServer(t, { stores: ['memcached'], dropEvery: 50 });
  const result = await run([
    '--target', server.url, '-w', 'write', '--records', '500', '--distribution', 'sequential',
    '-c', '1', '-n', '500', '--warmup', '0',
  ]);
  const [verification] = result.verifications;
  assert.equal(verification.mismatched, 10);
  assert.match(verification.promise, /^memcached is a cache: it may evict/);
  assert.equal(verification.warnings[0].code, 'WEAKER_PROMISE');
  assert.equal(verification.examples[0].got, 'missing (404)', 'write does not load first: a lost write leaves nothing');
  assert.equal(resultError(result), null);
});

test('concurrent writes to the same keys are never reported as lost: overlapping keys are left out, ' +
  'the rest verified', async (t) => {
  const server = await startContractServer(t, { stores: ['memory'], holdMs: 1 });
  // 20 records, 16 clients, all writing: keys are written by several clients at once.
  const result = await run([
    '--target', server.url, '-w', 'update', '--records', '20', '-c', '16', '-n', '4000', '--warmup', '0',
  ]);
  const [verification] = result.verifications;
  assert.equal(verification.mismatched, 0);
  assert.equal(verification.sampled + verification.leftOut.overlap, 20);
  assert.ok(verification.leftOut.overlap > 0, 'some keys ended with writes in flight at once');
  assert.equal(resultError(result), null);
});

test('refused writes (401, 403, 405, 413) are errors by kind in the table, never a crash', async (t) => {
  const server = await startContractServer(t, { stores: ['memory', 'noappend'], token: 'right', maxValueBytes: 1000 });
  const refusedWith = async (args) => {
    const result = await run(['--target', server.url, ...args, '-c', '2', '-n', '50', '--warmup', '0', '--no-verify']);
    return Object.fromEntries(result.steps.map((step) => [step.store, step.errors.byKind]));
  };
  assert.deepEqual(await refusedWith(['-w', 'write', '--records', '10']),
    { memory: { 'http 401': 50 }, noappend: { 'http 401': 50 } });
  assert.deepEqual(await refusedWith(['-w', 'write', '--records', '10', '--token', 'wrong']),
    { memory: { 'http 403': 50 }, noappend: { 'http 403': 50 } });
  assert.deepEqual(await refusedWith(['-w', 'write', '--records', '10', '--token', 'right', '--value-size', '2000']),
    { memory: { 'http 413': 50 }, noappend: { 'http 413': 50 } });
  const appends = await run([
    '--target', server.url, '--stores', 'memory,noappend', '-w', 'append', '--records', '10', '--token', 'right',
    '-c', '2', '-n', '50', '--warmup', '0',
  ]);
  const byStore = (a, b) => a.store.localeCompare(b.store);
  assert.deepEqual([...appends.steps].sort(byStore).map((step) => [step.store, step.errors.byKind]),
    [['memory', {}], ['noappend', { 'http 405': 50 }]]);
  assert.equal(resultError(appends)?.code, 'RUN_FAILED', 'noappend, named in --stores, had no success: the run fails');
  const mismatches = [...appends.verifications].sort(byStore).map((verification) => {
    return [verification.store, verification.mismatched];
  });
  assert.deepEqual(mismatches, [['memory', 0], ['noappend', 0]],
    'refused appends changed nothing: the loaded values are still there');
  // The load is refused as a whole (no token): one batch tried, the rest not sent, said once.
  // (A server of its own: the runs above loaded records into this one.)
  const fresh = await startContractServer(t, { stores: ['memory'], token: 'right' });
  const unloaded = await run([
    '--target', fresh.url, '--stores', 'memory', '-w', 'ycsb-c', '--records', '20000', '-c', '1', '-n', '20',
    '--warmup', '0',
  ]);
  const [load] = unloaded.loads;
  assert.deepEqual([load.loaded, load.errors.byKind['http 401'] >= 1, load.batches <= 2], [0, true, true]);
  assert.match(load.warnings[0].message, /^20000 of 20000 records were not loaded \(failed batches: http 401: \d \(WRITE_TOKEN_REQUIRED: write token required\)\); the app refused the load \(HTTP 401\), so the rest was not sent/);
  assert.deepEqual(load.errors.samples, { 'http 401': 'WRITE_TOKEN_REQUIRED: write token required' },
    'the first answer kept, as a step keeps it');
  assert.equal(unloaded.steps[0].errors.byKind['http 404'], 20, 'the reads find nothing, and say so');
  assert.deepEqual(unloaded.verifications[0].sampled, 0, 'nothing landed, so nothing is checked');
});

test('a load refused for its values\' size: the load table says why (the app\'s answer), in the text and the JSON',
  async (t) => {
    const server = await startContractServer(t, { stores: ['memory'], maxValueBytes: 1000 });
    const result = await run([
      '--target', server.url, '--stores', 'memory', '-w', 'ycsb-c', '--records', '10', '--value-size', '2000',
      '-c', '1', '-n', '20', '--warmup', '0',
    ]);
    const [load] = fromJson(toJson(result)).loads;
    assert.deepEqual([load.loaded, load.errors.byKind, load.errors.samples],
      [0, { 'http 413': 1 }, { 'http 413': 'VALUE_TOO_LARGE: value too large' }]);
    const text = renderRun(result);
    assert.match(text, /\nwarning \(load\): 10 of 10 records were not loaded \(failed batches: http 413: 1 \(VALUE_TOO_LARGE: value too large\)\); the app refused the load \(HTTP 413\)/);
    assert.equal(text.split('VALUE_TOO_LARGE').length, 2, 'said once, by the load\'s warning');
  });

test('without --stores, a store that says it has no native append is skipped for an append workload', async (t) => {
  const server = await startContractServer(t, { stores: ['memory', 'noappend'] });
  const result = await run([
    '--target', server.url, '-w', 'append', '--records', '10', '-c', '1', '-n', '10', '--warmup', '0',
  ]);
  assert.deepEqual(result.targets.map((target) => target.store), ['memory']);
  assert.deepEqual(result.skipped, [{
    store: 'noappend',
    status: 'no append',
    reason: 'it has no native append (POST .../append answers 405); name it with --stores to measure the refusals',
  }]);
  assert.equal(resultError(result), null);
});

for (const engine of Object.keys(HTTP_ENGINES)) {
  test(`the open model (--rps) runs a workload too, with per-operation figures (--engine ${engine})`, async (t) => {
    const server = await startContractServer(t, { stores: ['memory'] });
    const result = await run([
      '--target', server.url, '-w', 'mixed:80/20', '--records', '100', '--rps', '200', '-t', '1', '--warmup', '0',
      '--engine', engine,
    ]);
    assert.equal(result.settings.engine, engine);
    const [step] = result.steps;
    assert.equal(step.model, 'open');
    assert.ok(step.requests >= 190 && step.requests <= 210, `${step.requests} requests at 200 rps for 1 s`);
    assert.equal(step.operations[0].requests + step.operations[1].requests, step.requests);
    assert.equal(result.verifications[0].mismatched, 0, 'what it wrote reads back as acknowledged');
  });
}
