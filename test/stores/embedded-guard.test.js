// With a bare PATH (no `id`, `cat` or `rm`) the embedded PostgreSQL said
// there was no postgres user although there is one, embedded/guard.sh stopped every server
// the moment it started, and once a postgres was left running with its directory gone. The
// embedded servers now start from a PATH holding node alone, and go, with their directories,
// however their parent ends.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { findServerBinaries } from '../../embedded/postgres-server.js';
import { startRedisServer } from '../../embedded/redis-server.js';
import { freePort, startServer } from '../../embedded/child-process.js';
import { groupMembers } from '../../util/process-group.js';
import { SYSTEM_DIRS, findTool, which } from '../../util/which.js';
import { waitUntil } from '../helpers/load.js';
import { unavailable } from '../helpers/services.js';

const fixture = new URL('../fixtures/embedded-server-child.js', import.meta.url).pathname;

/** A PATH with node on it and nothing else. */
async function bareDir(t) {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-bare-path-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await symlink(process.execPath, join(dir, 'node'));
  return dir;
}

/** Starts fixture's server in a child whose whole environment is PATH=path; resolves { child, pid, dir }. */
async function serverInChild(t, path, kind, ...args) {
  const child = spawn(
    process.execPath,
    [fixture, kind, ...args],
    { env: { PATH: path }, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  t.after(() => child.kill('SIGKILL'));
  const lines = createInterface({ input: child.stdout });
  const next = () => new Promise((resolve) => lines.once('line', resolve));
  const started = JSON.parse(await next());
  assert.equal(started.error, undefined, `the ${kind} server did not start from a bare PATH: ${started.error}`);
  return { child, next, ...started };
}

const noServerLeft = (pid, dir) => waitUntil(
  () => groupMembers(pid).length === 0 && !existsSync(dir),
  20_000,
  `left behind: processes ${groupMembers(pid).join(', ') || 'none'}, ${existsSync(dir) ? dir : 'no directory'}`,
);

const hasProc = () => groupMembers(process.pid) !== null;

test('from a PATH holding only node, the embedded PostgreSQL starts (as root: without `id`) and stop() ' +
  'leaves no process and no cluster dir', { timeout: 90_000 }, async (t) => {
  const path = await bareDir(t);
  if (!hasProc()) return unavailable(t, 'no /proc to look for left-over processes in');
  if (!findServerBinaries(path)) return unavailable(t, 'PostgreSQL server binaries are not installed');
  const { child, next, pid, dir } = await serverInChild(t, path, 'postgres');
  assert.ok(groupMembers(pid).length >= 2, 'the guard and postgres run');
  assert.ok(existsSync(dir));
  child.stdin.write('stop\n');
  assert.equal(await next(), 'stopped');
  await noServerLeft(pid, dir);
});

test('from a PATH holding only node, a parent killed with SIGKILL takes its embedded PostgreSQL ' +
  'and the cluster dir with it', { timeout: 90_000 }, async (t) => {
  const path = await bareDir(t);
  if (!hasProc()) return unavailable(t, 'no /proc to look for left-over processes in');
  if (!findServerBinaries(path)) return unavailable(t, 'PostgreSQL server binaries are not installed');
  const { child, pid, dir } = await serverInChild(t, path, 'postgres');
  child.kill('SIGKILL');
  await noServerLeft(pid, dir);
});

test('from a PATH holding only node, guard.sh stops a server and removes its directory when the ' +
  'parent is killed with SIGKILL', { timeout: 60_000 }, async (t) => {
  const path = await bareDir(t);
  if (!hasProc()) return unavailable(t, 'no /proc to look for left-over processes in');
  const redisServer = findTool('redis-server');
  if (!redisServer) return unavailable(t, 'redis-server is not installed');
  const { child, pid, dir } = await serverInChild(t, path, 'redis', redisServer);
  assert.ok(existsSync(dir));
  child.kill('SIGKILL');
  await noServerLeft(pid, dir);
});

test('a guard killed with SIGKILL does not orphan its server: stop() ' +
  'ends what is left of its process group', { timeout: 60_000 }, async (t) => {
  if (!hasProc()) return unavailable(t, 'no /proc to look for left-over processes in');
  if (!which('redis-server')) return unavailable(t, 'redis-server is not installed');
  const port = await freePort();
  const server = await startServer({
    name: 'redis-server',
    command: which('redis-server'),
    args: ['--port', String(port), '--bind', '127.0.0.1', '--save', ''],
    port,
  });
  t.after(() => server.stop());
  process.kill(server.pid, 'SIGKILL'); // the guard alone
  await waitUntil(() => !groupMembers(server.pid).includes(server.pid), 5000, 'the guard did not die');
  assert.ok(groupMembers(server.pid).length >= 1, 'redis-server outlived its guard');
  await server.stop();
  assert.deepEqual(groupMembers(server.pid), []);
});

test('a server program installed off PATH is not called "not installed": the reason says where it is', async (t) => {
  const path = await bareDir(t);
  const installed = which('redis-server', SYSTEM_DIRS.join(':'));
  if (!installed) return unavailable(t, `redis-server is in none of ${SYSTEM_DIRS.join(', ')}`);
  await assert.rejects(startRedisServer({ path }), {
    code: 'NOT_INSTALLED',
    message: `no REDIS_URL and no redis-server on PATH; it is installed at ${installed}, ` +
      `but ${dirname(installed)} is not on PATH: add it or set REDIS_URL`,
  });
});
