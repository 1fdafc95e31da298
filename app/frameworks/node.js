// The app on bare node:http, no framework: the floor, what a store costs with nothing between the
// request and the store call but the routes themselves. Its router is the least that serves the
// table: a path split at '/', literal segments before parameters, each parameter percent-decoded.
import { writeAnswer, writeErrorAnswer, pathOf } from '../../routes/answers.js';
import { StorebenchError } from '../../util/errors.js';
import { ANY } from '../../routes/table.js';

// '/:store/:key' -> [{ literal: null, name: 'store' }, { literal: null, name: 'key' }]
const segmentsOf = (pattern) => pattern.split('/').slice(1).filter(Boolean)
  .map((part) => (part.startsWith(':') ? { literal: null, name: part.slice(1) } : { literal: part, name: null }));

// Literal segments first (as find-my-way does), then in the table's order (a path's ANY after its own).
const byLiterals = (a, b) => b.segments.filter((s) => s.literal).length - a.segments.filter((s) => s.literal).length;

function decode(text) {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    throw new StorebenchError(`failed to decode param '${text}'`, { code: 'BAD_REQUEST' });
  }
}

// params of `parts` under `segments` (as many), or null when the pattern does not match.
function matchOf(segments, parts) {
  const params = {};
  for (let i = 0; i < parts.length; i += 1) {
    const { literal, name } = segments[i];
    if (literal !== null) {
      if (literal !== parts[i]) return null;
    } else {
      if (parts[i] === '') return null;
      params[name] = parts[i];
    }
  }
  // Decoded once the whole path matched: a path of another route's shape is never refused here.
  for (const name in params) params[name] = decode(params[name]);
  return params;
}

/** A node:http request listener serving `surface` (routes/table.js's createRoutes). */
export function nodeListener(surface) {
  // By segment count: a request is matched against the routes of its own length only.
  const bySegments = [];
  for (const route of surface.routes.map((one) => ({ ...one, segments: segmentsOf(one.path) })).sort(byLiterals)) {
    (bySegments[route.segments.length] ??= []).push(route);
  }
  const dispatch = (req, res) => {
    let path = pathOf(req);
    if (path[0] !== '/') return surface.notFound(req, res); // OPTIONS *, say
    // As Express's default (non-strict) routing: one trailing slash is not a different path.
    if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
    const parts = path === '/' ? [] : path.split('/').slice(1);
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    for (const route of bySegments[parts.length] ?? []) {
      if (route.method !== method && route.method !== ANY) continue;
      const params = matchOf(route.segments, parts);
      if (params) return route.handle(req, res, params);
    }
    return surface.notFound(req, res);
  };
  return (req, res) => {
    let answer;
    try {
      answer = dispatch(req, res);
    } catch (error) {
      return writeErrorAnswer(res, surface.errorAnswer(error, req));
    }
    if (typeof answer?.then !== 'function') return writeAnswer(res, answer);
    answer.then(
      (settled) => writeAnswer(res, settled),
      (error) => writeErrorAnswer(res, surface.errorAnswer(error, req)),
    );
  };
}
