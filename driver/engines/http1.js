// HTTP/1.1 on the wire for the fast engine: request bytes made once, and a response reader that
// knows only what a load generator needs (status, where the response ends, whether the
// connection carries on). Headers are scanned in place; bodies are skipped, except the first
// ERROR_BODY_BYTES of a non-2xx answer, so the step can say why requests failed.
import { storeDurationMs } from './server-timing-parse.js';

const MAX_HEAD_BYTES = 64 * 1024;
export const ERROR_BODY_BYTES = 2048;

const CR = 13;
const LF = 10;
const CRLFCRLF = Buffer.from('\r\n\r\n');

class ResponseError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ResponseError';
    this.code = 'HPE_INVALID_RESPONSE';
  }
}

/** The head of a request, as a latin1 string; a body adds its type and length. */
export function requestHead(method, path, headers, bodyLength = -1, authorization = null) {
  let head = `${method} ${path} HTTP/1.1\r\n${headers}`;
  if (bodyLength >= 0) head += `Content-Type: application/octet-stream\r\nContent-Length: ${bodyLength}\r\n`;
  if (authorization) head += `Authorization: ${authorization}\r\n`;
  return `${head}\r\n`;
}

export function commonHeaders(url, { keepAlive = true } = {}) {
  let headers = `Host: ${url.host}\r\nUser-Agent: storebench\r\nAccept: */*\r\n`;
  if (url.username || url.password) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers += `Authorization: Basic ${Buffer.from(credentials).toString('base64')}\r\n`;
  }
  if (!keepAlive) headers += 'Connection: close\r\n';
  return headers;
}

const HEAD = 0;
const LENGTH = 1; // a body of known length
const CHUNK_SIZE = 2; // a chunk-size line (and its extensions)
const CHUNK_DATA = 3;
const CHUNK_END = 4; // the CRLF after a chunk's data
const TRAILERS = 5; // trailer lines, up to an empty one
const UNTIL_CLOSE = 6; // a body the connection's close ends

const isDigit = (byte) => byte >= 48 && byte <= 57;
function hexValue(byte) {
  if (byte >= 48 && byte <= 57) return byte - 48;
  if (byte >= 97 && byte <= 102) return byte - 87;
  if (byte >= 65 && byte <= 70) return byte - 55;
  return -1;
}

function namedAs(buf, from, to, lower) {
  if (to - from !== lower.length) return false;
  for (let i = 0; i < lower.length; i += 1) if ((buf[from + i] | 0x20) !== lower.charCodeAt(i)) return false;
  return true;
}

/**
 * Reads responses from a connection's bytes: `onResponse(status, keepAlive, body, storeMs)` for
 * each complete one, in order. body: the first ERROR_BODY_BYTES of a non-2xx body, else
 * undefined; storeMs: Server-Timing's `store` dur of a 2xx, else -1.
 */
export class ResponseReader {
  constructor(onResponse) {
    this.onResponse = onResponse;
    this.errorBody = null; // made on the first error answer, reused for the next ones
    this.reset();
  }

  reset() {
    this.state = HEAD;
    this.held = null; // the start of a head split across reads
    this.remaining = 0;
    this.chunkSize = 0;
    this.sawDigit = false;
    this.inExtension = false;
    this.lineLength = 0;
    this.status = 0;
    this.keepAlive = true;
    this.capturing = false; // the current response is an error: its body's first bytes are kept
    this.kept = 0;
    this.storeMs = -1;
  }

  get partial() {
    return this.state !== HEAD || this.held !== null;
  }

  /** The connection closed: true when a body that runs until the close is complete now (or nothing was partial). */
  closed() {
    if (this.state === UNTIL_CLOSE) {
      this.keepAlive = false;
      this.complete();
      return true;
    }
    return !this.partial;
  }

  /**
   * Takes the connection's next bytes; throws ResponseError on bytes that are not HTTP/1.x. The
   * chunk may be reused once this returns: what the reader keeps of it, it copies.
   */
  push(chunk, length = chunk.length) {
    let buf = chunk;
    let at = 0;
    if (this.held !== null) {
      buf = Buffer.concat([this.held, chunk.subarray(0, length)]);
      this.held = null;
    }
    const end = buf === chunk ? length : buf.length;
    while (at < end) {
      switch (this.state) {
        case HEAD: {
          while (at < end && (buf[at] === CR || buf[at] === LF)) at += 1; // stray line ends between responses
          if (at === end) return;
          let headEnd = buf.indexOf(CRLFCRLF, at);
          if (headEnd + 4 > end) headEnd = -1; // past this read's bytes: what a reused buffer held before
          if (headEnd < 0) {
            if (end - at > MAX_HEAD_BYTES) throw new ResponseError(`a response head over ${MAX_HEAD_BYTES} bytes`);
            this.held = Buffer.from(buf.subarray(at, end));
            return;
          }
          at = this.head(buf, at, headEnd);
          break;
        }
        case LENGTH: {
          const taken = Math.min(this.remaining, end - at);
          if (this.capturing) this.keep(buf, at, taken);
          this.remaining -= taken;
          at += taken;
          if (this.remaining === 0) this.complete();
          break;
        }
        case UNTIL_CLOSE:
          if (this.capturing) this.keep(buf, at, end - at);
          return;
        case CHUNK_DATA: {
          const taken = Math.min(this.remaining, end - at);
          if (this.capturing) this.keep(buf, at, taken);
          this.remaining -= taken;
          at += taken;
          if (this.remaining === 0) this.state = CHUNK_END;
          break;
        }
        default:
          at = this.lines(buf, at, end);
      }
    }
  }

  lines(buf, from, end) {
    let at = from;
    while (at < end) {
      const byte = buf[at];
      at += 1;
      if (this.state === CHUNK_SIZE) {
        if (byte === LF) {
          if (!this.sawDigit) throw new ResponseError('a chunk size line without a size');
          if (this.chunkSize === 0) {
            this.state = TRAILERS;
            this.lineLength = 0;
          } else {
            this.state = CHUNK_DATA;
            this.remaining = this.chunkSize;
          }
          return at;
        }
        if (this.inExtension || byte === CR) continue;
        const value = hexValue(byte);
        if (value >= 0) {
          this.chunkSize = this.chunkSize * 16 + value;
          this.sawDigit = true;
          if (this.chunkSize > Number.MAX_SAFE_INTEGER / 16) throw new ResponseError('a chunk size too large');
        } else if (byte === 59 || byte === 32 || byte === 9) this.inExtension = true; // ';' or whitespace
        else throw new ResponseError('a bad chunk size');
      } else if (this.state === CHUNK_END) {
        if (byte === LF) {
          this.startChunk();
          return at;
        }
        if (byte !== CR) throw new ResponseError('chunk data longer than its size');
      } else { // TRAILERS
        if (byte === LF) {
          if (this.lineLength === 0) {
            this.complete();
            return at;
          }
          this.lineLength = 0;
        } else if (byte !== CR) this.lineLength += 1;
      }
    }
    return at;
  }

  // Copies into the error body: the read buffer is reused.
  keep(buf, from, count) {
    const room = ERROR_BODY_BYTES - this.kept;
    if (room <= 0 || count <= 0) return;
    this.errorBody ??= Buffer.allocUnsafe(ERROR_BODY_BYTES);
    const taken = Math.min(room, count);
    buf.copy(this.errorBody, this.kept, from, from + taken);
    this.kept += taken;
  }

  startChunk() {
    this.state = CHUNK_SIZE;
    this.chunkSize = 0;
    this.sawDigit = false;
    this.inExtension = false;
  }

  head(buf, from, headEnd) {
    // "HTTP/1.x SSS"
    if (headEnd - from < 12 || buf[from] !== 72 || buf[from + 4] !== 47 || buf[from + 5] !== 49 ||
        buf[from + 6] !== 46 || !isDigit(buf[from + 9]) || !isDigit(buf[from + 10]) || !isDigit(buf[from + 11]) ||
        buf.latin1Slice(from, from + 5) !== 'HTTP/') {
      const shown = JSON.stringify(buf.latin1Slice(from, Math.min(headEnd, from + 40)));
      throw new ResponseError(`not an HTTP/1.x response: ${shown}`);
    }
    const minor = buf[from + 7] - 48;
    const status = (buf[from + 9] - 48) * 100 + (buf[from + 10] - 48) * 10 + (buf[from + 11] - 48);
    let keepAlive = minor >= 1;
    let length = -1;
    let chunked = false;
    const success = status >= 200 && status <= 299;
    let storeMs = -1;
    let lineStart = buf.indexOf(LF, from) + 1;
    while (lineStart < headEnd) {
      let lineEnd = buf.indexOf(LF, lineStart);
      if (lineEnd < 0 || lineEnd > headEnd) lineEnd = headEnd;
      const contentEnd = buf[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd;
      const colon = buf.indexOf(58, lineStart); // ':'
      if (colon > lineStart && colon < contentEnd) {
        let valueStart = colon + 1;
        while (valueStart < contentEnd && (buf[valueStart] === 32 || buf[valueStart] === 9)) valueStart += 1;
        let valueEnd = contentEnd;
        while (valueEnd > valueStart && (buf[valueEnd - 1] === 32 || buf[valueEnd - 1] === 9)) valueEnd -= 1;
        const first = buf[lineStart] | 0x20;
        if (first === 99 && namedAs(buf, lineStart, colon, 'content-length')) { // 'c'
          let value = 0;
          for (let i = valueStart; i < valueEnd; i += 1) {
            if (!isDigit(buf[i])) throw new ResponseError('a bad Content-Length');
            value = value * 10 + buf[i] - 48;
          }
          if (valueEnd === valueStart || (length >= 0 && length !== value)) {
            throw new ResponseError('a bad Content-Length');
          }
          length = value;
        } else if (first === 99 && namedAs(buf, lineStart, colon, 'connection')) {
          const value = buf.latin1Slice(valueStart, valueEnd).toLowerCase();
          if (value.includes('close')) keepAlive = false;
          else if (value.includes('keep-alive')) keepAlive = true;
        } else if (first === 116 && namedAs(buf, lineStart, colon, 'transfer-encoding')) { // 't'
          chunked = buf.latin1Slice(valueStart, valueEnd).toLowerCase().endsWith('chunked');
        } else if (success && storeMs < 0 && first === 115 && namedAs(buf, lineStart, colon, 'server-timing')) { // 's'
          storeMs = storeDurationMs(buf.latin1Slice(valueStart, valueEnd));
        }
      }
      lineStart = lineEnd + 1;
    }
    const bodyStart = headEnd + 4;
    if (status < 200) return bodyStart; // 1xx: an interim response, the real one follows
    this.status = status;
    this.keepAlive = keepAlive;
    this.capturing = status > 299;
    this.kept = 0;
    this.storeMs = storeMs;
    if (status === 204 || status === 304) this.complete();
    else if (chunked) this.startChunk();
    else if (length > 0) {
      this.state = LENGTH;
      this.remaining = length;
    } else if (length === 0) this.complete();
    else {
      this.state = UNTIL_CLOSE;
      this.keepAlive = false;
    }
    return bodyStart;
  }

  complete() {
    this.state = HEAD;
    let body;
    if (this.capturing) {
      this.capturing = false;
      if (this.kept > 0) body = this.errorBody.toString('utf8', 0, this.kept);
    }
    this.onResponse(this.status, this.keepAlive, body, this.storeMs);
  }
}
