// Closing an HTTP server without cutting off a response. Node's server.close() destroys a connection
// once its response is *ended* (a buffered body tail and a sent but unread request are lost: a dozen
// resets per SIGTERM under load), and closing the listener resets the kernel's accept queue. Here the
// listener stays open until nothing new arrived for quietMs; requests on connections arriving meanwhile
// are held, then answered 503 SHUTTING_DOWN (a client waiting for its answer opens no new connection,
// so the queue empties). Connections open before are served with `Connection: close`; idle ones are
// ended politely after idleMs, and whatever is left after graceMs is cut off.
import { Server } from 'node:net';

const SWEEP_MS = 100;
const CONNECTION = Symbol('storebench.connection');
const QUIET_CHECK_MS = 10;

// Sent once the request's body is read: closing with bytes unread would reset the connection and
// destroy the answer.
function goingAway(req, res) {
  req.resume();
  if (!req.complete) return void req.once('end', () => goingAway(req, res));
  const body = JSON.stringify({
    error: 'the app is shutting down: send this request again once it is back, or elsewhere',
    code: 'SHUTTING_DOWN',
  });
  res.shouldKeepAlive = false;
  res.writeHead(503, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Retry-After': '1',
    Connection: 'close',
  });
  res.end(body);
}

// The listener's close, made when nothing is arriving: close() resolves once the listener is closed,
// in a check phase whose poll found no connection waiting, once none came for quietMs since close() was
// called (or after acceptMs). Accepts noted in one check phase are looked at in the next: a whole poll
// between. Used by app.js alone, and by the primary of app.js --workers N on the listeners it owns.
export function quietListenerCloser(server, { quietMs = 50, acceptMs = 1000 } = {}) {
  let lastAcceptAt = -Infinity;
  server.on('connection', () => { lastAcceptAt = performance.now(); });
  const acceptQueueEmpty = (startedAt) => new Promise((resolve) => {
    const check = () => {
      const now = performance.now();
      const overdue = now - startedAt >= acceptMs;
      // Quiet counts from the close's start at the earliest: the in-flight answers sent since say
      // Connection: close, and their clients come back on new connections within a few ms.
      if (!overdue && now - Math.max(lastAcceptAt, startedAt) < quietMs) return void setTimeout(check, QUIET_CHECK_MS);
      setImmediate(() => {
        const seen = lastAcceptAt;
        setImmediate(() => {
          if (lastAcceptAt !== seen && performance.now() - startedAt < acceptMs) {
            return void setTimeout(check, QUIET_CHECK_MS);
          }
          // Synchronously after the poll that found nothing: no connection can be taken between.
          // net.Server's close, without http.Server's closeIdleConnections() (see above).
          Server.prototype.close.call(server);
          resolve();
        });
      });
    };
    check();
  });
  return () => acceptQueueEmpty(performance.now());
}

// Tracks server's connections (call before it listens, after its request handler is attached); drain()
// stops taking new work and resolves once closeListener() has resolved (no connection can arrive
// any more) and every connection is closed. closeListener defaults to closing server's own listener
// when quiet; a worker of app.js --workers N is given the primary's word that it closed the one it owns.
export function drainable(server, {
  idleMs = 1000, graceMs = 8000, closeListener = quietListenerCloser(server),
} = {}) {
  const connections = new Map(); // socket -> { active: responses under way, idleSince, late }
  let phase = 'serving'; // then 'accepting' (draining, listener open), then 'closed'
  const held = new Map(); // response -> request: the answers owed to late connections once the listener closes
  let allClosed = () => {};

  server.on('connection', (socket) => {
    connections.set(socket, { active: 0, idleSince: Date.now(), responses: new Set(), late: phase !== 'serving' });
    socket.once('close', () => {
      connections.delete(socket);
      if (phase === 'closed' && connections.size === 0) allClosed();
    });
  });

  // The app's own handlers run after the decision, so it is made before any header is written.
  const handlers = server.listeners('request');
  server.removeAllListeners('request');
  // One listener for every response (this: the response), not a closure each: it runs on every request.
  function responseClosed() {
    const connection = this[CONNECTION];
    connection.active -= 1;
    connection.responses.delete(this);
    connection.idleSince = Date.now();
  }
  const [only] = handlers.length === 1 ? handlers : [null];
  server.on('request', (req, res) => {
    const connection = connections.get(req.socket);
    if (connection) {
      connection.active += 1;
      connection.responses.add(res);
      res[CONNECTION] = connection;
      res.on('close', responseClosed);
    }
    if (connection?.late) {
      if (phase === 'closed') return goingAway(req, res);
      req.resume(); // its body is never used: read and dropped while it waits
      held.set(res, req);
      res.once('close', () => held.delete(res));
      return;
    }
    if (phase !== 'serving') res.shouldKeepAlive = false;
    if (only) only.call(server, req, res);
    else for (const handler of handlers) handler.call(server, req, res);
  });

  return () => new Promise((resolve) => {
    phase = 'accepting';
    for (const { responses } of connections.values()) {
      for (const res of responses) if (!res.headersSent) res.shouldKeepAlive = false;
    }
    const forced = setTimeout(() => {
      for (const socket of connections.keys()) socket.destroy();
    }, graceMs);
    forced.unref(); // let the process exit as soon as the connections are gone
    let sweep;
    allClosed = () => {
      clearInterval(sweep);
      clearTimeout(forced);
      resolve();
    };
    closeListener().then(() => {
      phase = 'closed';
      for (const [res, req] of held) goingAway(req, res);
      held.clear();
      if (connections.size === 0) return allClosed();
      const closedAt = Date.now();
      sweep = setInterval(() => {
        const now = Date.now();
        for (const [socket, connection] of connections) {
          if (connection.active || connection.ended) continue;
          if (now - Math.max(connection.idleSince, closedAt) < idleMs) continue;
          connection.ended = true;
          socket.end();
        }
      }, SWEEP_MS);
      sweep.unref();
    });
  });
}
