// What each path allows, answered before the routes: OPTIONS lists the methods of a path that
// exists (204, no body) and is a 404 for one that does not; any other method a path does not
// take is 405 with Allow. (Express's own OPTIONS answer is 200 text/plain on any path a route
// pattern matches, /nosuch/path included.) The methods a path takes pass through untouched.
import { Router } from 'express';
import { MethodNotAllowedError } from '../util/errors.js';

const READ = ['GET', 'HEAD'];
/** Every method some path of the app takes: the answer to OPTIONS * and to CONNECT. */
export const SERVER_METHODS = 'GET, HEAD, PUT, DELETE, POST, OPTIONS';

export function methodRoutes(stores) {
  const router = Router();
  // methods: what the path takes (Allow); through: what goes on to the routes, which may
  // still refuse it in their own words (append on a store without one: APPEND_UNSUPPORTED).
  const allow = (methods, through = methods) => (req, res, next) => {
    if (through.includes(req.method)) return next('router');
    const allowed = [...methods, 'OPTIONS'].join(', ');
    res.set('Allow', allowed);
    if (req.method === 'OPTIONS') return res.status(204).end();
    next(new MethodNotAllowedError(req.method, req.path, allowed));
  };
  // The store must exist before its paths can be said to (404 UNKNOWN_STORE otherwise).
  const ofStore = (methodsOf, throughOf = methodsOf) => (req, res, next) => {
    if (throughOf().includes(req.method)) return next('router');
    const entry = stores.entry(req.params.store);
    allow(methodsOf(entry), throughOf(entry))(req, res, next);
  };

  // OPTIONS * asks about the server as a whole.
  router.use((req, res, next) => {
    if (req.method !== 'OPTIONS' || req.originalUrl !== '*') return next();
    res.set('Allow', SERVER_METHODS).status(204).end();
  });
  router.all(['/', '/stores', '/healthz'], allow(READ));
  router.all('/:store/:key', ofStore(() => [...READ, 'PUT', 'DELETE']));
  // POST always goes on: the write route says APPEND_UNSUPPORTED for a store without append.
  router.all('/:store/:key/append', ofStore((entry) => (entry?.adapter.writes.append ? ['POST'] : []), () => ['POST']));
  router.all('/:store', ofStore(() => ['POST']));
  return router;
}
