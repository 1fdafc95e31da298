// app.js in a CHILD process on a free port: in the driver's own process they would share one
// event loop and each slow the other.
import { fileURLToPath } from 'node:url';
import { RunError } from '../util/errors.js';
import { joinUrl } from './targets.js';
import { httpGet } from './http-get.js';
import { forkListening } from '../util/fork-child.js';

const APP_PATH = fileURLToPath(new URL('../app.js', import.meta.url));
const START_TIMEOUT_MS = 120_000; // the embedded servers (a Redis Cluster, PostgreSQL...) start first
const STOP_TIMEOUT_MS = 15_000;
export { TOKEN_ENV } from './app-launch.js';

/** Forks app.js with --port 0 and waits for it: { url, child, pids, stop(), output(), exited }. */
export async function startAppProcess({
  stores, args = [], appPath = APP_PATH, env = process.env, startTimeoutMs = START_TIMEOUT_MS,
} = {}) {
  const storesArgs = stores?.length ? ['--stores', stores.join(',')] : [];
  const argv = ['--port', '0', '--host', '127.0.0.1', ...storesArgs, ...args];
  let started;
  try {
    // detached: its own process group, so a Ctrl-C reaches only the driver, which stops the app in order
    // (app.js also stops when the IPC channel closes, so it never outlives the driver).
    started = await forkListening(appPath, argv, {
      name: 'app.js', env, detached: true, timeoutMs: startTimeoutMs, stopTimeoutMs: STOP_TIMEOUT_MS,
    });
  } catch (error) {
    throw new RunError(`${error.message}:\n${error.output}`);
  }
  const { child, message, output, exited, stop } = started;
  try {
    await waitForHealthy(message.url);
    // One URL per framework it serves (an app.js older than --framework names none: Express).
    const frameworks = message.frameworks ?? [{ framework: 'express', url: message.url }];
    return { url: message.url, frameworks, child, pids: message.pids ?? [], stop, output, exited };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitForHealthy(url, attempts = 50) {
  let last;
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    try {
      const { status } = await httpGet(joinUrl(url, 'healthz'), { timeoutMs: 2000, discardBody: true });
      if (status === 200) return;
      last = `HTTP ${status}`;
    } catch (error) {
      last = error.code ?? error.message;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new RunError(`app.js is listening at ${url} but /healthz never answered 200 (last: ${last})`);
}

const EMBEDDED_SERVERS = {
  redis: 'redis-server',
  'redis-cluster': 'a Redis Cluster',
  memcached: 'memcached',
  couchdb: 'a CouchDB stand-in',
  postgres: 'PostgreSQL',
  tarantool: 'tarantool',
};

/** The servers app.js will try to start for `stores`: a guess, for the "starting" line only. */
export async function serversToStart(stores, env = process.env) {
  const [{ adapters }, { services }, { resolveSetting }] = await Promise.all([
    import('../stores/index.js'),
    import('../config/services.js'),
    import('../config/precedence.js'),
  ]);
  const chosen = adapters.filter((adapter) => !stores?.length || stores.includes(adapter.name));
  const needed = [...new Set(chosen.flatMap((adapter) => adapter.needs))];
  const embedded = (service) => resolveSetting(services[service].location, { env }).source === 'default';
  return needed.filter(embedded).map((service) => EMBEDDED_SERVERS[service] ?? service);
}
