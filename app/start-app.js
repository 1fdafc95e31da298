// The app, running: its settings resolved (config/precedence.js), its stores opened, the
// Express app listening, and a graceful close.
import { createApp } from './create-app.js';
import { createAppServer, deadlineProblems } from './http-server.js';
import { drainable } from './drain.js';
import { listen } from './listen.js';
import { answerHttpEdges } from './http-edges.js';
import { openStores } from '../stores/index.js';
import { resolveSettings } from '../config/precedence.js';
import { settings as declared } from '../config/settings.js';
import { UsageError } from '../util/errors.js';

const SHUTDOWN_GRACE_MS = 8000;

/**
 * Opens the stores, builds the app, listens. Settings not passed come from env, Cloud Foundry or their
 * defaults (config/settings.js); options as app.d.ts's StartAppOptions, plus worker (set by
 * app/cluster-worker.js alone). close() lets requests already sent finish (up to a grace period),
 * closes the stores and stops the embedded servers. With workers over 1 (app/cluster-primary.js):
 * pids and lost instead of server and stores.
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
  server.keepAliveTimeout = settings.keepAliveTimeoutMs;
  try {
    await worker?.beforeListen?.(stores);
  } catch (error) {
    await stores.close();
    throw error;
  }
  // A worker does not listen: the primary owns the listener and hands it connections.
  const listening = () => listen(server, settings).catch(async (error) => {
    await stores.close();
    throw error;
  });
  const where = worker ? worker.serve(server) : await listening();
  let closing;
  const close = () => (closing ??= (async () => {
    await drain();
    await stores.close();
  })());
  return { ...where, server, stores, close, workers };
}
