// The driver measures and returns; only the entry points, through report/, print or write files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join, relative } from 'node:path';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function sources(folder) {
  const entries = await readdir(join(root, folder), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name));
}

test('driver/ never prints, never writes a file and never imports report/', async () => {
  const files = await sources('driver');
  assert.ok(files.length >= 10);
  for (const file of files) {
    const name = relative(root, file);
    // test-json's timing loop keeps its result alive with a console.log that never runs.
    if (name === join('driver', 'json-timing.js')) continue;
    const text = await readFile(file, 'utf8');
    assert.doesNotMatch(text, /console\.|process\.(stdout|stderr)|writeFile|createWriteStream/, `${name} prints or writes`);
    assert.doesNotMatch(text, /from '\.\.\/(\.\.\/)?report\//, `${name} imports report/`);
  }
});
