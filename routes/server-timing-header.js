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

// ms to the µs, cut (never rounded up), written with integers: "0.042", "12.5" (a float's own
// printing costs several times as much, on the route every benchmark hits).
function microseconds(ms) {
  const us = Math.floor(ms * 1000);
  const fraction = us % 1000;
  if (fraction === 0) return String(us / 1000);
  const digits = fraction < 10 ? `00${fraction}` : fraction < 100 ? `0${fraction}` : String(fraction);
  return `${(us - fraction) / 1000}.${digits.replace(/0+$/, '')}`;
}

export function serverTimingValue(timing) {
  if (timing === undefined || timing.storeMs < 0) return null;
  return `store;dur=${microseconds(timing.storeMs)}, app;dur=${microseconds(performance.now() - timing.startMs)}`;
}

/** On Node's response: kept by whatever answer follows (a store's 404 or 503 says so too). */
export function setServerTiming(res, timing) {
  const value = serverTimingValue(timing);
  if (value !== null) res.setHeader('Server-Timing', value);
}
