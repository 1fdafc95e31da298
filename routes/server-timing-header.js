// The Server-Timing header of the store routes: `store;dur=0.042, app;dur=0.061` in milliseconds.
//   store  the stores' call, under the app's operation deadline (a re-seeding read counts it all)
//   app    from the request's arrival in the app (app/create-app.js marks it, before any framework
//          sees the request) to the route handing its answer over to be sent
// Both are cut to whole microseconds, never rounded up, so neither claims more than it took.

const ARRIVED = Symbol('storebench.arrivedAt');

class RequestTiming {
  constructor(startMs) {
    this.startMs = startMs;
    this.storeMs = -1; // no store called (yet)
  }
}

/** Called first for every request, when the app sends Server-Timing. */
export function markArrival(req) {
  req[ARRIVED] = performance.now();
}

/** A request's timing, or undefined when the app sends no Server-Timing. */
export function timingOf(req) {
  const arrived = req[ARRIVED];
  return arrived === undefined ? undefined : new RequestTiming(arrived);
}

const microseconds = (ms) => Math.floor(ms * 1000) / 1000;

export function serverTimingValue(timing) {
  if (timing === undefined || timing.storeMs < 0) return null;
  return `store;dur=${microseconds(timing.storeMs)}, app;dur=${microseconds(performance.now() - timing.startMs)}`;
}

/** On Node's response: kept by whatever answer follows (a store's 404 or 503 says so too). */
export function setServerTiming(res, timing) {
  const value = serverTimingValue(timing);
  if (value !== null) res.setHeader('Server-Timing', value);
}
