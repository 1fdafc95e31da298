// Requests exactly as written: fetch would normalize /%2e%2e away before it left, and cannot
// send a chunked body of a chosen size. node:http sends the path as it is.
import { request } from 'node:http';

/**
 * One request to base (an http://host:port URL) with a raw path. body: a Buffer (sent with
 * its Content-Length), or { chunks: Buffer[] } (sent chunked, no Content-Length).
 * Resolves to { status, headers, body (Buffer), json (parsed when the answer is JSON) }.
 */
export function rawRequest(base, path, { method = 'GET', headers = {}, body } = {}) {
  const { hostname, port } = new URL(base);
  // Node sends a DELETE's body with neither Content-Length nor chunking unless told the length.
  if (Buffer.isBuffer(body)) headers = { 'Content-Length': body.length, ...headers };
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname.replace(/^\[|\]$/g, ''), port, path, method, headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => {
        const bytes = Buffer.concat(chunks);
        let json;
        if (/json/.test(res.headers['content-type'] ?? '')) json = JSON.parse(bytes);
        resolve({ status: res.statusCode, headers: res.headers, body: bytes, json });
      });
      res.on('error', reject);
    });
    // A server may answer (413, say) and close before the whole body is sent: the answer
    // counts, if it arrived; a connection closed without one is the failure.
    let lastError;
    req.on('error', (error) => { lastError = error; });
    req.on('close', () => { if (!req.res) reject(lastError ?? new Error('the connection closed without an answer')); });
    if (Buffer.isBuffer(body)) req.end(body);
    else if (body?.chunks) {
      for (const chunk of body.chunks) req.write(chunk);
      req.end();
    } else req.end();
  });
}
