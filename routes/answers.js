// What a route answers, before any framework sends it: { status, headers, body }. The routes
// (routes/table.js) return these, and each framework's adapter (app/frameworks/) writes them its own
// way, so every framework sends the same bytes. Headers a route sets on the way (Server-Timing on a
// store's refusal, Allow, Connection: close) go on Node's response with setHeader, which every
// framework's own writeHead keeps.

export const JSON_TYPE = 'application/json; charset=utf-8';
export const BYTES_TYPE = 'application/octet-stream';
export const HTML_TYPE = 'text/html; charset=utf-8';

/** An answer with a body: text or bytes, of `type`. */
export function bodyAnswer(status, type, body, headers) {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  return { status, headers: { 'Content-Type': type, 'Content-Length': length, ...headers }, body };
}

export const jsonAnswer = (status, value, headers) => bodyAnswer(status, JSON_TYPE, JSON.stringify(value), headers);

/** No body: 204, or a HEAD-like answer. */
export const emptyAnswer = (status, headers = {}) => ({ status, headers, body: undefined });

/** The path of a request, without its query: what routes and messages name. */
export function pathOf(req) {
  const url = req.url ?? '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** Sends an answer on Node's response, as node:http and Express do. */
export function writeAnswer(res, answer) {
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}

/**
 * Sends the answer to an error on Node's response: none when the client left, and a cut connection
 * when an answer was already begun (it cannot be replaced: cutting it is what tells the client).
 */
export function writeErrorAnswer(res, answer) {
  if (res.headersSent) return void res.destroy();
  if (answer) writeAnswer(res, answer);
}
