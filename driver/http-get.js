// One GET with node:http/https, as the load itself is sent: fetch() (undici) refuses the
// ports browsers block (6666, 6000, 5060...), which a server may well listen on, and would
// then call a reachable target unreachable. Credentials in the URL go out as basic auth, as
// loadtest sends them (http-request.js does the request).
import { httpRequest } from './http-request.js';

const MAX_BODY_BYTES = 16 * 1024 * 1024; // a /stores listing is a few KB

/**
 * GETs url within timeoutMs (the whole exchange). Resolves to { status, body } (body a
 * string; null with `discardBody`), rejects with the error (a TimeoutError named so on the deadline).
 */
export async function httpGet(url, { timeoutMs, discardBody = false } = {}) {
  const { status, body } = await httpRequest(url, { timeoutMs, maxBodyBytes: MAX_BODY_BYTES });
  return { status, body: discardBody ? null : body.toString('utf8') };
}
