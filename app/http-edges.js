// The answers Node's HTTP server gives before Express sees a request, made like every other
// error answer: JSON with a registered code (util/errors.js). Without this, a malformed
// request gets a bare "400 Bad Request" with no body, over-large headers a bare 431, and a
// CONNECT has its socket closed with no answer at all.
//
// `Expect: 100-continue` is answered by the app too: Node would send `100 Continue` at once,
// inviting a client to upload a body the app then refuses (413, 401, 503). The 100 is sent
// only when a route starts to read the body (routes/body.js); a refusal before that closes
// the connection (Node does so after a final answer without a 100), so no body follows.
import { STATUS_CODES, maxHeaderSize } from 'node:http';
import { SERVER_METHODS } from '../routes/methods.js';
import { deferContinue } from '../routes/body.js';

/** A whole HTTP/1.1 answer with a JSON error body, written to a raw socket, which then closes. */
function answer(socket, status, code, message, headers = {}) {
  const body = JSON.stringify({ error: message, code });
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
}

/** The answer to a request Node's parser refused: [status, code, message]. */
export function clientErrorAnswer(error, maxHeaderSize) {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return [431, 'HEADERS_TOO_LARGE', `request headers larger than ${maxHeaderSize} bytes`];
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'REQUEST_TIMEOUT', 'the request did not arrive in time'];
  return [400, 'BAD_REQUEST', `malformed HTTP request${error.code?.startsWith('HPE_') ? ` (${error.code})` : ''}`];
}

/** Makes server answer parse errors and CONNECT as JSON, and send 100 Continue only for a body it reads. */
export function answerHttpEdges(server) {
  server.on('checkContinue', (req, res) => {
    deferContinue(res);
    server.emit('request', req, res);
  });
  server.on('clientError', (error, socket) => {
    // As Node's own default: nothing to say on a socket that is gone or mid-answer.
    if (error.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, code, message] = clientErrorAnswer(error, server.maxHeaderSize ?? maxHeaderSize);
    answer(socket, status, code, message);
  });
  // A CONNECT is a request to tunnel: this is no proxy. Without a listener, Node drops the socket.
  server.on('connect', (req, socket) => {
    socket.on('error', () => socket.destroy()); // a client gone before the answer: nothing to do
    answer(socket, 405, 'METHOD_NOT_ALLOWED', 'CONNECT is not supported: this is not a proxy', {
      Allow: SERVER_METHODS,
    });
  });
}
