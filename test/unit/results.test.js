import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCsv } from '../../report/csv.js';
import { toJson } from '../../result/format.js';
import {
  CSV_OPERATION_COLUMN, CSV_RESULT_COLUMNS, RESULT_FIELDS, STEP_CSV_FIELDS, STEP_FIELDS,
} from '../../result/fields.js';
import { fixedResult, fixedStep, fixedWarning } from '../helpers/driver-fixtures.js';
import { resultError } from '../../driver/run.js';
import { RunError } from '../../util/errors.js';

const HEADER = 'url,store,key,framework,workload,operation,mode,model,startedAt,finishedAt,maxRequests,' +
  'durationSeconds,concurrency,targetRps,peakInFlight,requests,responses,wallSeconds,elapsedSeconds,rps,' +
  'meanLatencyMs,maxLatencyMs,minLatencyMs,p50,p90,p99,p999,storeMeanMs,storeMaxMs,storeP50Ms,storeP99Ms,errors,' +
  'errorKinds,cpuPercent,warnings,' +
  'repeat,stealPercent,othersCpuPercent,treeCpuPercent,loadAverage,interrupted';

test('CSV: a header and one row per step, commas in values quoted', () => {
  const steps = [
    fixedStep({
      errors: { total: 3, byKind: { 'http 503': 2, timeout: 1 } },
      warnings: [fixedWarning('DRIVER_CPU', 'a, b'), fixedWarning('LITTLES_LAW', 'c "d"')],
    }),
  ];
  const [header, row, end] = buildCsv(steps).split('\n');
  assert.equal(header, HEADER);
  assert.equal(row, 'http://127.0.0.1:40123/redis/key1,redis,key1,,,all,http,closed,2026-01-01T00:00:00.000Z,2026-01-01T00:00:00.463Z,2000,,5,,5,2000,2000,0.4628,0.4631,4321.4,1.157,12.5,0.214,1.021,1.9,4.351,9.9,,,,,3,http 503=2;timeout=1,55.5,"a, b | c ""d""",1,1.5,12.25,140,1.1,false');
  assert.equal(end, '');
});

test('CSV: the columns the table shows are filled as it shows them, for timed and open-model steps too', () => {
  const timed = { ...fixedStep({ maxRequests: null }), durationSeconds: 2 };
  const open = {
    ...fixedStep({ model: 'open', targetRps: 1000, concurrency: 3, maxRequests: null }),
    durationSeconds: 2,
  };
  const [, timedRow, openRow] = buildCsv([timed, open]).split('\n').map((line) => line.split(','));
  const column = (name) => HEADER.split(',').indexOf(name);
  assert.equal(timedRow[column('maxRequests')], '2000', 'a timed step: maxRequests = requests sent');
  assert.equal(timedRow[column('durationSeconds')], '2');
  assert.equal(openRow[column('maxRequests')], '2000');
  assert.equal(openRow[column('concurrency')], '3', 'the open model: concurrency = most in flight');
  assert.equal(openRow[column('peakInFlight')], '3');
  assert.equal(openRow[column('targetRps')], '1000');
});

test('JSON and CSV come from the one field list: every CSV column is a step field the JSON holds', () => {
  const result = fixedResult();
  const [step] = JSON.parse(toJson(result)).steps;
  const runColumns = CSV_RESULT_COLUMNS.map((column) => column.name);
  const stepColumns = HEADER.split(',').filter((name) => name !== 'operation' && !runColumns.includes(name));
  const csvFields = STEP_CSV_FIELDS.map((field) => field.csv);
  assert.deepEqual(stepColumns, csvFields, 'operation names the row; the run\'s columns come last');
  for (const column of CSV_RESULT_COLUMNS) {
    assert.ok(RESULT_FIELDS.some((field) => field.path === column.path), `${column.name} is a field of the Result`);
  }
  for (const field of STEP_FIELDS) {
    if (field.optional) continue; // only in some runs (runLoad: a part's steps)
    const value = field.path.split('.').reduce((node, key) => node?.[key], step);
    assert.notEqual(value, undefined, `${field.path} is in the JSON`);
  }
});

test('JSON: format, settings, system, every step with percentiles and its histogram, the comparison', () => {
  const result = fixedResult();
  const json = JSON.parse(toJson(result));
  assert.equal(json.format, 'storebench-results/6');
  assert.equal(json.interrupted, false);
  assert.equal(json.appExit, null);
  assert.deepEqual(json.skipped, [{ store: 'cloudant', status: 'unavailable', reason: 'no CLOUDANT_URL' }]);
  assert.deepEqual(json.targets.map((target) => target.store), ['memory', 'redis']);
  assert.equal(json.steps.length, 4);
  const [first] = json.steps;
  assert.deepEqual(
    {
      rps: first.rps,
      mean: first.latency.meanMs,
      p50: first.latency.p50Ms,
      p90: first.latency.p90Ms,
      p99: first.latency.p99Ms,
      p999: first.latency.p999Ms,
    },
    { rps: 8000, mean: 0.61, p50: 1.021, p90: 1.9, p99: 4.351, p999: 9.9 },
  );
  assert.equal(first.histogram.unit, 'us');
  assert.equal(first.histogram.data, result.steps[0].histogram.data);
  assert.deepEqual(first.warnings[0].code, 'WEAK_SAMPLE');
  assert.equal(json.comparison[0].rows[1].ratio, 4000 / 8000);
  // A comparison row carries its step's warning codes, so a report can mark it.
  assert.deepEqual(
    json.comparison[0].rows.map((row) => [row.store, row.warnings]),
    [['memory', ['WEAK_SAMPLE']], ['redis', []]],
  );
  assert.deepEqual([json.settings.stores, json.settings.keys], [null, null]);
  assert.deepEqual(Object.keys(json), [
    'format', 'interrupted', 'appExit', 'settings', 'system', 'targets', 'skipped', 'loads', 'order', 'steps',
    'control', 'verifications', 'comparison', 'merged',
  ]);
});

test('toJson refuses a Result it could not give back: a missing field, an unknown one, NaN', () => {
  const missing = fixedResult();
  delete missing.steps[1].startedAt;
  assert.throws(() => toJson(missing), /^TypeError: not a Result: steps\[1\]\.startedAt is missing, expected a string$/);
  const unknown = fixedResult();
  unknown.steps[0].latency.p75Ms = 1;
  assert.throws(() => toJson(unknown), /steps\[0\]\.latency\.p75Ms is not a field of this format/);
  const nan = fixedResult();
  nan.steps[0].engineReported.rps = NaN;
  assert.throws(() => toJson(nan), /^TypeError: not a Result: steps\[0\]\.engineReported holds NaN, Infinity or another value JSON cannot keep$/);
});

// A store named with --stores that could not be swept left the run at exit 0.
test('resultError: a store named with --stores that was skipped fails the run, one line each with its reason', () => {
  const result = fixedResult();
  assert.equal(resultError(result), null, 'a skipped store nobody named is not a failure');
  result.settings.stores = ['memory', 'redis', 'cloudant'];
  result.skipped.push({ store: 'memcached', status: 'down', reason: null });
  const error = resultError(result);
  assert.ok(error instanceof RunError);
  assert.equal(error.message, 'cloudant is unavailable, so it was not swept: no CLOUDANT_URL');
  result.settings.stores.push('memcached');
  assert.equal(
    resultError(result).message,
    'cloudant is unavailable, so it was not swept: no CLOUDANT_URL\nmemcached is down, so it was not swept',
  );
  const empty = fixedResult({ steps: [] });
  assert.equal(
    resultError(empty).message,
    'nothing to sweep: none of the 1 store(s) listed can be swept (the skipped lines above say why)',
  );
  assert.match(resultError(fixedResult({ appExit: 'SIGKILL', interrupted: true })).message, /^app\.js exited \(SIGKILL\)/);
  const stopped = fixedResult({ interrupted: true });
  stopped.settings.stores = ['cloudant'];
  assert.equal(resultError(stopped), null, 'Ctrl-C is the user\'s choice: exit 130, not a failure');
});

test('CSV of a real run: every column filled where the JSON has a value, empty only where it holds null', async () => {
  const { readFile } = await import('node:fs/promises');
  const { fromJson } = await import('../../result/format.js');
  const result = fromJson(await readFile(new URL('../fixtures/runs/before.json', import.meta.url), 'utf8'));
  const [header, ...rows] = buildCsv(result.steps, result).trim().split('\n');
  const columns = STEP_CSV_FIELDS;
  // The operation column (after workload) says which operation a row is: `all` for a step's totals.
  const operationAt = columns.findIndex((field) => field.csv === CSV_OPERATION_COLUMN.after) + 1;
  const names = columns.map((field) => field.csv);
  names.splice(operationAt, 0, CSV_OPERATION_COLUMN.name);
  assert.deepEqual(header.split(','), [...names, ...CSV_RESULT_COLUMNS.map((column) => column.name)]);
  assert.equal(rows.length, result.steps.length, 'the seeded reads: one operation, one row per step');
  rows.forEach((line, index) => {
    const cells = line.match(/("([^"]|"")*"|[^,]*)(,|$)/g).map((cell) => cell.replace(/,$/, ''));
    assert.equal(cells.splice(operationAt, 1)[0], 'all');
    assert.equal(cells[columns.length], 'false', 'the run finished: interrupted false on every row');
    const step = result.steps[index];
    columns.forEach((field, column) => {
      const value = field.path.split('.').reduce((node, key) => node?.[key], step);
      const empty = cells[column] === '';
      // warnings and errorKinds are lists: empty when the step has none.
      // undefined: a field the file predates (storeTime).
      const none =
        value === null || value === undefined ||
        (Array.isArray(value) && !value.length) ||
        (field.csv === 'errorKinds' && !Object.keys(value).length);
      assert.equal(
        empty,
        none && field.csv !== 'maxRequests',
        `step ${index} ${field.csv}: ${JSON.stringify(cells[column])} for ${JSON.stringify(value)}`,
      );
    });
  });
});
