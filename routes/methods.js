// What each path allows, for the methods no route of it takes: OPTIONS lists the path's methods
// (204), any other method is a 405 with Allow. A store's paths exist only for a store the app has
// (404 UNKNOWN_STORE otherwise). `OPTIONS *` asks about the server as a whole.
import { MethodNotAllowedError } from '../util/errors.js';
import { emptyAnswer, pathOf } from './answers.js';

const READ = ['GET', 'HEAD'];
export const SERVER_METHODS = 'GET, HEAD, PUT, DELETE, POST, OPTIONS';

/** The answer to req on a path that takes only `methods`. */
function methodAnswer(req, res, methods) {
  const allowed = [...methods, 'OPTIONS'].join(', ');
  res.setHeader('Allow', allowed);
  if (req.method === 'OPTIONS') return emptyAnswer(204);
  throw new MethodNotAllowedError(req.method, pathOf(req), allowed);
}

/** `OPTIONS *`, or null for any other request. */
export function serverOptionsAnswer(req, res) {
  if (req.method !== 'OPTIONS' || req.url !== '*') return null;
  res.setHeader('Allow', SERVER_METHODS);
  return emptyAnswer(204);
}

/** Each path's methods: handlers (req, res, params) -> an answer, for the methods its routes do not take. */
export function methodRoutes(stores) {
  const ofStore = (methodsOf) => (req, res, params) => methodAnswer(req, res, methodsOf(stores.entry(params.store)));
  return {
    read: (req, res) => methodAnswer(req, res, READ),
    key: ofStore(() => [...READ, 'PUT', 'DELETE']),
    append: ofStore((entry) => (entry.adapter.writes.append ? ['POST'] : [])),
    bulk: ofStore(() => ['POST']),
  };
}
