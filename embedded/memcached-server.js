// The embedded memcached: the distribution's memcached on a free loopback port (TCP only).
import { readFileSync } from 'node:fs';
import { freePort, startServer } from './child-process.js';
import { notOnPathReason, which } from '../util/which.js';
import { ServerUnavailableError } from '../util/errors.js';

export const missingReason = 'no MEMCACHED_URL and no memcached on PATH; install memcached or set MEMCACHED_URL';

// memcached will not run as root without -u; the package's own `memcache` user, else nobody.
function runAsUser() {
  if (process.getuid?.() !== 0) return [];
  let passwd = '';
  try { passwd = readFileSync('/etc/passwd', 'utf8'); } catch {}
  return ['-u', /^memcache:/m.test(passwd) ? 'memcache' : 'nobody'];
}

const MB = 1024 ** 2;

// -I must be a multiple of the chunk size (512 KB), and at most half the memory cap (-m, 64 MB by
// default, a cap, not memory taken up front).
const itemSizeArgs = (itemSize) => {
  if (!itemSize || itemSize === MB) return [];
  const memory = 2 * itemSize > 64 * MB ? ['-m', String(Math.ceil((2 * itemSize) / MB))] : [];
  return ['-I', `${itemSize / 1024}k`, ...memory];
};

export async function startMemcachedServer({ path = process.env.PATH, port, itemSize } = {}) {
  const command = which('memcached', path);
  if (!command) {
    const reason = notOnPathReason({ command: 'memcached', variable: 'MEMCACHED_URL', missing: missingReason, path });
    throw new ServerUnavailableError('NOT_INSTALLED', reason);
  }
  port ??= await freePort();
  const server = await startServer({
    name: 'memcached',
    command,
    args: ['-l', '127.0.0.1', '-p', String(port), '-U', '0', ...itemSizeArgs(itemSize), ...runAsUser()],
    port,
  });
  return { url: `memcached://127.0.0.1:${port}`, port, pid: server.pid, stop: server.stop };
}
