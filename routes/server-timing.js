// The Server-Timing header of the store routes (W3C Server Timing): `store;dur=0.042, app;dur=0.061`,
// in milliseconds, so a client sees how much of its latency was the store's own call.
//   store  from the route handing the operation to the stores (stores/store-set.js: the first
//          adapter call, under the app's operation deadline) to its result or failure; a read
//          that re-seeds a lost key counts both gets and the re-seed
//   app    from the request's arrival in the Express app (startTiming, its first middleware) to
//          the moment the route hands its headers to Node (or an error to the error handler)
// Both are cut to whole microseconds, never rounded up, so neither claims more than it took.
// A request costs one small object and one short string; nothing when the setting is off.

/** What a store route learns of one request's times; stores/store-set.js fills storeMs. */
export class RequestTiming {
  constructor(startMs) {
    this.startMs = startMs;
    this.storeMs = -1; // no store called (yet)
  }
}

/** The first middleware: the request's clock starts. */
export function startTiming(req, res, next) {
  req.timing = new RequestTiming(performance.now());
  next();
}

const microseconds = (ms) => Math.floor(ms * 1000) / 1000;

/** The header's value for `timing`, read now; null when no store was called. */
export function serverTimingValue(timing) {
  if (timing === undefined || timing.storeMs < 0) return null;
  return `store;dur=${microseconds(timing.storeMs)}, app;dur=${microseconds(performance.now() - timing.startMs)}`;
}

/** Sets Server-Timing on res when the request's timing is kept and a store was called. */
export function setServerTiming(res, timing) {
  const value = serverTimingValue(timing);
  if (value !== null) res.setHeader('Server-Timing', value);
}
