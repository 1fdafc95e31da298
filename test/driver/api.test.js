// The public API (index.js): one options path with the CLI, and values returned, never printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { check, compare, failure, merge, normalizeOptions, report, run, runEvents, UsageError } from '../../index.js';
import { parseArguments } from '../../cli/options.js';
import { fromJson } from '../../result/format.js';
import { renderRun } from '../../report/run-text.js';

const fixture = (name) => fileURLToPath(new URL(`../fixtures/runs/${name}`, import.meta.url));

test('an options object and the argv that says the same give the same options and the same problems', () => {
  const argv = [
    '--direct', '--stores', 'memory,redis', '-c', '5,10', '-n', '200', '--warmup', '0', '--seed', '7',
    '--workload', 'ycsb-b', '--records', '50',
  ];
  const object = {
    direct: true,
    stores: ['memory', 'redis'],
    concurrency: [5, 10],
    requests: 200,
    warmup: 0,
    seed: 7,
    workload: 'ycsb-b',
    records: 50,
  };
  const fromArgv = parseArguments(argv, {});
  const fromObject = normalizeOptions(object, {});
  assert.deepEqual(fromArgv.problems, []);
  assert.deepEqual(fromObject, fromArgv);

  const badArgv = ['-c', '0,x', '-t', '7200', '--rps', '5', '--order', 'random', '--threads', 'many'];
  const badObject = { concurrency: [0, 'x'], duration: 7200, rps: 5, order: 'random', threads: 'many' };
  assert.deepEqual(normalizeOptions(badObject, {}).problems, parseArguments(badArgv, {}).problems);
  assert.equal(normalizeOptions(badObject, {}).problems.length, 6);
});

test('options the command line cannot express are named: unknown names (with a near miss), wrong types', () => {
  const { problems } = normalizeOptions({ concurency: [5], direct: 'yes', duration: [1, 2], url: [5] }, {});
  assert.deepEqual(problems.slice(0, 3), [
    'unknown option concurency (did you mean concurrency?)',
    '--direct is true or false, not "yes"',
    '-t/--duration takes a string or a number, not an array',
  ]);
  // A URL is text: a number given for one is read as its text.
  assert.equal(problems[3], '--url "5" is not an http:// or https:// URL');
});

// Pins the bug of runBenchmark(object): a TypeError on options.urls instead of a run.
test('run() with a plain object benchmarks the in-process memory store and resolves to a Result, ' +
  'with progress events', async () => {
  const events = [];
  const result = await run(
    { direct: true, stores: ['memory'], keys: ['key1'], concurrency: [5], requests: 200, warmup: 0 },
    { onProgress: (event) => events.push(event.type) },
  );
  assert.equal(result.format, 'storebench-results/6');
  assert.equal(result.steps.length, 1);
  assert.equal(result.steps[0].responses, 200);
  assert.equal(failure(result), null);
  assert.deepEqual([...new Set(events)], ['stores-opening', 'start', 'step', 'step-done', 'target-done']);
  assert.equal(check(result, ['memory:p99<1000ms']).pass, true);
  const missed = check(result, ['memory:rps>=100000000']);
  assert.equal(missed.pass, false);
  assert.equal(missed.error.code, 'ASSERTION_FAILED');
});

test('run() rejects bad options with a UsageError carrying every problem, and the flags only the CLI has', async () => {
  const options = { direct: true, stores: ['memory'], concurrency: [0], requests: 'many', json: 'out.json' };
  await assert.rejects(run(options), (error) => {
    assert.ok(error instanceof UsageError);
    assert.equal(error.code, 'USAGE');
    assert.deepEqual(error.problems, [
      'json: run() writes no file: it resolves to the Result ' +
        '(report(result, { format: \'json\' }) gives the file\'s text)',
      '-c/--concurrency: "0" is not a positive whole number',
      '-n/--requests must be a positive whole number, not "many"',
    ]);
    return true;
  });
  await assert.rejects(run({ workload: 'list' }), { code: 'USAGE' });
  await assert.rejects(run('-c 5'), { code: 'USAGE' });
});

// Each resolved with nothing written or served, and { parts, local } quietly ran once.
test('run() refuses the CLI-only --hdr-log, --metrics-port and --parts --local, naming each', async () => {
  const base = { direct: true, stores: ['memory'], concurrency: [1], requests: 1, warmup: 0 };
  const refused = async (extra) => {
    let problems;
    await assert.rejects(run({ ...base, ...extra }), (error) => {
      assert.ok(error instanceof UsageError);
      ({ problems } = error);
      return true;
    });
    return problems;
  };
  assert.deepEqual(await refused({ hdrLog: 'logs' }), [
    'hdrLog: run() writes no file: each step of the Result carries its latency histogram (step.histogram)',
  ]);
  assert.deepEqual(await refused({ metricsPort: 0 }), [
    'metricsPort: run() serves nothing: the onProgress hook sees each finished step',
  ]);
  const parts = await refused({ parts: 2, local: true });
  assert.equal(parts.length, 2);
  assert.match(parts[0], /^parts: is the command line's \(node test --parts N --local/);
  assert.equal(parts[1], 'local: goes with --parts, which is the command line\'s');
});

test('report() returns a saved run as text, HTML, CSV or JSON, the same from the file as from its Result', async () => {
  const text = await readFile(fixture('before.json'), 'utf8');
  const result = fromJson(text);
  assert.equal(report(fixture('before.json')), renderRun(result));
  assert.equal(report(result), report(fixture('before.json')));
  assert.deepEqual(fromJson(report(result, { format: 'json' })), result);
  assert.match(report(result, { format: 'csv' }).split('\n')[0], /^url,store,key,/);
  assert.match(report(result, { format: 'html' }), /^<!doctype html>/i);
  assert.throws(() => report(result, { format: 'pdf' }), {
    code: 'USAGE', message: 'format must be text, html, csv, json, not "pdf"',
  });
  assert.throws(() => report(fixture('missing.json')), { code: 'RUN_FAILED' });
  assert.throws(() => report({ format: 'storebench-results/1' }), { code: 'BAD_RESULTS' });
});

test('compare() returns the comparison with render(), and merge() refuses one run given twice', () => {
  const comparison = compare(fixture('before.json'), fixture('after.json'), { failOnRegression: 10 });
  assert.ok(comparison.rows.length > 0);
  assert.ok(!('render' in JSON.parse(JSON.stringify(comparison))));
  assert.match(comparison.render(), /^A: .*before\.json/);
  assert.throws(() => merge([fixture('before.json'), fixture('before.json')]), { code: 'MERGE_REFUSED' });
});

// Pins a direct run's report naming loadtest 8.2.1 (the version installed) as what generated its load.
test('a direct run says the direct engine sent its load: the System line names it and no loadtest', async () => {
  const options = { direct: true, stores: ['memory'], keys: ['key1'], concurrency: [2], requests: 50, warmup: 0 };
  const result = await run(options);
  assert.equal(result.settings.engine, 'direct');
  assert.equal('loadtest' in result.system, false);
  const [system] = report(result).split('\n');
  assert.match(system, / · engine direct$/);
  assert.doesNotMatch(system, /loadtest/);
});

test('runEvents() gives the run\'s events as an async iterator, then the Result; a bad option throws; ' +
  'leaving the loop early stops the run', async () => {
  const options = { direct: true, stores: ['memory'], keys: ['key1'], concurrency: [2, 4], requests: 100, warmup: 0 };
  const types = [];
  let done = null;
  for await (const event of runEvents(options)) {
    types.push(event.type);
    if (event.type === 'done') done = event.result;
  }
  assert.deepEqual([...new Set(types)], ['stores-opening', 'start', 'step', 'step-done', 'target-done', 'done']);
  assert.equal(types.at(-1), 'done');
  assert.equal(done.steps.length, 2);
  assert.deepEqual(done.steps.map((step) => step.responses), [100, 100]);

  await assert.rejects(async () => {
    for await (const event of runEvents({ concurrency: [0] })) assert.fail(`no event expected, got ${event.type}`);
  }, UsageError);

  // Out after the first step: the run is aborted, and the loop ends without waiting for the second step's
  // 10 minutes.
  const long = { ...options, requests: undefined, duration: 600, concurrency: [1, 2] };
  const started = Date.now();
  const seen = [];
  for await (const event of runEvents(long)) {
    seen.push(event.type);
    if (event.type === 'step') break;
  }
  assert.equal(seen.at(-1), 'step');
  assert.ok(Date.now() - started < 60_000, 'the run stopped when the loop was left');
});
