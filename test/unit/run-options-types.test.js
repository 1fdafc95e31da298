// index.d.ts's RunOptions and docs/api.md's list of run()'s options against the flags run()
// accepts (node test's long flags minus the CLI-only ones), so a new flag cannot go unlisted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { camelCase, RUN_FLAGS } from '../../options/table.js';
import { CLI_ONLY, codeOptionProblems } from '../../options/code.js';

const root = new URL('../../', import.meta.url);
const accepted = () => Object.keys(RUN_FLAGS).map(camelCase).filter((name) => !(name in CLI_ONLY)).sort();

test('index.d.ts\'s RunOptions names every flag run() accepts and nothing else', async () => {
  const text = await readFile(new URL('index.d.ts', root), 'utf8');
  const body = /export interface RunOptions \{\n([\s\S]*?)\n\}/.exec(text)[1];
  const names = [...body.matchAll(/^ {2}(\w+)\?:/gm)].map((match) => match[1]).sort();
  assert.ok(names.length >= 30);
  assert.deepEqual(names, accepted());
});

test('docs/api.md lists every option run() accepts, and names every CLI-only one as a problem', async () => {
  const text = await readFile(new URL('docs/api.md', root), 'utf8');
  const list = /`options` are the long flags of `node test`[^:]*:([\s\S]*?)\. A list flag/.exec(text)[1];
  const names = [...list.matchAll(/`(\w+)`/g)].map((match) => match[1]).sort();
  assert.deepEqual(names, accepted());
  const refused = /Names that mean nothing to a run from code are problems too:([\s\S]*?)command\s+line\./.exec(text)[1];
  const refusedNames = [...refused.matchAll(/`(\w+)`/g)].map((match) => match[1]).filter((name) => name !== 'report');
  assert.deepEqual(refusedNames.sort(), Object.keys(CLI_ONLY).sort());
});

test('a command run() cannot do is a problem, not a quiet single run', () => {
  assert.deepEqual(codeOptionProblems({}, 'run'), []);
  assert.deepEqual(codeOptionProblems({}, 'k8s'), ['run() cannot do the command line\'s "k8s"']);
  // --parts already names itself: the command is not named twice.
  assert.equal(codeOptionProblems({ parts: 2, local: true }, 'parts').length, 2);
});
