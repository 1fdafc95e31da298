// The embedded Tarantool on a free loopback port, in a temp directory removed when it stops.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort, startServer } from './child-process.js';
import { notOnPathReason, which } from '../util/which.js';
import { ServerUnavailableError } from '../util/errors.js';

const initScript = fileURLToPath(new URL('./tarantool-init.lua', import.meta.url));
const missingReason =
  'no TARANTOOL_URL and no tarantool on PATH; install tarantool (apt-get install tarantool) or set TARANTOOL_URL';
const user = 'storebench';

// memtxMb: default 64 MB, small for a shared machine. maxTupleSize: both engines' (default 1 MB).
export async function startTarantool({ path = process.env.PATH, memtxMb, maxTupleSize } = {}) {
  const command = which('tarantool', path);
  if (!command) {
    const reason = notOnPathReason({ command: 'tarantool', variable: 'TARANTOOL_URL', missing: missingReason, path });
    throw new ServerUnavailableError('NOT_INSTALLED', reason);
  }
  const dir = await mkdtemp(join(tmpdir(), 'storebench-tarantool-'));
  // A password of this run only, so nothing else on the machine can use the spaces.
  const password = randomBytes(12).toString('hex');
  const port = await freePort();
  let server;
  try {
    server = await startServer({
      name: 'tarantool',
      command,
      args: [initScript],
      port,
      cwd: dir,
      removeDir: dir,
      env: {
        PATH: path ?? '',
        STOREBENCH_TARANTOOL_PORT: String(port),
        STOREBENCH_TARANTOOL_USER: user,
        STOREBENCH_TARANTOOL_PASSWORD: password,
        ...(memtxMb ? { STOREBENCH_TARANTOOL_MEMTX_MB: String(memtxMb) } : {}),
        ...(maxTupleSize ? { STOREBENCH_TARANTOOL_MAX_TUPLE_SIZE: String(maxTupleSize) } : {}),
      },
    });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  let stopping;
  const stop = () => (stopping ??= server.stop().then(() => rm(dir, { recursive: true, force: true })));
  return { url: `tarantool://${user}:${password}@127.0.0.1:${port}`, port, dir, pid: server.pid, stop };
}
