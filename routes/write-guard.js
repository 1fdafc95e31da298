// Who may write. Writes change data in the user's own databases and a pushed app has a public route,
// so with STOREBENCH_WRITE_TOKEN set every write needs Authorization: Bearer <token>; without one,
// writes pass only while the app listens on loopback. That is the server's bound address, not the
// connection's: behind a proxy on the same host (Cloud Foundry's envoy) every connection is loopback.
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { WriteRefusedError } from '../util/errors.js';

// Compared as digests: equal lengths for timingSafeEqual, whatever the length of what was sent.
const digest = (text) => createHash('sha256').update(text).digest();

export function isLoopbackAddress(address) {
  if (typeof address !== 'string' || !isIP(address)) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1';
}

// A server's bound address does not change while it listens; address() is a system call.
const boundToLoopback = new WeakMap();

function serverListensOnLoopback(req) {
  const server = req.socket.server;
  if (!server) return false;
  if (!boundToLoopback.has(server)) boundToLoopback.set(server, isLoopbackAddress(server.address()?.address));
  return boundToLoopback.get(server);
}

/**
 * A check of each write (or of what else the token guards: `what`, as the messages name it):
 * returns when req may go on, throws WriteRefusedError otherwise.
 */
export function writeGuard({ token, listensOnLoopback = serverListensOnLoopback, what = 'writes' } = {}) {
  const expected = token ? digest(token) : undefined;
  return (req, res) => {
    if (!expected) {
      if (listensOnLoopback(req)) return;
      throw new WriteRefusedError('WRITES_DISABLED',
        `${what} are off: the app listens beyond loopback and STOREBENCH_WRITE_TOKEN is not set`);
    }
    const presented = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1];
    if (presented === undefined) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      throw new WriteRefusedError('WRITE_TOKEN_REQUIRED',
        `${what} need Authorization: Bearer <token> (the app's STOREBENCH_WRITE_TOKEN)`);
    }
    if (!timingSafeEqual(digest(presented), expected)) {
      throw new WriteRefusedError('WRITE_TOKEN_INVALID', 'the bearer token is not the app\'s STOREBENCH_WRITE_TOKEN');
    }
  };
}
