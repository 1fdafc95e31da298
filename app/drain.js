// Closing an HTTP server without cutting off a response. Node's server.close() destroys every
// connection it considers idle, and it considers one idle as soon as its response is *ended*:
// the tail of a 263 KB body still waiting in the socket's buffer is thrown away, and so is a
// request the client already sent on that connection but the server has not read yet. Under
// load that reset a dozen responses per SIGTERM. And closing the listening socket itself
// resets every connection still waiting in the kernel's accept queue, requests already sent
// on them included. Here instead:
//   - the listener stays open until nothing new has arrived for quietMs (at most acceptMs):
//     every connection the kernel accepted is taken. A request on one that arrived after the
//     signal is held, unanswered, until the listener is closed, then answered 503
//     SHUTTING_DOWN with `Connection: close`. Held, a client that waits for its answer before
//     it connects again (wrk, a browser, any client loop) opens no new connection meanwhile,
//     so the connections stop coming and the accept queue stays empty: answered at once, each
//     would reconnect straight into the queue, and the listener would reach its cap with
//     connections still in it. The listener is closed right after an event-loop turn that
//     found the accept queue empty;
//   - meanwhile the connections open before the signal are served, each request answered in
//     full with `Connection: close` (from the signal on: a response not yet begun then, or
//     asked for later), and each connection closes once its answer is sent. A client that comes
//     back comes on a new connection, and is held like any other;
//   - a connection with nothing in flight for idleMs is ended politely (its buffered bytes
//     go out first, then a FIN): idleMs after the listener closed at the earliest, so a
//     request on its way then is still read and answered;
//   - whatever is left after graceMs is cut off, so a stuck client cannot hold the exit.
// A connection whose handshake completes in the instant between the last look at the accept
// queue and the close is still reset: a client arriving just then, or clients that keep
// opening connections without waiting for answers (which also keep the listener open to its
// cap, arriving more often than every quietMs). The instant is longer when the process is
// descheduled within it on a busy machine.
import { Server } from 'node:net';

const SWEEP_MS = 100;
const QUIET_CHECK_MS = 10;

/**
 * The answer to a request on a connection that arrived once the server was going away, once its
 * body has been read and dropped: a connection closed with bytes of it still unread would be
 * reset, and the reset would destroy the answer before the client read it.
 */
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

/**
 * Tracks server's connections from now on. Returns drain(): stop accepting, finish every
 * response, close every connection; resolves when the last one is closed. Call it once the
 * server's request handler is attached: drainable answers a request before it does.
 * @param {import('node:http').Server} server  before it listens
 *
 * Several processes sharing one listener (app.js --workers, app/cluster-worker.js) close it
 * together through two hooks: whenQuiet, awaited once this process has found no new connection
 * for quietMs, resolves when every process has; whenClosed, awaited once its listener is
 * closed, resolves when every process's is. Only then are the held late requests answered: a
 * client told to go away finds no listener, rather than a process about to close its own.
 * @param {{ idleMs?: number, graceMs?: number, quietMs?: number, acceptMs?: number,
 *   whenQuiet?: () => Promise<void>, whenClosed?: () => Promise<void> }} [options]
 */
export function drainable(server, {
  idleMs = 1000, graceMs = 8000, quietMs = 50, acceptMs = 1000, whenQuiet, whenClosed,
} = {}) {
  const connections = new Map(); // socket -> { active: responses under way, idleSince, late }
  let phase = 'serving'; // then 'accepting' (draining, listener open), then 'closed'
  let lastAcceptAt = -Infinity;
  const held = new Map(); // response -> request: the answers owed to late connections once the listener closes

  server.on('connection', (socket) => {
    lastAcceptAt = performance.now();
    connections.set(socket, { active: 0, idleSince: Date.now(), responses: new Set(), late: phase !== 'serving' });
    socket.once('close', () => connections.delete(socket));
  });

  // The app's own handlers run after the decision, so it is made before any header is written.
  const handlers = server.listeners('request');
  server.removeAllListeners('request');
  server.on('request', (req, res) => {
    const connection = connections.get(req.socket);
    if (connection) {
      connection.active += 1;
      connection.responses.add(res);
      res.once('close', () => {
        connection.active -= 1;
        connection.responses.delete(res);
        connection.idleSince = Date.now();
      });
    }
    if (connection?.late) {
      if (phase === 'closed') return goingAway(req, res);
      req.resume(); // its body is never used: read and dropped while it waits
      held.set(res, req);
      res.once('close', () => held.delete(res));
      return;
    }
    if (phase !== 'serving') res.shouldKeepAlive = false;
    for (const handler of handlers) handler.call(server, req, res);
  });

  // Resolves in the check phase of an event-loop turn whose poll found no connection waiting
  // (it accepts every one queued, so none accepted means none was there), once none has come
  // for quietMs; or after acceptMs whatever comes. What was accepted is noted in one check
  // phase and looked at in the next, so a whole poll lies between, wherever the first began.
  const acceptQueueEmpty = (startedAt) => new Promise((resolve) => {
    const check = () => {
      const now = performance.now();
      const overdue = now - startedAt >= acceptMs;
      if (!overdue && now - lastAcceptAt < quietMs) return void setTimeout(check, QUIET_CHECK_MS);
      setImmediate(() => {
        const seen = lastAcceptAt;
        setImmediate(() => {
          if (lastAcceptAt !== seen && performance.now() - startedAt < acceptMs) {
            return void setTimeout(check, QUIET_CHECK_MS);
          }
          resolve();
        });
      });
    };
    check();
  });

  return () => new Promise((resolve) => {
    phase = 'accepting';
    // Every answer from now on closes its connection; those not begun yet included.
    for (const { responses } of connections.values()) {
      for (const res of responses) if (!res.headersSent) res.shouldKeepAlive = false;
    }
    const startedAt = performance.now();
    const forced = setTimeout(() => {
      for (const socket of connections.keys()) socket.destroy();
    }, graceMs);
    forced.unref(); // let the process exit as soon as the connections are gone
    let sweep;
    let done = false;
    const together = (hook) => (hook ? hook() : undefined);
    acceptQueueEmpty(startedAt).then(() => together(whenQuiet)).then(() => {
      // Synchronously after the immediate above (a microtask) when alone: no connection can be
      // taken between.
      phase = 'closed';
      // net.Server's close: stop accepting, call back when the last connection is gone,
      // without http.Server's closeIdleConnections() (see above).
      Server.prototype.close.call(server, () => {
        done = true;
        clearInterval(sweep);
        clearTimeout(forced);
        resolve();
      });
      return together(whenClosed);
    }).then(() => {
      for (const [res, req] of held) goingAway(req, res);
      held.clear();
      if (done) return;
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
