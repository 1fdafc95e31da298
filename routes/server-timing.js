// The Server-Timing header of the store routes: `store;dur=0.042, app;dur=0.061` in milliseconds.
//   store  the stores' call, under the app's operation deadline (a re-seeding read counts it all)
//   app    from the request's arrival in the Express app to the route handing its headers to Node
// Both are cut to whole microseconds, never rounded up, so neither claims more than it took.

export class RequestTiming {
  constructor(startMs) {
    this.startMs = startMs;
    this.storeMs = -1; // no store called (yet)
  }
}

export function startTiming(req, res, next) {
  req.timing = new RequestTiming(performance.now());
  next();
}

const microseconds = (ms) => Math.floor(ms * 1000) / 1000;

export function serverTimingValue(timing) {
  if (timing === undefined || timing.storeMs < 0) return null;
  return `store;dur=${microseconds(timing.storeMs)}, app;dur=${microseconds(performance.now() - timing.startMs)}`;
}

export function setServerTiming(res, timing) {
  const value = serverTimingValue(timing);
  if (value !== null) res.setHeader('Server-Timing', value);
}
