// The import check that npm run lint runs: what it reads as an arrow, and the repository as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkImports, findCycles, importsOf } from '../../scripts/check-imports.js';

test('static, re-exported and dynamic imports are arrows; ' +
  'a template-string import is flagged; comments are not', () => {
  const text = [
    "import a from './a.js';",
    "export { b } from '../b.js';",
    "// import('./in-a-comment.js')",
    "const d = await import('./d.js');",
    // Pieced together, so that this file holds no such import itself.
    'const kind = await import(' + '`./kinds/$' + '{name}.js`);',
  ].join('\n');
  const { found, computed } = importsOf(text);
  assert.deepEqual(found.map(({ specifier }) => specifier), ['./a.js', '../b.js', './d.js']);
  assert.deepEqual(computed, ['`./kinds/$' + '{name}.js`);']);
});

test('a cycle is found, through any number of files', () => {
  const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
  assert.deepEqual(findCycles(graph), [['a', 'b', 'c', 'a']]);
  assert.deepEqual(findCycles(new Map([['a', ['b']], ['b', []]])), []);
});

test('the repository has no cycle, no computed import and no upward arrow ' +
  '(report/ never imports driver/)', async () => {
  const { files, problems } = await checkImports();
  assert.ok(files.length > 100);
  assert.deepEqual(problems, []);
});
