// Whether a request's client left before its answer was sent whole: the response closed before
// it finished, or its writes failed on a connection the client reset (Node calls such a
// response finished all the same). `socket` is the request's, taken when it arrived: a
// finished response no longer holds it.
export function clientLeft(res, socket) {
  return !res.writableFinished || Boolean(socket?.errored);
}
