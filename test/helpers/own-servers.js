// Servers a test owns, so it can freeze (SIGSTOP), thaw, crash (SIGKILL) or restart them
// under a running app. Each runs under embedded/guard.sh in the guard's process group, so a
// signal to the group reaches the server. Returns undefined after skipping (or, in CI,
// failing) t when the server program is not installed.
import { rm } from 'node:fs/promises';
import { startRedisServer } from '../../embedded/redis-server.js';
import { startMemcachedServer } from '../../embedded/memcached-server.js';
import { startTarantool } from '../../embedded/tarantool.js';
import { freePort } from '../../embedded/child-process.js';
import { signalGroup } from '../../util/process-group.js';
import { which } from '../../util/which.js';
import { unavailable } from './services.js';

function owned(t, start, port) {
  let server;
  const own = {
    port,
    get url() { return server.url; },
    async start() {
      server = await start(port);
      return own;
    },
    stop: () => server?.stop(),
    /** Sends signal (SIGSTOP, SIGCONT, SIGKILL...) to the server and its guard. */
    signal: (signal) => signalGroup(server.pid, signal),
  };
  t.after(async () => {
    own.signal('SIGCONT'); // a frozen server cannot stop
    await own.stop();
    if (server?.dir) await rm(server.dir, { recursive: true, force: true });
  });
  return own.start();
}

/** A redis-server keeping nothing on disk, on a port of its own that start() reuses. */
export async function ownRedis(t) {
  if (!which('redis-server')) return void unavailable(t, 'redis-server is not installed');
  return owned(t, (port) => startRedisServer({ port }), await freePort());
}

/** A memcached on a port of its own that start() reuses. */
export async function ownMemcached(t) {
  if (!which('memcached')) return void unavailable(t, 'memcached is not installed');
  return owned(t, (port) => startMemcachedServer({ port }), await freePort());
}

/** A tarantool with the storebench spaces (embedded/tarantool-init.lua), on a free port. */
export async function ownTarantool(t) {
  if (!which('tarantool')) return void unavailable(t, 'tarantool is not installed');
  return owned(t, () => startTarantool(), undefined);
}
