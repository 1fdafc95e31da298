// Cloudant Lite's rate limits for the embedded stand-in: 20 lookups, 10 writes and 5 queries a second,
// over a sliding one-second window of accepted requests; past it, 429 (not counted).
// GET /_storebench/limits reports what was accepted and refused.
'use strict';

const PLANS = {
  lite: { lookup: 20, write: 10, query: 5 },
};
const WINDOW_MS = 1000;

// null for what a plan does not meter (server and database calls). POST /db is a document write.
function classify(method, path) {
  const parts = path.split('?')[0].split('/').filter(Boolean);
  if (parts.length === 1 && method === 'POST' && !parts[0].startsWith('_')) return 'write';
  if (parts.length < 2 || parts[0].startsWith('_')) return null;
  const [, second, , fourth] = parts;
  if (second === '_find' || second === '_explain') return 'query';
  if (second === '_design' && (fourth === '_view' || fourth === '_search')) return 'query';
  if (second === '_bulk_docs') return 'write';
  if (second === '_all_docs' || second === '_bulk_get' || second === '_changes') return 'lookup';
  if (method === 'GET' || method === 'HEAD') return 'lookup';
  return 'write'; // PUT, POST, DELETE, COPY of a document
}

function withRateLimits(handler, plan) {
  const limits = PLANS[plan] ?? null;
  const windows = { lookup: [], write: [], query: [] };
  const accepted = { lookup: 0, write: 0, query: 0 };
  const refused = { lookup: 0, write: 0, query: 0 };
  return (req, res) => {
    if (req.method === 'GET' && req.url === '/_storebench/limits') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ plan: limits ? plan : 'none', limits, windowMs: WINDOW_MS, accepted, refused }));
      return;
    }
    const kind = classify(req.method, req.url);
    if (!kind) return handler(req, res);
    if (limits) {
      const now = Date.now();
      const window = windows[kind];
      while (window.length && now - window[0] >= WINDOW_MS) window.shift();
      if (window.length >= limits[kind]) {
        refused[kind] += 1;
        req.resume(); // drain a body we will not read, so the connection stays usable
        res.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1' });
        res.end(JSON.stringify({
          error: 'too_many_requests',
          reason: `the ${plan} plan allows ${limits[kind]} ${kind}s per second; this one is over it`,
        }));
        return;
      }
      window.push(now);
    }
    accepted[kind] += 1;
    return handler(req, res);
  };
}

module.exports = { withRateLimits, classify, PLANS };
