// A request body read into one Buffer, never past a limit: a declared Content-Length over it
// is refused before a byte is read, and a body without one (chunked) is counted as it comes
// and refused the moment it passes the limit, with nothing more read or kept. A client that
// asked for `100 Continue` gets it only here, once everything before the body has passed, so
// a refusal (413, 401, 404, 503) reaches it before it sends a byte (app/http-edges.js). A body
// that pauses longer than the idle deadline is refused too (408), so a stalled client does not
// hold a connection for long. A client that leaves before its body has arrived is no error of
// the app's: the read rejects with ClientGone, which is answered with nothing (no one is left to
// read it) and never logged (routes/errors.js), only counted (app/metrics.js).
import { RequestTimeoutError } from '../util/errors.js';
import { settings as declared } from '../config/settings.js';

// Bodies up to this size are read and dropped after an early answer (a 401, a 405), so the
// connection can serve the next request; a larger one closes the connection instead.
const DRAIN_LIMIT = 64 * 1024;

/** The client closed its connection (or it broke) before the request's body arrived whole. */
export class ClientGone extends Error {
  constructor(received, expected) {
    super(`the client left after ${received}${expected === undefined ? '' : ` of ${expected}`} bytes of the body`);
    this.name = 'ClientGone';
  }
}

/**
 * The body of req, or a rejection with tooLarge(bytes) once it passes limit (bytes: the
 * declared length, or how much had arrived).
 * @param {import('node:http').IncomingMessage} req
 * @param {number} limit  bytes
 * @param {(bytes: number) => Error} tooLarge
 * @param {{ idleMs?: number }} [options]  the longest pause allowed between two pieces of the body
 */
export function readBody(req, limit, tooLarge, { idleMs = declared.bodyIdleTimeoutMs.default } = {}) {
  const length = declaredLength(req);
  if (length > limit) return Promise.reject(tooLarge(length));
  sendContinue(req);
  return new Promise((resolve, reject) => {
    // One Buffer of the declared size, filled in place; without a declared size, the chunks.
    const whole = length === undefined ? undefined : Buffer.allocUnsafe(length);
    const chunks = [];
    let received = 0;
    let idle;
    const stalled = () => {
      req.pause();
      req.res?.set('Connection', 'close'); // the rest of the body may still come: not on this connection
      fail(new RequestTimeoutError(`the body stalled: no byte for ${idleMs} ms after ${received} bytes ` +
        `(${declared.bodyIdleTimeoutMs.env[0]})`));
    };
    const rearm = () => {
      clearTimeout(idle);
      idle = setTimeout(stalled, idleMs);
    };
    const cleanup = () => {
      clearTimeout(idle);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', gone);
      req.off('aborted', gone);
    };
    const fail = (error) => {
      cleanup();
      reject(error);
    };
    const onData = (chunk) => {
      if (received + chunk.length > (whole ? whole.length : limit)) {
        req.pause(); // nothing more is read; the answer closes the connection (closeAfterAnswer)
        return fail(tooLarge(received + chunk.length));
      }
      if (whole) chunk.copy(whole, received);
      else chunks.push(chunk);
      received += chunk.length;
      rearm();
    };
    const onEnd = () => {
      cleanup();
      if (whole && received !== whole.length) return reject(new ClientGone(received, whole.length));
      resolve(whole ?? (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received)));
    };
    // A request stream fails only when its connection does: the client's doing, not the app's.
    const gone = () => fail(new ClientGone(received, whole?.length));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', gone);
    req.on('aborted', gone);
    if (!req.complete) rearm();
  });
}

/**
 * Marks res as owing a client its `100 Continue` (app/http-edges.js, on Node's checkContinue),
 * to be sent when its body is read, and never if it is refused first.
 */
export function deferContinue(res) {
  res.continueDeferred = true;
}

function sendContinue(req) {
  const { res } = req;
  if (!res?.continueDeferred) return;
  res.continueDeferred = false;
  res.writeContinue();
}

/** The Content-Length as a number, or undefined when the body is chunked (or there is none). */
function declaredLength(req) {
  const header = req.headers['content-length'];
  return header === undefined ? undefined : Number(header);
}

/**
 * Before an answer that leaves the body unread (an error before it was read, or a body over
 * the limit): a small declared body is left for Node to read and drop, so the connection
 * serves the next request; a large or unknown one closes the connection after the answer.
 */
export function closeAfterAnswer(req, res) {
  if (req.complete) return;
  const declared = declaredLength(req);
  if (declared === undefined ? req.headers['transfer-encoding'] !== undefined : declared > DRAIN_LIMIT) {
    res.set('Connection', 'close');
  }
}
