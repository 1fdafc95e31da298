import assert from 'node:assert/strict';
import { spawn, execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { which } from '../../util/which.js';
import { reachable, unavailable } from '../helpers/services.js';

const cli = fileURLToPath(new URL('../../scripts/redis-cluster.js', import.meta.url));
const run = promisify(execFile);

test('cluster:start holds a working cluster and prints its URLs; cluster:stop stops every node', async (t) => {
  if (!which('redis-server') || !which('redis-cli')) {
    return unavailable(t, 'redis-server and redis-cli are not installed');
  }
  const dir = await mkdtemp(join(tmpdir(), 'storebench-cli-test-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const env = { ...process.env, STOREBENCH_CLUSTER_STATE: join(dir, 'state.json') };

  const holder = spawn(process.execPath, [cli, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => holder.once('exit', resolve));
  t.after(() => holder.kill('SIGKILL'));
  let stdout = '';
  const urls = await new Promise((resolve, reject) => {
    holder.stdout.on('data', (chunk) => {
      stdout += chunk;
      const line = stdout.match(/^REDIS_CLUSTER_URLS=(.+)$/m);
      if (line) resolve(line[1].split(','));
    });
    holder.once('exit', (code) => reject(new Error(`start exited (${code}) before printing URLs`)));
  });
  assert.equal(urls.length, 6);
  const { stdout: info } = await run('redis-cli', ['-u', urls[3], 'cluster', 'info']);
  assert.match(info, /cluster_state:ok/);

  // A second holder is refused: one state file, one cluster.
  await assert.rejects(run(process.execPath, [cli, 'start'], { env }), (error) => error.code === 1 && /already held/.test(error.stderr));

  await run(process.execPath, [cli, 'stop'], { env });
  assert.equal(await exited, 0);
  for (const url of urls) assert.equal(await reachable(url), false, `${url} is gone`);
});

test('an unknown command prints the usage and exits 2', async () => {
  await assert.rejects(run(process.execPath, [cli, 'restart']), (error) => error.code === 2 && /Usage: .* start\|stop/.test(error.stderr));
});
