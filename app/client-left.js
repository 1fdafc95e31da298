// Whether the client left before the whole answer was sent: the response closed unfinished, or its
// writes failed on a reset connection (Node calls that finished all the same). `socket` is taken on
// arrival: a finished response no longer holds it.
export function clientLeft(res, socket) {
  return !res.writableFinished || Boolean(socket?.errored);
}
