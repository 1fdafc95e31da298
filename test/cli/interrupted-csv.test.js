// An interrupted run's CSV said nothing of the interruption, though README and docs/errors.md
// promised the `interrupted` marker: a partial sweep read like a finished one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interruptAfter, runDriverCli } from '../helpers/driver-cli.js';
import { startTestServer } from '../helpers/driver-servers.js';

async function tempDir(t) {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-h18c-csv-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const csvRows = (text) => text.trim().split('\n').map((line) => line.split(','));

test('Ctrl-C: the CSV marks every row interrupted, and a finished run\'s CSV says false', async (t) => {
  const server = await startTestServer(t, { sleepMs: 20 });
  const dir = await tempDir(t);
  const [jsonFile, csvFile] = [join(dir, 'partial.json'), join(dir, 'partial.csv')];
  // Six steps of 25 requests held 20 ms each (~0.5 s a step): SIGINT once the first is done.
  const url = `${server.url}/memory/key1`;
  const args = ['--url', url, '-c', '1,1,1,1,1,1', '-n', '25', '--warmup', '0', '--json', jsonFile, '--csv', csvFile];
  const stopped = await runDriverCli(args, {
    onSpawn: interruptAfter(server, 30),
  });
  assert.equal(stopped.status, 130, stopped.stderr);
  const saved = JSON.parse(await readFile(jsonFile, 'utf8'));
  assert.equal(saved.interrupted, true);
  const [header, ...rows] = csvRows(await readFile(csvFile, 'utf8'));
  assert.equal(header.at(-1), 'interrupted', 'the run\'s own column comes last');
  assert.equal(rows.length, saved.steps.length, 'one row per finished step');
  assert.ok(rows.length >= 1 && rows.length < 6, `${rows.length} steps finished`);
  for (const row of rows) assert.equal(row.at(-1), 'true');

  const finished = await runDriverCli(['--url', url, '-c', '1', '-n', '5', '--warmup', '0', '--csv', csvFile]);
  assert.equal(finished.status, 0, finished.stderr);
  const [, ...finishedRows] = csvRows(await readFile(csvFile, 'utf8'));
  assert.deepEqual(finishedRows.map((row) => row.at(-1)), ['false']);
});
