import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromJson, readResults, toJson } from '../../result/format.js';
import { renderRun } from '../../report/run-text.js';
import { ResultsFormatError, RunError, exitCodeOf } from '../../util/errors.js';
import { fixedResult, fixedStep } from '../helpers/driver-fixtures.js';

test('fromJson(toJson(result)) gives back the same Result, and the same text', () => {
  for (const result of [
    fixedResult(),
    fixedResult({ interrupted: true, appExit: 'SIGKILL' }),
    fixedResult({
      steps: [
        fixedStep({ model: 'open', targetRps: 1000, concurrency: 3, maxRequests: null }),
        {
          ...fixedStep({ store: 'x' }),
          latency: {
            count: 0,
            meanMs: null,
            minMs: null,
            maxMs: null,
            p50Ms: null,
            p90Ms: null,
            p99Ms: null,
            p999Ms: null,
          },
          engineReported: null,
        },
      ],
    }),
  ]) {
    const back = fromJson(toJson(result));
    assert.deepEqual(back, result);
    assert.equal(renderRun(back), renderRun(result));
    assert.deepEqual(fromJson(JSON.parse(toJson(result))), result, 'parsed JSON is read as well as its text');
  }
});

test('the text of a saved run: header, skipped stores, each URL\'s table, how it ended, the comparison, ' +
  'the summary', () => {
  const text = renderRun(fixedResult({ interrupted: true }));
  assert.match(text, /^System: {3}Node v20\.0\.0 · linux 6 x64 · 2 x Test CPU · loadtest 8\.2\.1\nTarget: {3}http:\/\/127\.0\.0\.1:40123\nDate: {5}2026-01-01T00:00:00\.000Z\nSettings: concurrency 5, 10; 2000 requests per step;.*\nOrder: {4}interleaved: .*\nskipped cloudant: unavailable \(no CLOUDANT_URL\)\n\n## http:\/\/127\.0\.0\.1:40123\/memory\/key1\n/);
  assert.match(text, /\n[^\n]+\n## http:\/\/127\.0\.0\.1:40123\/redis\/key1\n/, 'the URLs\' tables run together');
  assert.match(renderRun(fixedResult({ interrupted: true }), { verbose: true }),
    /\n\n## http:\/\/127\.0\.0\.1:40123\/redis\/key1\n/, '--verbose: a blank line between them');
  assert.match(text, /\n\ninterrupted: 4 step\(s\) finished; the step in progress was dropped\n\nMachine: {2}steal 2% · other processes 12% of a core · load average 1\.10 · no step warned\n\n## Comparison: key1 /);
  assert.match(text, /\n\n## Summary: [^\n]+\n-+\nstore +key1 rank +rps\n-+\nmemory +1 +8000\nredis +2 +4000\nkey1: [^\n]+\n$/);
  assert.match(renderRun(fixedResult({ interrupted: true, appExit: 'code 3' })), /\n\napp\.js exited \(code 3\) during the sweep: 4 step\(s\) finished; the step in progress was dropped\n/);
});

test('fromJson says what is wrong with a file that is not a Result, with exit code 2', () => {
  const refuse = (input, pattern) => assert.throws(() => fromJson(input), (error) => {
    assert.ok(error instanceof ResultsFormatError, error.stack);
    assert.equal(exitCodeOf(error), 2);
    assert.match(error.message, pattern);
    assert.doesNotMatch(error.message, /\n/, 'one line');
    return true;
  });
  refuse('{"format": ', /^not JSON \(/);
  refuse('not json\nat all', /^not JSON \(/);
  refuse('[1, 2]', /^not a storebench results file \(it has no "format"\)$/);
  refuse('{"format":"storebench-json/1"}', /^not a storebench results file \(its format is "storebench-json\/1", not storebench-results\/6\)$/);
  refuse('{"format": 999}', /^not a storebench results file \(its format is 999, not storebench-results\/6\)$/);
  refuse('{"format": {"token": "s3cret"}}', /^not a storebench results file \(its format is an object, not storebench-results\/6\)$/);
  refuse('{"format":"storebench-driver/1"}', /^written in the older format storebench-driver\/1; this storebench reads storebench-results\/6 \(run the benchmark again to get one\)$/);
  refuse('{"format":"storebench-results/1"}', /^written in the older format storebench-results\/1/);
  refuse('{"format":"storebench-results/2"}', /^written in the older format storebench-results\/2; this storebench reads storebench-results\/6 \(run the benchmark again to get one\)$/);
  refuse('{"format":"storebench-results/3"}', /^written in the older format storebench-results\/3; this storebench reads storebench-results\/6 \(run the benchmark again to get one\)$/);
  refuse('{"format":"storebench-results/10"}', /^written in the newer format storebench-results\/10; this storebench reads storebench-results\/6$/);
  const json = JSON.parse(toJson(fixedResult()));
  json.steps[2].latency.p99Ms = 'x';
  refuse(json, /^not a valid storebench-results\/6 file: steps\[2\]\.latency\.p99Ms is "x", expected a number or null$/);
  delete json.steps[2].latency;
  refuse(json, /steps\[2\]\.latency is missing, expected an object/);
  const extra = { ...JSON.parse(toJson(fixedResult())), hello: 1 };
  refuse(extra, /hello is not a field of this format/);
});

test('readResults names the file, and tells a file it cannot read (exit 1) ' +
  'from one that is not a Result (exit 2)', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-format-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const good = join(dir, 'good.json');
  await writeFile(good, `${toJson(fixedResult())}\n`);
  assert.deepEqual(await readResults(good), fixedResult());
  await assert.rejects(readResults(join(dir, 'missing.json')), (error) => error instanceof RunError && exitCodeOf(error) === 1 && /^cannot read .*missing\.json: no such file$/.test(error.message));
  const bad = join(dir, 'bad.json');
  await writeFile(bad, '{"format":"other"}');
  await assert.rejects(
    readResults(bad),
    (error) => error instanceof ResultsFormatError && error.message.startsWith(`${bad}: not a storebench results file`),
  );
});

test('fromJson says where a file stops being JSON without quoting any of its text', () => {
  const message = (text) => {
    try {
      fromJson(text);
    } catch (error) {
      assert.ok(error instanceof ResultsFormatError, error.stack);
      return error.message;
    }
    assert.fail('fromJson accepted it');
  };
  assert.equal(message('root:x:0:0:root:/root:/bin/bash\n'), 'not JSON (it stops being JSON at line 1, column 1)');
  assert.equal(message('{"password": "hunter2"\n  oops}'), 'not JSON (it stops being JSON at line 2, column 3)');
  assert.equal(message('{"a": [1, 2, secret]}'), 'not JSON (it stops being JSON at line 1, column 14)');
  assert.equal(message('{"a": 1} trailing'), 'not JSON (it stops being JSON at line 1, column 10)');
  assert.equal(message('{"a": [1, 2'), 'not JSON (the text ends before the JSON does)');
});
