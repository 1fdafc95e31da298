// One GET with node:http/https, as the load is sent: fetch() (undici) refuses ports browsers
// block (6666, 6000, 5060...), and would call a reachable target unreachable.
import { httpRequest } from './http-request.js';

const MAX_BODY_BYTES = 16 * 1024 * 1024; // a /stores listing is a few KB

/** GETs url within timeoutMs: { status, body }; rejects with a TimeoutError on the deadline. */
export async function httpGet(url, { timeoutMs, discardBody = false } = {}) {
  const { status, body } = await httpRequest(url, { timeoutMs, maxBodyBytes: MAX_BODY_BYTES });
  return { status, body: discardBody ? null : body.toString('utf8') };
}
