// A workaround for a bug in tarantool-driver 3.1.0 (the only maintained Node.js client for
// Tarantool on npm), found by loading /tarantool/key3 with 20 concurrent requests.
//
// Its response parser (lib/event-handler.js, an `if` without braces) writes its progress
// through a response that spans several TCP reads into connection.state: AWAITING (2) or
// AWAITING_LENGTH (16). sendCommand() reads any state other than CONNECT as "not connected",
// so a command sent while a large response is streaming in is rejected ("Connection not
// established yet!") with the offline queue off, or parked until the next reconnect (for ever,
// on a healthy connection) with it on. Responses are matched to commands by sync id, so
// writing a request while a response streams in is safe: we let those states send.

const parserStates = new Set([2, 16]); // AWAITING, AWAITING_LENGTH in tarantool-driver 3.1.0

/** Makes connection send commands while its parser is mid-response. Returns connection. */
export function sendWhileReceiving(connection) {
  const sendCommand = connection.sendCommand;
  connection.sendCommand = function(...args) {
    if (!parserStates.has(this.state)) return sendCommand.apply(this, args);
    const parserState = this.state;
    this.state = this.states.CONNECT;
    try {
      return sendCommand.apply(this, args);
    } finally {
      // Only if sending did not change it (it cannot today): the parser still owns it.
      if (this.state === this.states.CONNECT) this.state = parserState;
    }
  };
  return connection;
}

// A second bug of tarantool-driver 3.1.0, found by loading /tarantool/key3 (263 KB values) for
// seconds: the app's memory grew by hundreds of MB a second (3.5 GB after 15 s, kept when
// idle) and its throughput fell threefold. The connection's receive buffer (lib/sliderBuffer.js)
// allocates a new buffer whenever its tail is full, of twice the OLD buffer's length, however
// few bytes are still unread; its read offset is never rewound, so under a steady stream of
// responses the buffer doubles again and again. Here a new buffer is sized to the bytes still
// unread plus the new ones (twice that, so the next reads fit), never to the old one.
// It is never compacted in place: the values already handed out are views of it (msgpack-lite
// decodes a bin as a slice), and moving bytes under them would change values in use.
const SMALLEST_BUFFER_BYTES = 64 * 1024;

/** add(data, from, size) for a SliderBuffer: bounded by what it holds. */
export function boundedAdd(data, from = 0, size = data.length - from) {
  const end = this.bufferOffset + this.bufferLength;
  if (end + size <= this.buffer.length) {
    data.copy(this.buffer, end, from, from + size);
    this.bufferLength += size;
    return;
  }
  const length = this.bufferLength + size;
  const next = Buffer.allocUnsafe(Math.max(SMALLEST_BUFFER_BYTES, 2 * length));
  this.buffer.copy(next, 0, this.bufferOffset, end);
  data.copy(next, this.bufferLength, from, from + size);
  this.buffer = next;
  this.bufferOffset = 0;
  this.bufferLength = length;
}

/** Gives connection's receive buffer a bounded add (above). Returns connection. */
export function boundReceiveBuffer(connection) {
  if (connection.bufferSlide) connection.bufferSlide.add = boundedAdd;
  return connection;
}
