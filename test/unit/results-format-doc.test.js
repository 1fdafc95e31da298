import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { DOC_PATH, renderFieldTables, withFieldTables } from '../../result/fields-doc.js';
import { RESULT_FIELDS, STEP_FIELDS, WARNING_DATA } from '../../result/fields.js';
import { WARNING_CODES } from '../../result/warnings.js';

test('docs/results-format.md documents every field and warning code as result/fields.js defines them', async () => {
  const document = await readFile(DOC_PATH, 'utf8');
  assert.equal(
    document,
    withFieldTables(document),
    'docs/results-format.md is out of date: run node result/fields-doc.js',
  );
  const tables = renderFieldTables();
  for (const field of [...RESULT_FIELDS, ...STEP_FIELDS]) {
    assert.ok(field.description, `${field.path} has a description`);
  }
  for (const code of Object.keys(WARNING_CODES)) {
    assert.ok(tables.includes(`| \`${code}\` |`), `${code} is in the document`);
    assert.ok(WARNING_DATA[code], `${code}'s data is described in result/fields.js`);
  }
  assert.match(document, /^# Results format: `storebench-results\/6`/);
});
