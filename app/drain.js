// Closing an HTTP server without cutting off a response. Node's server.close() destroys every
// connection it considers idle, and it considers one idle as soon as its response is *ended*:
// the tail of a 263 KB body still waiting in the socket's buffer is thrown away, and so is a
// request the client already sent on that connection but the server has not read yet. Under
// load that reset a dozen responses per SIGTERM. Here instead:
//   - the server stops accepting connections at once;
//   - a response not yet begun, or asked for on a kept-alive connection from now on, is
//     answered in full with `Connection: close`, and its connection closes once it is sent;
//   - a connection with nothing in flight for idleMs is ended politely (its buffered bytes
//     go out first, then a FIN): idleMs after the signal at the earliest, so a request on
//     its way when the signal came is still read and answered;
//   - whatever is left after graceMs is cut off, so a stuck client cannot hold the exit.
import { Server } from 'node:net';

const SWEEP_MS = 100;

/**
 * Tracks server's connections from now on. Returns drain(): stop accepting, finish every
 * response, close every connection; resolves when the last one is closed.
 * @param {import('node:http').Server} server  before it listens
 * @param {{ idleMs?: number, graceMs?: number }} [options]
 */
export function drainable(server, { idleMs = 1000, graceMs = 8000 } = {}) {
  const connections = new Map(); // socket -> { active: responses under way, idleSince }
  let draining = false;

  server.on('connection', (socket) => {
    connections.set(socket, { active: 0, idleSince: Date.now(), responses: new Set() });
    socket.once('close', () => connections.delete(socket));
  });
  // Before the app's own listener, so the decision is made before it can write a header.
  server.prependListener('request', (req, res) => {
    const connection = connections.get(req.socket);
    if (draining) res.shouldKeepAlive = false;
    if (!connection) return;
    connection.active += 1;
    connection.responses.add(res);
    res.once('close', () => {
      connection.active -= 1;
      connection.responses.delete(res);
      connection.idleSince = Date.now();
    });
  });

  return () => new Promise((resolve) => {
    draining = true;
    const startedAt = Date.now();
    // net.Server's close: stop accepting, call back when the last connection is gone, without
    // http.Server's closeIdleConnections() (see above).
    Server.prototype.close.call(server, () => {
      clearInterval(sweep);
      clearTimeout(forced);
      resolve();
    });
    for (const { responses } of connections.values()) {
      for (const res of responses) if (!res.headersSent) res.shouldKeepAlive = false;
    }
    const sweep = setInterval(() => {
      const now = Date.now();
      for (const [socket, connection] of connections) {
        if (connection.active || connection.ended) continue;
        if (now - Math.max(connection.idleSince, startedAt) < idleMs) continue;
        connection.ended = true;
        socket.end();
      }
    }, SWEEP_MS);
    const forced = setTimeout(() => {
      for (const socket of connections.keys()) socket.destroy();
    }, graceMs);
    // Let the process exit as soon as the connections are gone.
    sweep.unref();
    forced.unref();
  });
}
