// The import check that npm run lint runs: what it reads as an arrow, the rules on a made-up
// repository, and the repository as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FORBIDDEN, checkImports, findCycles, importsOf } from '../../scripts/check-imports.js';

// Pieced together, so that this file holds no such import itself.
const call = (name, argument) => `${name}(${argument})`;
const IMPORT = 'imp' + 'ort';
const REQUIRE = 'req' + 'uire';
const moduleUrl = (path) => `new ${'URL'}('${path}', import.meta.url)`;

test('static, re-exported and dynamic imports are arrows; ' +
  'a template-string import is flagged; comments are not', () => {
  const text = [
    "import a from './a.js';",
    "export { b } from '../b.js';",
    "// import('./in-a-comment.js')",
    "const d = await import('./d.js');",
    'const kind = await ' + call(IMPORT, '`./kinds/$' + '{name}.js`') + ';',
  ].join('\n');
  const { found, computed } = importsOf(text);
  assert.deepEqual(found.map(({ specifier }) => specifier), ['./a.js', '../b.js', './d.js']);
  assert.deepEqual(computed, ['`./kinds/$' + '{name}.js`);']);
});

test('a concatenated or variable specifier is computed, in import() and require() alike; ' +
  'one literal, a plain template or an escaped one in a script held in a string is not', () => {
  const text = [
    'const a = await ' + call(IMPORT, "'./x/' + n") + ';',
    'const b = ' + call(REQUIRE, "'./y' + '.js'") + ';',
    'const c = await ' + call(IMPORT, 'file') + ';',
    'const d = await ' + call(IMPORT, '`./plain.js`') + ';',
    "const e = '" + call(REQUIRE, "\\'fs\\'") + "';",
    'const f = ' + call(IMPORT, "'./with-options.js', { with: { type: 'json' } }") + ';',
  ].join('\n');
  const { found, computed } = importsOf(text);
  assert.deepEqual(computed, ["'./x/' + n);", "'./y' + '.js');", 'file);']);
  assert.deepEqual(found.map(({ specifier }) => specifier), ['./plain.js', 'fs', './with-options.js']);
});

test('a module file named by URL is a launch arrow; a file read as text or a data file is not', () => {
  const text = [
    'const worker = new Worker(' + moduleUrl('./worker.js') + ');',
    'const script = fileURLToPath(' + moduleUrl('../cli/child.js') + ');',
    'const shared = ' + moduleUrl('./shared.cjs') + ';',
    'const client = readFileSync(' + moduleUrl('./client.js') + ", 'utf8');",
    'const image = ' + moduleUrl('./images/20kb.jpg') + ';',
  ].join('\n');
  assert.deepEqual(importsOf(text).launches, ['./worker.js', '../cli/child.js', './shared.cjs']);
});

test('an import statement starts its line; the same words inside a string are not one', () => {
  const text = "import { run } from 'storebench';\nconst script = \"import { x } from 'storebench/app';\";";
  const { found } = importsOf(text);
  assert.deepEqual(found.map(({ specifier, statement }) => [specifier, statement]), [
    ['storebench', true],
    ['storebench/app', false],
  ]);
});

test('a cycle is found, through any number of files', () => {
  const graph = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
  assert.deepEqual(findCycles(graph), [['a', 'b', 'c', 'a']]);
  assert.deepEqual(findCycles(new Map([['a', ['b']], ['b', []]])), []);
});

test('every folder has a rule, the planned options/ and studies/ among them, and no library ' +
  'folder imports the scripts around it', () => {
  for (const folder of ['data', 'bench', 'scripts', 'examples', 'test', 'options', 'studies', 'index.js']) {
    assert.ok(FORBIDDEN[folder], `${folder} has a rule`);
  }
  const library = ['cli', 'studies', 'index.js', 'options', 'driver', 'report', 'result', 'app',
    'routes', 'stores', 'config', 'embedded', 'util', 'app.js', 'test.js', 'test-json.js'];
  for (const folder of library) {
    for (const script of ['test', 'bench', 'scripts', 'examples', 'data']) {
      assert.ok(FORBIDDEN[folder].includes(script), `${folder} must not import ${script}`);
    }
  }
  assert.ok(FORBIDDEN.options.includes('cli') && FORBIDDEN.options.includes('studies'), 'options/ is below both');
  for (const runtime of ['driver', 'result', 'stores', 'report', 'embedded', 'app', 'routes']) {
    assert.ok(FORBIDDEN.options.includes(runtime), `options/ must not import ${runtime}/`);
  }
  assert.ok(!FORBIDDEN.options.includes('config') && !FORBIDDEN.options.includes('util'),
    'options/ reads config/ and util/');
  assert.ok(FORBIDDEN.driver.includes('options') && FORBIDDEN.driver.includes('studies'), 'driver/ is below both');
  for (const below of ['index.js', 'options', 'driver', 'report', 'result']) {
    assert.ok(FORBIDDEN[below].includes('studies'), `${below} is below studies/`);
    assert.ok(!FORBIDDEN.studies.includes(below), `studies/ may import ${below}`);
  }
  assert.ok(FORBIDDEN.studies.includes('cli'), 'studies/ is below cli/');
});

// A repository of a few lines per file, with every rule broken once.
async function madeUpRepository(t, files) {
  const root = await mkdtemp(join(tmpdir(), 'storebench-imports-'));
  t.after(() => rm(root, { recursive: true, force: true }));
  await writeFile(join(root, 'package.json'), JSON.stringify({ name: 'storebench' }));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), `${text}\n`);
  }
  return root;
}

test('on a made-up repository: upward arrows of the planned floors, scripts imported by the library, ' +
  'a folder with no rule, launches, a computed import and a self-import are each one problem', async (t) => {
  const root = await madeUpRepository(t, {
    'cli/x.js': 'export const x = 1;',
    'cli/self.js': "import { run } from 'storebench';\nexport default run;",
    'examples/user.js': "import { run } from 'storebench';\nimport { startApp } from 'storebench/app';\n" +
      'export { run, startApp };',
    'options/table.js': "import { x } from '../cli/x.js';\nexport const table = [x];",
    'studies/study.js': "import { run } from '../index.js';\nimport { table } from '../options/table.js';\n" +
      'export default [run, table];',
    'index.js': "import study from './studies/study.js';\nexport const run = () => study;",
    'driver/run.js': "import { table } from '../options/table.js';\nexport default table;",
    'driver/pool.js': 'const w = new Worker(' + moduleUrl('./gone.js') + ');\nexport default w;',
    'driver/up.js': 'const w = new Worker(' + moduleUrl('../cli/x.js') + ');\nexport default w;',
    'driver/a.js': 'const w = new Worker(' + moduleUrl('./b.js') + ');\nexport default w;',
    'driver/b.js': "import a from './a.js';\nexport default a;",
    'report/kinds.js': 'export const load = (n) => ' + call(IMPORT, "'./kinds/' + n") + ';',
    'stores/helper.js': "import { h } from '../test/helpers/h.js';\nexport default h;",
    'stores/seeded.js': "import '../data/seed.js';",
    'data/seed.js': "import helper from '../stores/helper.js';\nexport default helper;",
    'test/helpers/h.js': 'export const h = 1;',
    'newfolder/z.js': 'export const z = 1;',
  });
  const { problems } = await checkImports(root, { computedAllowed: {}, launchesAllowed: {} });
  const expected = [
    "cli/self.js: imports the package by its own name ('storebench'); import the file by its relative path",
    'options/table.js -> cli/x.js: options/ must not import cli',
    'index.js -> studies/study.js: index.js must not import studies',
    'driver/run.js -> options/table.js: driver/ must not import options',
    'driver/pool.js -> driver/gone.js: no such file',
    'driver/up.js -> cli/x.js: driver/ must not import cli',
    "report/kinds.js: a computed import ('./kinds/' + n);); import each module statically",
    'stores/helper.js -> test/helpers/h.js: stores/ must not import test',
    'stores/seeded.js -> data/seed.js: stores/ must not import data',
    'newfolder: no rule says what it may import; add it to scripts/imports/layout.js',
  ];
  for (const problem of expected) {
    assert.ok(problems.includes(problem), `${problem}\nnot among:\n${problems.join('\n')}`);
  }
  assert.ok(problems.some((problem) => /^cycle: .*driver\/a\.js -> driver\/b\.js/.test(problem)) ||
    problems.some((problem) => /^cycle: .*driver\/b\.js -> driver\/a\.js/.test(problem)), 'a cycle through a launch');
  assert.ok(!problems.some((problem) => problem.startsWith('examples/')), 'examples import the package by name');
  assert.ok(!problems.some((problem) => problem.startsWith('studies/')), 'studies/ may import index.js and options/');
});

test('a name imported from a CommonJS module is one of its module.exports object\'s keys', async (t) => {
  const root = await madeUpRepository(t, {
    'embedded/limits.cjs': 'const classify = () => 1;\nmodule.exports = { classify, PLANS: {} };',
    'embedded/user.js':
      "import { classify, PLANS, gone } from './limits.cjs';\nexport default [classify, PLANS, gone];",
  });
  const { problems } = await checkImports(root, { computedAllowed: {}, launchesAllowed: {} });
  assert.deepEqual(problems.filter((problem) => problem.startsWith('embedded/')), [
    'embedded/user.js: imports gone from ./limits.cjs, which does not export it',
  ]);
});

test('options/ stands on its own floor: an import of a driver, result, store, report, app or embedded ' +
  'module from it is a problem; config/ and util/ are not', async (t) => {
  const below = ['driver/step.js', 'result/format.js', 'stores/index.js', 'report/text.js', 'app/create.js',
    'routes/stores.js', 'embedded/servers.js'];
  const files = Object.fromEntries(below.map((path) => [path, 'export const x = 1;']));
  const root = await madeUpRepository(t, {
    ...files,
    'config/workloads.js': 'export const WORKLOADS = {};',
    'util/random.js': 'export const randomSeed = () => 1;',
    'options/table.js': [
      ...below.map((path, index) => `import { x as x${index} } from '../${path}';`),
      "import { WORKLOADS } from '../config/workloads.js';",
      "import { randomSeed } from '../util/random.js';",
      `export const table = [${below.map((_, index) => `x${index}`).join(', ')}, WORKLOADS, randomSeed];`,
    ].join('\n'),
  });
  const { problems } = await checkImports(root, { computedAllowed: {}, launchesAllowed: {} });
  assert.deepEqual(problems.filter((problem) => problem.startsWith('options/')).sort(), below.map((path) =>
    `options/table.js -> ${path}: options/ must not import ${path.split('/')[0]}`).sort());
});

test('an allowance no file uses any more is a problem: a computed import, a folder loaded, a launch', async (t) => {
  const root = await madeUpRepository(t, {
    'driver/loader.js': 'export const load = (file) => ' + call(IMPORT, 'file') + ';',
    'driver/quiet.js': 'export const quiet = 1;',
  });
  const { problems } = await checkImports(root, {
    computedAllowed: {
      [join('driver', 'loader.js')]: { expression: /^file\)/, loads: ['studies'] },
      [join('driver', 'quiet.js')]: { expression: /^file\)/ },
    },
    launchesAllowed: { [`${join('driver', 'quiet.js')} -> app.js`]: true },
  });
  assert.deepEqual(problems.sort(), [
    'driver/loader.js: loads studies/, which holds no module (COMPUTED_ALLOWED)',
    'driver/quiet.js -> app.js: allowed a launch that is no longer made (LAUNCHES_ALLOWED)',
    'driver/quiet.js: allowed a computed import it no longer holds (COMPUTED_ALLOWED)',
  ]);
});

test('the repository has no cycle, no computed import and no upward arrow ' +
  '(report/ never imports driver/)', async () => {
  const { files, problems } = await checkImports();
  assert.ok(files.length > 100);
  assert.deepEqual(problems, []);
});
