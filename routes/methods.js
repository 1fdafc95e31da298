// What each path allows, answered before the GET routes: OPTIONS lists the methods of a path
// that exists (204, no body) and says 404 for one that does not; any other method on an
// existing path is 405 with Allow. (Express's own OPTIONS answer is 200 text/plain on any path
// a GET route pattern matches, /nosuch/path included.)
import { Router } from 'express';
import { MethodNotAllowedError } from '../util/errors.js';

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

export function methodRoutes(stores) {
  const router = Router();
  const allow = (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    res.set('Allow', ALLOWED_METHODS);
    if (req.method === 'OPTIONS') return res.status(204).end();
    next(new MethodNotAllowedError(req.method, req.path));
  };
  // OPTIONS * asks about the server as a whole.
  router.use((req, res, next) => (req.method === 'OPTIONS' && req.originalUrl === '*' ? allow(req, res, next) : next()));
  router.all(['/', '/stores', '/healthz'], allow);
  router.all('/:store/:key', (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') stores.entry(req.params.store); // 404 for a store that does not exist
    allow(req, res, next);
  });
  return router;
}
