// The app, running: its settings resolved (config/precedence.js), its stores opened, the app
// listening on each framework asked for (Express unless told), and a graceful close.
import { createApp } from './create-app.js';
import { createAppServer, deadlineProblems } from './http-server.js';
import { drainable } from './drain.js';
import { listen } from './listen.js';
import { answerHttpEdges } from './http-edges.js';
import { openStores } from '../stores/index.js';
import { resolveSettings } from '../config/precedence.js';
import { settings as declared } from '../config/settings.js';
import { UsageError } from '../util/errors.js';
import { createAppMetrics } from './metrics.js';
import { createProfiler } from './profiler.js';
import { profileRoutes } from '../routes/profile.js';

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
  let served;
  try {
    served = await serveFrameworks(stores, settings, { log, worker });
    await worker?.beforeListen?.(stores);
  } catch (error) {
    await stores.close();
    throw error;
  }
  const workers = worker?.workers ?? 1;
  // A worker does not listen: the primary owns the listeners and hands it connections.
  let places = [];
  if (worker) worker.serve(new Map(served.map(({ framework, server }) => [framework, server])));
  else {
    try {
      places = await listenEach(served, settings);
    } catch (error) {
      await Promise.allSettled(served.map(({ server }) => server.listening && server.close()));
      await stores.close();
      throw error;
    }
  }
  let closing;
  const close = () => (closing ??= (async () => {
    await Promise.all(served.map(({ drain }) => drain()));
    await stores.close();
  })());
  const frameworks = served.map(({ framework }, i) => ({ framework, ...places[i] }));
  return { ...places[0], frameworks, server: served[0].server, stores, close, workers };
}

// One server per framework, each the whole app over the same stores.
async function serveFrameworks(stores, settings, { log, worker }) {
  const { maxValueSize, maxBulkSize, writeToken: token, bodyIdleTimeoutMs } = settings;
  const writes = { maxValueSize, maxBulkSize, token, bodyIdleTimeoutMs };
  // One --metrics registry for all of them: each request is counted once, whichever port it came to.
  const metrics = settings.metrics ? createAppMetrics(stores, worker?.metricsOfAll) : false;
  // With workers, a profile is of every process: the primary asks each (app/cluster-primary.js).
  const profiling = worker?.profiling ?? oneProcessProfiling();
  const extra = profileRoutes(profiling, { allowed: settings.allowProfiling, token });
  const served = [];
  for (const framework of settings.framework) {
    const listener = await createApp(stores, {
      framework,
      log,
      logRequests: settings.logRequests,
      metrics,
      serverTiming: settings.serverTiming,
      writes,
      workers: worker?.workers ?? 1,
      extra,
    });
    const server = createAppServer(listener, settings);
    answerHttpEdges(server);
    const drain = drainable(server, { graceMs: SHUTDOWN_GRACE_MS, ...worker?.drain });
    server.keepAliveTimeout = settings.keepAliveTimeoutMs;
    served.push({ framework, server, drain });
  }
  return served;
}

// The first framework on the port, the next on the ports after it (or each a free one on port 0).
async function listenEach(served, settings) {
  const places = [];
  for (const [i, { server }] of served.entries()) {
    const port = settings.port === 0 ? 0 : settings.port + i;
    places.push(await listen(server, { ...settings, port }));
  }
  return places;
}

function oneProcessProfiling() {
  const profiler = createProfiler();
  return { start: async (intervalUs) => [await profiler.start(intervalUs)], stop: async () => [await profiler.stop()] };
}
