// The top level of the CLIs (util/cli.js) in a process of its own: an error nobody caught ends
// as one line a user can read, never a stack trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('an error nobody caught ends the process the same way', () => {
  const script = "import('./util/cli.js').then(({ exitOnUncaught }) => { exitOnUncaught('node test'); " +
    "setTimeout(() => { throw new Error('boom'); }); Promise.reject(new Error('never reached')); })";
  const result = spawnSync(
    process.execPath,
    ['-e', script],
    { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH } },
  );
  assert.equal(result.status, 1);
  assert.equal(result.stderr, 'node test: unexpected error: never reached (STOREBENCH_DEBUG=1 shows where)\n');
});
