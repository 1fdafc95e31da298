// Real HTTP servers on port 0 for the driver's tests: one that holds each request a known
// time (and records how long it really held it), one that answers at once.
import { createServer } from 'node:http';

/**
 * Starts a server whose handler waits sleepMs (or responds by route: /status/NNN answers NNN,
 * /hang never answers). Resolves to { url, heldMs: number[], close() }.
 */
export async function startTestServer(t, { sleepMs = 0 } = {}) {
  const heldMs = [];
  const hanging = new Set();
  const server = createServer((request, response) => {
    const start = process.hrtime.bigint();
    const finish = (status = 200, body = 'ok') => {
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end(body);
      heldMs.push(Number(process.hrtime.bigint() - start) / 1e6);
    };
    const status = /^\/status\/(\d{3})$/.exec(request.url);
    if (status) return finish(Number(status[1]), 'status');
    if (request.url === '/hang') {
      hanging.add(response);
      return;
    }
    if (sleepMs > 0) setTimeout(finish, sleepMs);
    else finish();
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () =>
    new Promise((resolve) => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      server.close(resolve);
    });
  t.after(close);
  return { url: `http://127.0.0.1:${server.address().port}`, heldMs, server, close };
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;

/** Skips the test locally when a needed service is missing, but fails under CI=true. */
export function skipOrFail(t, reason) {
  if (process.env.CI === 'true') throw new Error(`required in CI: ${reason}`);
  t.skip(reason);
}
