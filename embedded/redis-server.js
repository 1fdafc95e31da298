// The embedded Redis: a redis-server on a free loopback port that keeps nothing on disk.
import { freePort, startServer } from './child-process.js';
import { which } from '../util/which.js';
import { ServerUnavailableError } from '../util/errors.js';

export const missingReason = 'no REDIS_URL and no redis-server on PATH; install redis-server or set REDIS_URL';

/** Starts redis-server; returns { url, stop() } or throws with the reason. */
export async function startRedisServer({ path = process.env.PATH } = {}) {
  const command = which('redis-server', path);
  if (!command) throw new ServerUnavailableError('NOT_INSTALLED', missingReason);
  const port = await freePort();
  const server = await startServer({
    name: 'redis-server',
    command,
    args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--logfile', ''],
    port,
  });
  return { url: `redis://127.0.0.1:${port}`, port, stop: server.stop };
}
