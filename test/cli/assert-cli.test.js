// --assert as a user runs it: node test exits 2 on a bad expression before any load, and node
// test report --assert exits 3 on a missed threshold of a saved run (test/fixtures/runs/before.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { closedPort } from '../helpers/driver-servers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const BEFORE = 'test/fixtures/runs/before.json';
const cli = (args) =>
  spawnSync(process.execPath, ['test.js', ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 });

test('node test --assert with a bad expression exits 2 before any load; ' +
  'report --assert exits 3 when one is missed', async () => {
  const port = await closedPort();
  const bad = cli(['--url', `http://127.0.0.1:${port}/memory/key1`, '--assert', 'p95<1ms', '--assert', 'rps>=10']);
  assert.equal(bad.status, 2, 'not 1: the closed port was never tried');
  assert.equal(
    bad.stderr,
    'node test: --assert "p95<1ms": unknown figure "p95" (use p50, p90, p99, p999, mean, max, rps or errors)\n' +
    'Run node test --help for usage.\n',
  );
  assert.equal(bad.stdout, '');

  const missed = cli(['report', BEFORE, '--assert', 'p50<5ms']);
  assert.equal(missed.status, 3);
  assert.match(missed.stdout, /\n## Thresholds /);
  assert.match(missed.stderr, /^node test: p50<5ms failed for slow: 2 of 2 steps, worst \d+\.\d\d ms at key1 c\d\n$/);
  const held = cli(['report', BEFORE, '--assert', 'errors=0', '--assert', 'fast:p50<=5ms']);
  assert.equal(held.status, 0, held.stderr);
  assert.match(held.stdout, /\nall 4 checks passed\n\n## Summary: /, 'the thresholds, then the summary last');
});
