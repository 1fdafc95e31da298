import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { SCHEMA_PATH, resultsSchema, schemaText } from '../../result/schema.js';
import { fromJson, toJson } from '../../result/format.js';
import { validate } from '../helpers/json-schema.js';
import { fixedResult } from '../helpers/driver-fixtures.js';

const fixture = (name) => readFile(new URL(`../fixtures/runs/${name}`, import.meta.url), 'utf8');

test('docs/results.schema.json is generated from result/fields.js and up to date', async () => {
  assert.equal(
    await readFile(SCHEMA_PATH, 'utf8'),
    schemaText(),
    'docs/results.schema.json is out of date: run node result/schema.js',
  );
});

test('real Results validate against the schema: runs made by sweeping node:http ' +
  'servers, read back as written', async () => {
  const schema = resultsSchema();
  for (const name of ['before.json', 'after.json']) {
    const text = await fixture(name);
    assert.deepEqual(validate(schema, JSON.parse(text)), [], name);
    assert.deepEqual(
      validate(schema, JSON.parse(toJson(fromJson(text)))),
      [],
      `${name}, once more through fromJson and toJson`,
    );
  }
  assert.deepEqual(validate(schema, JSON.parse(toJson(fixedResult({ interrupted: true, appExit: 'SIGKILL' })))), []);
});

test('the schema refuses what fromJson refuses: a missing field, an unknown one, ' +
  'a wrong type, another version', async () => {
  const schema = resultsSchema();
  const good = JSON.parse(await fixture('before.json'));
  const broken = (change) => {
    const copy = structuredClone(good);
    change(copy);
    return validate(schema, copy);
  };
  assert.deepEqual(broken((r) => delete r.steps[2].latency.p99Ms), ['$.steps[2].latency.p99Ms: missing']);
  assert.deepEqual(broken((r) => { r.steps[0].machine.extra = 1; }), ['$.steps[0].machine.extra: not allowed']);
  assert.deepEqual(broken((r) => { r.steps[1].rps = 'fast'; }), ['$.steps[1].rps: "fast" is not number']);
  assert.deepEqual(broken((r) => { r.steps[1].repeat = 1.5; }), ['$.steps[1].repeat: 1.5 is not integer']);
  assert.deepEqual(
    broken((r) => { r.comparison[0].rows[0].latency.meanMs = null; }),
    [],
    'null where the field allows it',
  );
  assert.deepEqual(broken((r) => { r.format = 'storebench-results/4'; }), ['$.format: must be "storebench-results/6"']);
});
