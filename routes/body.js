// A request body read into one Buffer, never past a limit: a declared Content-Length over it
// is refused before a byte is read, and a body without one (chunked) is counted as it comes
// and refused the moment it passes the limit, with nothing more read or kept.

// Bodies up to this size are read and dropped after an early answer (a 401, a 405), so the
// connection can serve the next request; a larger one closes the connection instead.
const DRAIN_LIMIT = 64 * 1024;

/**
 * The body of req, or a rejection with tooLarge(bytes) once it passes limit (bytes: the
 * declared length, or how much had arrived).
 * @param {import('node:http').IncomingMessage} req
 * @param {number} limit  bytes
 * @param {(bytes: number) => Error} tooLarge
 */
export function readBody(req, limit, tooLarge) {
  const declared = declaredLength(req);
  if (declared > limit) return Promise.reject(tooLarge(declared));
  return new Promise((resolve, reject) => {
    // One Buffer of the declared size, filled in place; without a declared size, the chunks.
    const whole = declared === undefined ? undefined : Buffer.allocUnsafe(declared);
    const chunks = [];
    let received = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
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
    };
    const onEnd = () => {
      cleanup();
      if (whole && received !== whole.length) return reject(new Error(`the body ended after ${received} of ${whole.length} bytes`));
      resolve(whole ?? (chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received)));
    };
    const onError = (error) => fail(error);
    const onAborted = () => fail(new Error('the client went away before the body ended'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
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
