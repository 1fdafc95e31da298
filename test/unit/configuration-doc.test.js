// docs/configuration.md is the settings table of config/settings.js for people: every setting
// has its row there, and the row names its flag, its environment variables and its default.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { settings } from '../../config/settings.js';

const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
const rows = new Map(
  doc
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => [line.slice(3, line.indexOf('`', 3)), line]),
);

test('every setting has a row in docs/configuration.md naming its flag, variables and default', () => {
  const missing = Object.keys(settings).filter((key) => !rows.has(key));
  assert.deepEqual(missing, [], `settings missing from docs/configuration.md: ${missing.join(', ')}`);
  for (const [key, setting] of Object.entries(settings)) {
    const row = rows.get(key);
    const cells = row.split('|').slice(1, -1).map((cell) => cell.trim());
    assert.equal(cells.length, 6, `${key}: six cells`);
    if (setting.flag) assert.ok(cells[1].includes(`\`${setting.flag}\``), `${key}: flag ${setting.flag}`);
    else assert.equal(cells[1], '', `${key} has no flag`);
    for (const variable of setting.env) assert.ok(cells[2].includes(`\`${variable}\``), `${key}: ${variable}`);
    if (!setting.env.length) assert.equal(cells[2], '', `${key} reads no variable`);
    assert.equal(
      cells[3] !== '',
      Boolean(setting.cloudFoundry || setting.cfText),
      `${key}: a Cloud Foundry source exactly when it has one`,
    );
    if (setting.default !== undefined && !setting.defaultText) {
      assert.ok(cells[4].includes(`\`${setting.default}\``), `${key}: default ${setting.default}`);
    }
    if (setting.varsFile) {
      assert.ok(cells[4].includes(`\`${setting.varsFile}\` in the vars file`), `${key}: vars file ${setting.varsFile}`);
    }
  }
});

test('the doc has no row for a setting the code does not declare', () => {
  const stale = [...rows.keys()].filter((key) => !settings[key]);
  assert.deepEqual(stale, []);
});
