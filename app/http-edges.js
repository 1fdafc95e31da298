// The answers Node's HTTP server gives before Express sees a request, made JSON with a registered
// code like every other error (Node sends a bare 400 or 431, and closes a CONNECT unanswered).
// A 100 Continue is sent only once a route reads the body (routes/body.js): Node would send it at
// once, inviting an upload the app then refuses.
import { STATUS_CODES, maxHeaderSize } from 'node:http';
import { SERVER_METHODS } from '../routes/methods.js';
import { deferContinue } from '../routes/body.js';

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

function clientErrorAnswer(error, maxHeaderSize) {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return [431, 'HEADERS_TOO_LARGE', `request headers larger than ${maxHeaderSize} bytes`];
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'REQUEST_TIMEOUT', 'the request did not arrive in time'];
  return [400, 'BAD_REQUEST', `malformed HTTP request${error.code?.startsWith('HPE_') ? ` (${error.code})` : ''}`];
}

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
