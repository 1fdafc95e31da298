// Workarounds for tarantool-driver 3.1.0 (the only maintained Node.js client). First: its parser
// leaves connection.state at AWAITING or AWAITING_LENGTH while a response spans several TCP reads,
// and sendCommand() then rejects ("Connection not established yet!") or parks the command forever.
// Responses are matched by sync id, so sending meanwhile is safe: we let those states send.

const parserStates = new Set([2, 16]); // AWAITING, AWAITING_LENGTH in tarantool-driver 3.1.0

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

// Second: its receive buffer grows to twice the OLD buffer's length however little is unread, and
// never rewinds, so 263 KB values grew the app by hundreds of MB a second (3.5 GB after 15 s) and cut
// throughput threefold. Here a new buffer is sized to the unread bytes plus the new ones (twice that).
// Never compacted in place: values handed out are views of it.
const SMALLEST_BUFFER_BYTES = 64 * 1024;

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

export function boundReceiveBuffer(connection) {
  if (connection.bufferSlide) connection.bufferSlide.add = boundedAdd;
  return connection;
}
