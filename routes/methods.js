// What each path allows, answered before the routes: OPTIONS lists a path's methods (204) or is a 404,
// other methods a path does not take are 405 with Allow. (Express's own OPTIONS answers 200 text/plain
// on any path a pattern matches, /nosuch/path included.)
import { Router } from 'express';
import { MethodNotAllowedError } from '../util/errors.js';

const READ = ['GET', 'HEAD'];
export const SERVER_METHODS = 'GET, HEAD, PUT, DELETE, POST, OPTIONS';

export function methodRoutes(stores) {
  const router = Router();
  // methods: what the path takes (Allow); through: what goes on to the routes, which may still refuse
  // it in their own words (APPEND_UNSUPPORTED).
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

  router.use((req, res, next) => {
    if (req.method !== 'OPTIONS' || req.originalUrl !== '*') return next();
    res.set('Allow', SERVER_METHODS).status(204).end();
  });
  router.all(['/', '/stores', '/healthz'], allow(READ));
  router.all('/:store/:key', ofStore(() => [...READ, 'PUT', 'DELETE']));
  router.all('/:store/:key/append', ofStore((entry) => (entry?.adapter.writes.append ? ['POST'] : []), () => ['POST']));
  router.all('/:store', ofStore(() => ['POST']));
  return router;
}
