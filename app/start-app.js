// The app, running: its settings resolved (config/precedence.js), its stores opened, the
// Express app listening, and a graceful close.
import { createApp } from './create-app.js';
import { createAppServer, deadlineProblems } from './http-server.js';
import { drainable } from './drain.js';
import { answerHttpEdges } from './http-edges.js';
import { openStores } from '../stores/index.js';
import { resolveSettings } from '../config/precedence.js';
import { settings as declared } from '../config/settings.js';
import { UsageError } from '../util/errors.js';

const SHUTDOWN_GRACE_MS = 8000;

/**
 * Opens the stores, builds the app, listens. Every setting not passed here comes from env,
 * Cloud Foundry or its default (config/settings.js): port, host, stores, embedded, logRequests,
 * metrics, serverTiming for the app; headersTimeoutMs, requestTimeoutMs, bodyIdleTimeoutMs, keepAliveTimeoutMs
 * for its HTTP server;
 * maxValueSize, maxBulkSize, writeToken for its write routes; store URLs, cloudantApikey,
 * postgresPoolSize, ... for the stores.
 *
 * @param {object} [options]  explicit settings by key, e.g. { port: 0, stores: ['memory'], redisUrl }
 * @param {object} [options.env]  the environment (default process.env)
 * @param {(line: string) => void} [options.log]  request log lines and errors
 * @param {(server: object) => void} [options.onServerReady]  told of each backing server as
 *   it is there or known unavailable (openStores' onServer), before the app listens
 * @param {(store: object) => void} [options.onStoreOpened]  told of each store as it comes up
 *   or is found unavailable (stores/index.js openStores' onOpened), before the app listens
 * @param {object} [options.worker]  set by app/cluster-worker.js alone: this is one of several
 *   app processes (workers, services, opening, deletingSeed for openStores' cluster;
 *   metricsOfAll; drain: drainable's whenQuiet and whenClosed; beforeListen)
 * @returns {Promise<{ url, port, bound, server, stores, close, workers }>}  url: where this
 *   machine reaches the app; bound: { address, port, family, allInterfaces } as listened on.
 *   Rejects with a UsageError listing every malformed setting. close() stops accepting, lets
 *   every request already sent finish (up to a grace period), closes the stores and stops every
 *   server the embedded default started. With the workers setting over 1 the app runs as
 *   that many processes (app/cluster-primary.js): then no server or stores (each worker has its
 *   own), and pids and lost (a line once a worker exits on its own) instead.
 */
export async function startApp({
  env = process.env, log = () => {}, onServerReady, onStoreOpened, worker, ...options
} = {}) {
  const unknown = Object.keys(options).filter((key) => !declared[key]);
  if (unknown.length) {
    throw new TypeError(`startApp: unknown option ${unknown.join(', ')} (settings are named in config/settings.js)`);
  }
  const { settings, problems } = resolveSettings({ options, env }, ['app', 'http', 'writes']);
  problems.push(...deadlineProblems(settings));
  if (problems.length) throw new UsageError(problems);
  if (settings.workers > 1 && !worker) {
    const { startAppCluster } = await import('./cluster-primary.js');
    return startAppCluster({ env, onServerReady, onStoreOpened, options, settings });
  }

  const stores = await openStores({
    names: settings.stores,
    env,
    options,
    embedded: settings.embedded,
    onServer: onServerReady,
    onOpened: onStoreOpened,
    reopen: true,
    ...(worker ? { cluster: worker } : {}),
  });
  const { maxValueSize, maxBulkSize, writeToken: token, bodyIdleTimeoutMs } = settings;
  const writes = { maxValueSize, maxBulkSize, token, bodyIdleTimeoutMs };
  const workers = worker?.workers ?? 1;
  const app = createApp(stores, {
    log,
    logRequests: settings.logRequests,
    metrics: settings.metrics,
    serverTiming: settings.serverTiming,
    writes,
    workers,
    metricsOfAll: worker?.metricsOfAll,
  });
  const server = createAppServer(app, settings);
  answerHttpEdges(server);
  const drain = drainable(server, { graceMs: SHUTDOWN_GRACE_MS, ...worker?.drain });
  try {
    await worker?.beforeListen?.(stores);
  } catch (error) {
    await stores.close();
    throw error;
  }
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, resolve);
  }).catch(async (error) => {
    await stores.close();
    throw error;
  });
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  const bound = boundAddress(server.address());
  // A wildcard address is not one to connect to: from here, loopback reaches it (:: is dual-stack).
  const reachAt = bound.allInterfaces ? '127.0.0.1' : bound.address;
  const url = `http://${reachAt.includes(':') ? `[${reachAt}]` : reachAt}:${bound.port}`;

  let closing;
  const close = () => (closing ??= (async () => {
    await drain();
    await stores.close();
  })());
  return { url, port: bound.port, bound, server, stores, close, workers };
}

/** server.address() with whether it is every interface (0.0.0.0, ::). */
function boundAddress({ address, port, family }) {
  return { address, port, family, allInterfaces: address === '0.0.0.0' || address === '::' };
}

/** How the app says where it listens: what it bound, and where this machine reaches it. */
export function listeningLine({ url, bound }) {
  if (!bound.allInterfaces) return `storebench app listening on ${url}`;
  const which = bound.address === '::' ? 'all interfaces, IPv6 and IPv4 (::)' : 'all IPv4 interfaces (0.0.0.0)';
  return `storebench app listening on ${which}, port ${bound.port}: ${url} from this machine`;
}
