// Who may write (PUT, DELETE, append, bulk load). Writes change data in the user's own
// databases, and a pushed app has a public route, so:
//   - STOREBENCH_WRITE_TOKEN set: every write carries Authorization: Bearer <token>
//     (401 WRITE_TOKEN_REQUIRED without one, 403 WRITE_TOKEN_INVALID with another);
//   - no token: writes only while the app listens on loopback, where no other machine can
//     reach it (403 WRITES_DISABLED otherwise).
// "Listens on loopback" is the address the server is bound to, not the connection's: behind a
// proxy on the same host (Cloud Foundry's envoy, say) every connection comes from loopback.
// Reads never pass through here.
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { WriteRefusedError } from '../util/errors.js';

// Compared as digests: equal lengths for timingSafeEqual, whatever the length of what was sent.
const digest = (text) => createHash('sha256').update(text).digest();

/** True for an address in 127.0.0.0/8 or ::1 (either as IPv4-mapped IPv6 too). */
export function isLoopbackAddress(address) {
  if (typeof address !== 'string' || !isIP(address)) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

// A server's bound address does not change while it listens; address() is a system call.
const boundToLoopback = new WeakMap();

/** Whether the server that accepted req is bound to a loopback address (a Unix socket is not). */
export function serverListensOnLoopback(req) {
  const server = req.socket.server;
  if (!server) return false;
  if (!boundToLoopback.has(server)) boundToLoopback.set(server, isLoopbackAddress(server.address()?.address));
  return boundToLoopback.get(server);
}

/**
 * Middleware that lets a write through or refuses it.
 * @param {{ token?: string, listensOnLoopback?: (req) => boolean }} [options]  the token
 *   (config/settings.js writeToken), and how to tell whether the app listens on loopback only
 */
export function writeGuard({ token, listensOnLoopback = serverListensOnLoopback } = {}) {
  const expected = token ? digest(token) : undefined;
  return (req, res, next) => {
    if (!expected) {
      if (listensOnLoopback(req)) return next();
      return next(new WriteRefusedError('WRITES_DISABLED',
        'writes are off: the app listens beyond loopback and STOREBENCH_WRITE_TOKEN is not set'));
    }
    const presented = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1];
    if (presented === undefined) {
      res.set('WWW-Authenticate', 'Bearer');
      return next(new WriteRefusedError('WRITE_TOKEN_REQUIRED',
        'writes need Authorization: Bearer <token> (the app\'s STOREBENCH_WRITE_TOKEN)'));
    }
    if (!timingSafeEqual(digest(presented), expected)) {
      return next(new WriteRefusedError('WRITE_TOKEN_INVALID',
        'the bearer token is not the app\'s STOREBENCH_WRITE_TOKEN'));
    }
    next();
  };
}
