// One whole HTTP request with Buffer bodies both ways, for the load phase and the verification.
// Credentials in the URL go out as basic auth, as loadtest sends them.
import http from 'node:http';
import https from 'node:https';

/** A keep-alive agent for `url`'s protocol with up to `sockets` connections; destroy() it when done. */
export function keepAliveAgent(url, sockets) {
  const Agent = new URL(url).protocol === 'https:' ? https.Agent : http.Agent;
  return new Agent({ keepAlive: true, maxSockets: sockets });
}

/** Sends the request: { status, headers, body }; rejects with TimeoutError, AbortError or the socket's error. */
export function httpRequest(url, {
  method = 'GET', headers = {}, body = null, timeoutMs = 10_000, agent, signal, maxBodyBytes = 64 * 1024 * 1024,
} = {}) {
  const parsed = new URL(url);
  const allHeaders = { ...headers };
  if (parsed.username || parsed.password) {
    const user = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
    allHeaders.authorization ??= `Basic ${Buffer.from(user).toString('base64')}`;
  }
  if (body) allHeaders['content-length'] = String(body.length);
  const client = parsed.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request({
      protocol: parsed.protocol,
      hostname: parsed.hostname.replace(/^\[|\]$/g, ''),
      port: parsed.port || undefined,
      path: `${parsed.pathname}${parsed.search}`,
      method,
      headers: allHeaders,
      agent: agent ?? false,
    });
    const timer = setTimeout(() => {
      const error = new Error(`no answer within ${timeoutMs} ms`);
      request.destroy(Object.assign(error, { name: 'TimeoutError', code: 'TIMEOUT' }));
    }, timeoutMs);
    const onAbort = () => request.destroy(Object.assign(new Error('aborted'), { name: 'AbortError', code: 'ABORTED' }));
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    request.once('error', (error) => {
      done();
      reject(error);
    });
    request.once('response', (response) => {
      const chunks = [];
      let size = 0;
      response.on('data', (chunk) => {
        size += chunk.length;
        if (size > maxBodyBytes) request.destroy(new Error(`answer larger than ${maxBodyBytes} bytes`));
        else chunks.push(chunk);
      });
      response.once('error', (error) => {
        done();
        reject(error);
      });
      response.once('end', () => {
        done();
        resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) });
      });
    });
    if (signal?.aborted) onAbort();
    request.end(body ?? undefined);
  });
}
