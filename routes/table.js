// The app's HTTP surface as one table, whatever framework serves it: each route a method, a path
// pattern and a handler (req, res, params) -> an answer (routes/answers.js), over Node's own request
// and response. The adapters in app/frameworks/ register these routes with their own router, in
// this order, then the not-found answer, and send what the handlers answer; the routes' logic is
// written once, here and in the files it names.
import { StorebenchError } from '../util/errors.js';
import { defaults } from '../config/settings.js';
import { readRoute } from './data.js';
import { writeRoutes } from './writes.js';
import { statusRoutes } from './status.js';
import { pageRoute } from './page.js';
import { resultsRoutes } from './results.js';
import { methodRoutes, serverOptionsAnswer } from './methods.js';
import { errorAnswer, notFoundAnswer } from './errors.js';

/** A route's method that stands for every method its path's other routes do not take. */
export const ANY = '*';

/**
 * @typedef {object} Route
 * @property {string} method  GET (HEAD is served by it too), PUT, DELETE, POST, or ANY
 * @property {string} path    a pattern of /literal and /:param segments
 * @property {(req: object, res: object, params: object) => object|Promise<object>} handle
 */

/**
 * The routes of an app over `stores`. options: log(line); writes (routes/writes.js's options);
 * limits and workers for /stores; framework, the name /stores and /healthz report; metrics, the
 * app's --metrics recorder (app/metrics.js); logRequest(req, res), the --log line's hook; extra,
 * routes served before the stores' own (the profiler's).
 * @returns {{ routes: Route[], notFound: Function,
 *   errorAnswer: (error: Error, req: object) => object|null }}
 */
export function createRoutes(stores, {
  log = () => {}, writes = {}, workers = 1, framework, metrics = null, logRequest = null, extra = [],
} = {}) {
  const write = writeRoutes(stores, writes);
  const status = statusRoutes(stores, {
    limits: { maxValueSize: writes.maxValueSize ?? defaults.maxValueSize }, workers, framework,
  });
  const results = resultsRoutes(writes); // never a store: the split run's results area (npm run load:cf)
  const methods = methodRoutes(stores);
  const statics = ['/', '/stores', '/healthz', ...(metrics ? ['/metrics'] : [])];
  const staticRoutes = {
    '/': pageRoute(stores), '/stores': status.stores, '/healthz': status.healthz, '/metrics': metrics?.metricsRoute,
  };
  // In the order a framework that tries routes in turn (Express) must try them; a path's ANY entry,
  // after its own routes, answers its other methods. Routers that try literal segments first
  // (fastify's, node.js's) find the same route for every request.
  const routes = [
    // First: the route every benchmark hits is the first a framework tries.
    { method: 'GET', path: '/:store/:key', handle: readRoute(stores) },
    ...statics.flatMap((path) => [
      { method: 'GET', path, handle: staticRoutes[path] },
      { method: ANY, path, handle: methods.read },
    ]),
    { method: 'PUT', path: results.path, handle: results.put },
    { method: 'GET', path: results.path, handle: results.get },
    ...extra,
    { method: 'PUT', path: '/:store/:key', handle: write.put },
    { method: 'DELETE', path: '/:store/:key', handle: write.remove },
    { method: ANY, path: '/:store/:key', handle: methods.key },
    { method: 'POST', path: '/:store/:key/append', handle: write.append },
    { method: ANY, path: '/:store/:key/append', handle: methods.append },
    { method: 'POST', path: '/:store', handle: write.bulk },
    { method: ANY, path: '/:store', handle: methods.bulk },
  ];
  const notFound = (req, res) => serverOptionsAnswer(req, res) ?? notFoundAnswer(req);
  const begin = requestBeginning(metrics, logRequest);
  const begun = (path) => (handle) => (req, res, params) => {
    begin(req, res, path);
    return handle(req, res, params);
  };
  return {
    routes: routes.map((route) => ({ ...route, handle: begun(route.path)(route.handle) })),
    notFound: begun('unmatched')(notFound),
    errorAnswer: (error, req) => errorAnswer(error, req, log),
  };
}

// What storebench does as any request begins: Host required, then --metrics and --log if on.
function requestBeginning(metrics, logRequest) {
  if (!metrics && !logRequest) return requireHost;
  return (req, res, route) => {
    metrics?.observeRequest(req, res, route);
    logRequest?.(req, res);
    requireHost(req, res);
  };
}

// HTTP/1.1 requires Host (RFC 9112 3.2): refused here as JSON, not Node's empty 400.
function requireHost(req, res) {
  if (req.headers.host !== undefined || req.httpVersion === '1.0') return;
  res.setHeader('Connection', 'close');
  throw new StorebenchError('an HTTP/1.1 request needs a Host header', { code: 'BAD_REQUEST' });
}
