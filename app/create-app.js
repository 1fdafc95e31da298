// The app serving stores, on one framework. It does not listen: tests mount it on port 0,
// app/start-app.js elsewhere.
import { defaults } from '../config/settings.js';
import { createRoutes } from '../routes/table.js';
import { markArrival } from '../routes/server-timing-header.js';
import { frameworkListener } from './frameworks/index.js';
import { createAppMetrics } from './metrics.js';
import { clientLeft } from './client-left.js';

/**
 * A node:http request listener: the app over `stores` (opened, stores/store-set.js), served by
 * `framework` (express, fastify or node: app/frameworks/).
 * @param {import('../stores/store-set.js').StoreSet} stores
 * @param {{ framework?: string, log?: (line: string) => void, logRequests?: boolean, metrics?: boolean,
 *   serverTiming?: boolean, writes?: object, workers?: number, metricsOfAll?: object, extra?: object[] }} [options]
 *   metrics: true, or the recorder of app/metrics.js to share
 *   writes: routes/writes.js's options; extra: routes/table.js's extra routes
 * @returns {Promise<(req: object, res: object) => void>}
 */
export async function createApp(stores, {
  framework = defaults.framework[0], log = () => {}, logRequests = false, metrics = false,
  serverTiming = defaults.serverTiming, writes = {}, workers = 1, metricsOfAll, extra,
} = {}) {
  // metrics: true, or a recorder several frameworks' apps share (app/start-app.js).
  const recorder = metrics === true ? createAppMetrics(stores, metricsOfAll) : metrics || null;
  if (recorder) stores.observer = recorder.observeOperation;
  const surface = createRoutes(stores, {
    log, writes, workers, framework, metrics: recorder, logRequest: logRequests ? requestLogger(log) : null, extra,
  });
  const listener = await frameworkListener(framework, surface);
  if (!serverTiming) return listener;
  // First, before any framework: the header's `app` time counts from the request's arrival.
  return (req, res) => {
    markArrival(req);
    listener(req, res);
  };
}

function requestLogger(log) {
  return (req, res) => {
    const start = process.hrtime.bigint();
    const { socket } = req;
    const ms = () => (Number(process.hrtime.bigint() - start) / 1e6).toFixed(2);
    let finishedMs;
    res.once('finish', () => { finishedMs = ms(); });
    res.once('close', () => {
      const what = !clientLeft(res, socket) ? res.statusCode : `client left mid-${req.complete ? 'answer' : 'request'}`;
      log(`${req.method} ${req.url} ${what} ${finishedMs ?? ms()} ms`);
    });
  };
}
