// The Express app serving stores: routes in, nothing else. Pure: it does not listen, so
// tests mount it on port 0 and app/start-app.js decides where it listens.
import express from 'express';
import { pageRoutes } from '../routes/page.js';
import { statusRoutes } from '../routes/status.js';
import { defaults } from '../config/settings.js';
import { dataRoutes } from '../routes/data.js';
import { methodRoutes } from '../routes/methods.js';
import { writeRoutes } from '../routes/writes.js';
import { notFound, errorHandler } from '../routes/errors.js';

/**
 * @param {import('../stores/store-set.js').StoreSet} stores  the opened stores
 * @param {{ log?: (line: string) => void, logRequests?: boolean, writes?: object }} [options]
 *   writes: the write routes' limits, token and loopback check (routes/writes.js)
 */
export function createApp(stores, { log = () => {}, logRequests = false, writes = {} } = {}) {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag'); // hashing every 270 KB body would be benchmarked along with the store
  if (logRequests) app.use(requestLogger(log));
  app.use(methodRoutes(stores));
  app.use(pageRoutes(stores));
  app.use(statusRoutes(stores, { limits: { maxValueSize: writes.maxValueSize ?? defaults.maxValueSize } }));
  app.use(writeRoutes(stores, writes));
  app.use(dataRoutes(stores));
  app.use(notFound);
  app.use(errorHandler(log));
  return app;
}

function requestLogger(log) {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      log(`${req.method} ${req.originalUrl} ${res.statusCode} ${ms.toFixed(2)} ms`);
    });
    next();
  };
}
