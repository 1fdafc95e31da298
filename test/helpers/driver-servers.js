// Real HTTP servers on port 0 for the driver's tests: one that holds each request a known
// time (and records how long it really held it), one that answers at once, and the same
// holding server in a child process.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { forkListening } from '../../util/fork-child.js';

/**
 * Starts a server whose handler waits sleepMs (or responds by route: /status/NNN answers NNN,
 * /hang never answers). sleepMs may be a function of the request's number (0, 1, ...).
 * Resolves to { url, heldMs: number[], close() }.
 */
export async function startTestServer(t, { sleepMs = 0 } = {}) {
  const heldMs = [];
  let served = 0;
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
    const holdMs = typeof sleepMs === 'function' ? sleepMs(served) : sleepMs;
    served += 1;
    if (holdMs > 0) setTimeout(finish, holdMs);
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

const HOLD_SERVER = fileURLToPath(new URL('./hold-server.js', import.meta.url));

/**
 * Starts test/helpers/hold-server.js in a child process: each request held holds[n % length] ms.
 * Resolves to { url, held(): Promise<number[]> (what it really held, in ms), signal(name), stop() }:
 * signal('SIGSTOP') freezes the server, signal('SIGCONT') lets it go on.
 */
export async function startHoldServer(t, holds) {
  const { child, message, stop } = await forkListening(HOLD_SERVER, [JSON.stringify(holds)], { name: 'hold-server' });
  t.after(stop);
  const held = async () => (await fetch(`${message.url}/held`)).json();
  return { url: message.url, held, signal: (name) => child.kill(name), stop };
}
