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
