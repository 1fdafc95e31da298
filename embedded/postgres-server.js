// The embedded PostgreSQL: a throwaway cluster (initdb into a temp dir) served by the distribution's
// binaries on a free loopback port. postgres refuses to run as root: as root, the cluster belongs
// to the `postgres` user and every binary runs as it through setpriv.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, realpathSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, startServer } from './child-process.js';
import { SYSTEM_DIRS, findTool, which } from '../util/which.js';
import { systemUser } from '../util/system-user.js';
import { ServerUnavailableError } from '../util/errors.js';

const run = promisify(execFile);

export const missingReason =
  'no POSTGRES_URL and no PostgreSQL server binaries; install postgresql or set POSTGRES_URL';
const noUserReason = 'no POSTGRES_URL, and postgres refuses to run as root: ' +
  'no `postgres` user in /etc/passwd (nor from `id`) to run it as; install postgresql, which creates it, ' +
  'or set POSTGRES_URL';
const noSetprivReason = 'no POSTGRES_URL, and as root postgres must run as the postgres user through ' +
  `setpriv, which is neither on PATH nor in ${SYSTEM_DIRS.join(', ')}; install util-linux or set POSTGRES_URL`;

export function findServerBinaries(path = process.env.PATH, root = '/usr/lib/postgresql') {
  // PATH may hold symlinks (/usr/local/bin/initdb): the real directory has pg_isready too.
  const onPath = which('initdb', path);
  if (onPath && which('postgres', path)) return dirname(realpathSync(onPath));
  if (!existsSync(root)) return null;
  const newest = readdirSync(root)
    .filter((version) => /^\d+$/.test(version))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(root, version, 'bin'))
    .find((bin) => existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres')));
  return newest ?? null;
}

// /etc/passwd needs no program on PATH; `id` also sees users from LDAP and the like.
async function postgresUser(path) {
  const local = systemUser('postgres');
  if (local) return local;
  const id = findTool('id', path);
  if (!id) return null;
  try {
    const [uid, gid] = await Promise.all([run(id, ['-u', 'postgres']), run(id, ['-g', 'postgres'])]);
    return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
  } catch {
    return null;
  }
}

export async function postgresRunner({ path = process.env.PATH, root } = {}) {
  const binDir = findServerBinaries(path, root);
  if (!binDir) throw new ServerUnavailableError('NOT_INSTALLED', missingReason);
  if (process.getuid?.() !== 0) return { binDir, user: null, asUser: (command, args) => [command, args] };
  const user = await postgresUser(path);
  if (!user) throw new Error(noUserReason);
  const setpriv = findTool('setpriv', path);
  if (!setpriv) throw new ServerUnavailableError('NOT_INSTALLED', noSetprivReason);
  const asUser = (command, args) =>
    [setpriv, [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--', command, ...args]];
  return { binDir, user, asUser };
}

export async function createCluster(runner) {
  const dataDir = await mkdtemp(join(tmpdir(), 'storebench-postgres-'));
  if (runner.user) await chown(dataDir, runner.user.uid, runner.user.gid);
  const [command, args] = runner.asUser(join(runner.binDir, 'initdb'), [
    '-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions',
  ]);
  try {
    await run(command, args, { cwd: dataDir });
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${(error.stderr || error.message).trim().split('\n').pop()}`);
  }
  return dataDir;
}

// Loopback only, no Unix socket. With removeOnExit the data dir goes with the server, even if we are killed.
export async function runCluster(runner, dataDir, port, { removeOnExit = false } = {}) {
  const [command, args] = runner.asUser(join(runner.binDir, 'postgres'), [
    '-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=',
  ]);
  const server = await startServer({
    name: 'postgres',
    command,
    args,
    port,
    cwd: dataDir,
    stopSignal: 'INT',
    removeDir: removeOnExit ? dataDir : '',
  });
  // The port opens before recovery finishes; pg_isready says when queries are welcome.
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      await run(join(runner.binDir, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(port)]);
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        await server.stop();
        throw new Error(`postgres did not become ready on port ${port}`, { cause: error });
      }
      await sleep(100);
    }
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, pid: server.pid, stop: server.stop };
}

export async function startPostgresServer({ path = process.env.PATH, root } = {}) {
  const runner = await postgresRunner({ path, root });
  const dataDir = await createCluster(runner);
  try {
    const server = await runCluster(runner, dataDir, await freePort(), { removeOnExit: true });
    const stop = async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
    return { url: server.url, port: server.port, pid: server.pid, dataDir, stop };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
