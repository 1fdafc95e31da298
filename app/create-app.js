// The Express app serving stores. It does not listen: tests mount it on port 0, app/start-app.js elsewhere.
import express from 'express';
import { pageRoutes } from '../routes/page.js';
import { statusRoutes } from '../routes/status.js';
import { defaults } from '../config/settings.js';
import { dataRoutes } from '../routes/data.js';
import { methodRoutes } from '../routes/methods.js';
import { writeRoutes } from '../routes/writes.js';
import { resultsRoutes } from '../routes/results.js';
import { notFound, errorHandler } from '../routes/errors.js';
import { StorebenchError } from '../util/errors.js';
import { createAppMetrics } from './metrics.js';
import { startTiming } from '../routes/server-timing.js';
import { clientLeft } from './client-left.js';

/**
 * @param {import('../stores/store-set.js').StoreSet} stores  the opened stores
 * @param {{ log?: (line: string) => void, logRequests?: boolean, metrics?: boolean, serverTiming?: boolean,
 *   writes?: object, workers?: number, metricsOfAll?: object }} [options]  writes: routes/writes.js's options
 */
export function createApp(stores, {
  log = () => {}, logRequests = false, metrics = false, serverTiming = defaults.serverTiming, writes = {}, workers = 1,
  metricsOfAll,
} = {}) {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag'); // hashing every 270 KB body would be benchmarked along with the store
  // First, so the header's `app` time counts from the request's arrival in the app.
  if (serverTiming) app.use(startTiming);
  if (metrics) {
    const recorder = createAppMetrics(stores, metricsOfAll);
    stores.observer = recorder.observeOperation;
    app.use(recorder.observeRequests, recorder.router);
  }
  if (logRequests) app.use(requestLogger(log));
  app.use(requireHost);
  app.use(resultsRoutes(writes)); // never a store: the split run's results area (npm run load:cf)
  app.use(methodRoutes(stores));
  app.use(pageRoutes(stores));
  app.use(statusRoutes(stores, { limits: { maxValueSize: writes.maxValueSize ?? defaults.maxValueSize }, workers }));
  app.use(writeRoutes(stores, writes));
  app.use(dataRoutes(stores));
  app.use(notFound);
  app.use(errorHandler(log));
  return app;
}

// HTTP/1.1 requires Host (RFC 9112 3.2): refused here as JSON, not Node's empty 400.
function requireHost(req, res, next) {
  if (req.headers.host !== undefined || req.httpVersion === '1.0') return next();
  res.set('Connection', 'close');
  next(new StorebenchError('an HTTP/1.1 request needs a Host header', { code: 'BAD_REQUEST' }));
}

function requestLogger(log) {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    const { socket } = req;
    const ms = () => (Number(process.hrtime.bigint() - start) / 1e6).toFixed(2);
    let finishedMs;
    res.once('finish', () => { finishedMs = ms(); });
    res.once('close', () => {
      const what = !clientLeft(res, socket) ? res.statusCode : `client left mid-${req.complete ? 'answer' : 'request'}`;
      log(`${req.method} ${req.originalUrl} ${what} ${finishedMs ?? ms()} ms`);
    });
    next();
  };
}
