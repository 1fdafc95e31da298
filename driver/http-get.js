// One GET with node:http/https, as the load itself is sent: fetch() (undici) refuses the
// ports browsers block (6666, 6000, 5060...), which a server may well listen on, and would
// then call a reachable target unreachable. Credentials in the URL go out as basic auth, as
// loadtest sends them.
import http from 'node:http';
import https from 'node:https';

const MAX_BODY_BYTES = 16 * 1024 * 1024; // a /stores listing is a few KB

/**
 * GETs url within timeoutMs (the whole exchange). Resolves to { status, body } (body a
 * string; null with `discardBody`), rejects with the error (a TimeoutError named so on the deadline).
 */
export function httpGet(url, { timeoutMs, discardBody = false } = {}) {
  const parsed = new URL(url);
  const headers = {};
  if (parsed.username || parsed.password) {
    const user = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
    headers.authorization = `Basic ${Buffer.from(user).toString('base64')}`;
  }
  const client = parsed.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request({
      protocol: parsed.protocol,
      hostname: parsed.hostname.replace(/^\[|\]$/g, ''),
      port: parsed.port || undefined,
      path: `${parsed.pathname}${parsed.search}`,
      method: 'GET',
      headers,
      agent: false,
    });
    const timer = setTimeout(() => {
      request.destroy(Object.assign(new Error(`no answer within ${timeoutMs} ms`), { name: 'TimeoutError' }));
    }, timeoutMs);
    const fail = (error) => {
      clearTimeout(timer);
      reject(error);
    };
    request.once('error', fail);
    request.once('response', (response) => {
      const chunks = [];
      let size = 0;
      response.on('data', (chunk) => {
        if (discardBody) return;
        size += chunk.length;
        if (size > MAX_BODY_BYTES) request.destroy(new Error(`answer larger than ${MAX_BODY_BYTES} bytes`));
        else chunks.push(chunk);
      });
      response.once('error', fail);
      response.once('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode, body: discardBody ? null : Buffer.concat(chunks).toString('utf8') });
      });
    });
    request.end();
  });
}
