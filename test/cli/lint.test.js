// npm run lint's house rules on dead code and long functions, each shown failing on a planted
// violation: knip (knip.config.js) finds an unused export, file and dependency in a copy of the
// repository; ESLint (eslint.config.js) refuses a product function over 100 lines, a disable
// comment or not, and lets a test's suite be longer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { appendFile, copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ESLint } from 'eslint';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const KNIP = join(ROOT, 'node_modules', 'knip', 'bin', 'knip.js');
const run = promisify(execFile);

// The repository's files as git sees them (tracked, and new ones not ignored), with its node_modules.
async function repositoryCopy(t) {
  const copy = await mkdtemp(join(tmpdir(), 'storebench-lint-'));
  t.after(() => rm(copy, { recursive: true, force: true }));
  const { stdout } = await run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT });
  for (const path of stdout.split('\0').filter(Boolean)) {
    await mkdir(dirname(join(copy, path)), { recursive: true });
    await copyFile(join(ROOT, path), join(copy, path)).catch((error) => {
      if (error.code !== 'ENOENT') throw error; // deleted in the working tree, not yet committed
    });
  }
  await symlink(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
  return copy;
}

test('knip fails on a planted unused export, an unused file and an unused dependency, naming each', async (t) => {
  const copy = await repositoryCopy(t);
  await appendFile(join(copy, 'util', 'bytes.js'), '\nexport const plantedDeadExport = 1;\n');
  await writeFile(join(copy, 'util', 'planted-file.js'), 'export const planted = 1;\n');
  const manifest = JSON.parse(await readFile(join(copy, 'package.json'), 'utf8'));
  assert.match(manifest.scripts.lint, /&& knip$/, 'npm run lint ends with knip');
  manifest.dependencies['left-pad'] = '^1.3.0';
  await writeFile(join(copy, 'package.json'), JSON.stringify(manifest, null, 2));

  const failed = await run(process.execPath, [KNIP, '--reporter', 'json', '--no-progress'], { cwd: copy })
    .then(() => assert.fail('knip passed'), (error) => error);
  assert.equal(failed.code, 1, failed.stderr);
  const issues = JSON.parse(failed.stdout).issues;
  const of = (file) => issues.find((issue) => issue.file === file) ?? {};
  assert.deepEqual(of('util/bytes.js').exports?.map(({ name }) => name), ['plantedDeadExport']);
  assert.deepEqual(of('util/planted-file.js').files?.map(({ name }) => name), ['util/planted-file.js']);
  assert.deepEqual(of('package.json').dependencies?.map(({ name }) => name), ['left-pad']);
});

// A function of `lines` lines, counting its first and last, each between a blank line and a comment
// when `padded` (neither counts).
function functionOf(lines, { padded = false } = {}) {
  const line = (i) => (padded ? `\n  // step ${i}\n  total += ${i};` : `  total += ${i};`);
  const body = Array.from({ length: lines - 4 }, (_, i) => line(i));
  return `export function planted() {\n  let total = 0;\n${body.join('\n')}\n  return total;\n}\n`;
}

test('a product function over 100 lines fails ESLint, a disable comment or not; blank lines and comments do not ' +
  'count; a test\'s may be longer', async () => {
  const eslint = new ESLint({ cwd: ROOT });
  const tooLong = async (text, path) => {
    const [result] = await eslint.lintText(text, { filePath: join(ROOT, path) });
    return result.messages.filter(({ ruleId }) => ruleId === 'max-lines-per-function').map(({ message }) => message);
  };
  assert.deepEqual(await tooLong(functionOf(101), 'driver/planted.js'),
    ['Function \'planted\' has too many lines (101). Maximum allowed is 100.']);
  assert.equal((await tooLong(`// eslint-disable-next-line max-lines-per-function\n${functionOf(101)}`,
    'stores/planted.js')).length, 1, 'a disable comment in the product is ignored');
  assert.deepEqual(await tooLong(functionOf(100, { padded: true }), 'report/planted.js'), []);
  assert.deepEqual(await tooLong(functionOf(150), 'test/unit/planted.test.js'), []);
});
