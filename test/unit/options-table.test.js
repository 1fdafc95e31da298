// options/table.js is the one list of node test's options: the argv spec, --help, index.d.ts's
// RunOptions and docs/cli.md all say what it says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { OPTIONS, OPTION_NAMED, RUN_FLAGS, SECTIONS, takesNumber } from '../../options/table.js';
import { CLI_ONLY } from '../../options/code.js';
import { optionLabel, usage } from '../../cli/run-usage.js';
import { CLI_DOC, cliDoc } from '../../scripts/cli-docs.js';
import { RESULT_FIELDS } from '../../result/fields.js';
import { ENGINES } from '../../driver/engines/table.js';
import { DEFAULT_HTTP_ENGINE, HTTP_ENGINE_NAMES } from '../../config/run-defaults.js';

test('each option is one entry: a flag, a type, a section, help lines, a settings key or null', () => {
  assert.equal(new Set(OPTIONS.map(({ flag }) => flag)).size, OPTIONS.length);
  // Each flag, and beside it the old name it still takes (--workers, now --threads).
  assert.deepEqual(Object.keys(RUN_FLAGS), OPTIONS.flatMap(({ flag, alias }) => (alias ? [flag, alias] : [flag])));
  for (const option of OPTIONS) {
    assert.ok(['string', 'boolean'].includes(option.type), option.flag);
    assert.equal(option.arg !== undefined, option.type === 'string', `${option.flag}: a value name for a value`);
    assert.ok(SECTIONS[option.section], `${option.flag}: section ${option.section}`);
    assert.ok(option.help.length > 0, option.flag);
    assert.ok(option.setting === null || typeof option.setting === 'string', option.flag);
    if (option.bounds) assert.ok(option.bounds[0] <= option.bounds[1], option.flag);
  }
});

test('an option\'s settings key is a field of the Result\'s settings (docs/results-format.md)', () => {
  const fields = new Set(RESULT_FIELDS.map(({ path }) => path));
  for (const { flag, setting } of OPTIONS.filter((option) => option.setting)) {
    assert.ok(fields.has(`settings.${setting}`), `--${flag}: no field settings.${setting}`);
  }
});

test('--help shows every option\'s label and help lines, in the table\'s order', () => {
  let from = 0;
  for (const option of OPTIONS.filter(({ label }) => label !== null)) {
    const at = usage.indexOf(`\n  ${optionLabel(option)}`, from);
    assert.ok(at > from, `--help lacks ${optionLabel(option)} where the table has it`);
    for (const line of option.help) assert.ok(usage.includes(line), `--help lacks "${line}"`);
    from = at;
  }
  for (const { title } of Object.values(SECTIONS)) assert.ok(usage.includes(`\n${title}\n`), title);
});

test('index.d.ts\'s RunOptions has a property for every option run() takes, and no other', async () => {
  const text = await readFile(new URL('../../index.d.ts', import.meta.url), 'utf8');
  const body = /export interface RunOptions \{\n([\s\S]*?)\n\}/.exec(text)[1];
  const names = [...body.matchAll(/^ {2}(\w+)\?:/gm)].map((match) => match[1]).sort();
  assert.deepEqual(names, [...OPTION_NAMED.keys()].filter((name) => !(name in CLI_ONLY)).sort());
});

test('index.d.ts gives code a number for exactly the options the table says take one', async () => {
  const text = await readFile(new URL('../../index.d.ts', import.meta.url), 'utf8');
  const body = /export interface RunOptions \{\n([\s\S]*?)\n\}/.exec(text)[1];
  for (const [, name, type] of body.matchAll(/^ {2}(\w+)\?: (.*);$/gm)) {
    assert.equal(/\bnumber\b/.test(type), takesNumber(OPTION_NAMED.get(name)), `${name}: ${type}`);
  }
});

test('docs/cli.md is what npm run docs:cli makes of the table', async () => {
  const text = await readFile(CLI_DOC, 'utf8');
  assert.ok(text === cliDoc(), 'docs/cli.md is out of date: run npm run docs:cli');
  for (const option of OPTIONS) assert.ok(text.includes(`--${option.flag}`), option.flag);
});

test('--engine offers exactly the driver\'s HTTP engines: config/run-defaults.js names them, ' +
  'driver/engines/table.js loads them', () => {
  const http = Object.keys(ENGINES).filter((name) => ENGINES[name].mode === 'http');
  assert.deepEqual([...HTTP_ENGINE_NAMES].sort(), http.sort());
  assert.ok(HTTP_ENGINE_NAMES.includes(DEFAULT_HTTP_ENGINE));
});
