// The embedded Redis: a redis-server on a free loopback port that keeps nothing on disk.
import { freePort, startServer } from './child-process.js';
import { notOnPathReason, which } from '../util/which.js';
import { ServerUnavailableError } from '../util/errors.js';

const missingReason = 'no REDIS_URL and no redis-server on PATH; install redis-server or set REDIS_URL';

export async function startRedisServer({ path = process.env.PATH, port } = {}) {
  const command = which('redis-server', path);
  if (!command) {
    const reason = notOnPathReason({ command: 'redis-server', variable: 'REDIS_URL', missing: missingReason, path });
    throw new ServerUnavailableError('NOT_INSTALLED', reason);
  }
  port ??= await freePort();
  const server = await startServer({
    name: 'redis-server',
    command,
    args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--logfile', ''],
    port,
  });
  return { url: `redis://127.0.0.1:${port}`, port, pid: server.pid, stop: server.stop };
}
