// A request body read into one Buffer, never past a limit: a declared Content-Length over it is refused
// before a byte is read, a chunked body the moment it passes. `100 Continue` is sent only here, so a
// refusal reaches the client before it sends a byte. A client that leaves mid-body rejects with
// ClientGone: answered with nothing and never logged (no one is left to read it).
import { RequestTimeoutError } from '../util/errors.js';
import { settings as declared } from '../config/settings.js';

// Bodies up to this size are read and dropped after an early answer, so the connection can serve the
// next request; a larger one closes the connection instead.
const DRAIN_LIMIT = 64 * 1024;

export class ClientGone extends Error {
  constructor(received, expected) {
    super(`the client left after ${received}${expected === undefined ? '' : ` of ${expected}`} bytes of the body`);
    this.name = 'ClientGone';
  }
}

// The body of req (res: its response), or a rejection with tooLarge(bytes) once it passes limit;
// idleMs: the longest pause allowed between two pieces of the body.
export function readBody(req, res, limit, tooLarge, { idleMs = declared.bodyIdleTimeoutMs.default } = {}) {
  const length = declaredLength(req);
  if (length > limit) return Promise.reject(tooLarge(length));
  sendContinue(res);
  return new Promise((resolve, reject) => {
    const whole = length === undefined ? undefined : Buffer.allocUnsafe(length);
    const chunks = [];
    let received = 0;
    let idle;
    const stalled = () => {
      req.pause();
      res.setHeader('Connection', 'close'); // the rest of the body may still come: not on this connection
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
    const gone = () => fail(new ClientGone(received, whole?.length));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', gone);
    req.on('aborted', gone);
    if (!req.complete) rearm();
  });
}

// app/http-edges.js defers a requested `100 Continue` to readBody: never sent if refused first.
export function deferContinue(res) {
  res.continueDeferred = true;
}

function sendContinue(res) {
  if (!res.continueDeferred) return;
  res.continueDeferred = false;
  res.writeContinue();
}

function declaredLength(req) {
  const header = req.headers['content-length'];
  return header === undefined ? undefined : Number(header);
}

// Before an answer that leaves the body unread: a small declared body is left for Node to read and
// drop, so the connection serves the next request; a large or unknown one closes the connection.
export function closeAfterAnswer(req, res) {
  if (req.complete) return;
  const declared = declaredLength(req);
  if (declared === undefined ? req.headers['transfer-encoding'] !== undefined : declared > DRAIN_LIMIT) {
    res.setHeader('Connection', 'close');
  }
}
