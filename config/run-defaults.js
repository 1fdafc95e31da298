// The load driver's defaults and bounds that options/ shows and checks and driver/ runs with:
// plain data here, below both, so that reading a flag loads no part of the driver.

// A request's deadline (--timeout), in milliseconds.
export const DEFAULT_TIMEOUT_MS = 10_000;

// Each step's warm-up to a steady state (driver/warmup.js), argued from measurements in
// docs/measurement.md: windows this long, until one is no faster than the last by more than the
// tolerance, for at most --warmup-max seconds.
export const WARMUP_WINDOW_SECONDS = 0.25;
export const WARMUP_TOLERANCE = 0.05;
export const WARMUP_MAX_SECONDS = 10;

/** Each step's steady-state warm-up cap in seconds, or 0 (none) when settings.warmup is 0. */
export const steadyMaxSeconds = (settings) => (settings.warmup > 0 ? settings.warmupMaxSeconds : 0);

// --probe's idle figures (driver/probe/prober.js): this many requests or this long, whichever
// comes first. A new connection's first requests are several times slower (0.16 ms against
// 0.05 ms a GET on loopback Redis, measured), which would make idle read slower than under load:
// up to PROBE_WARMUP_REQUESTS untimed ones go first.
export const PROBE_IDLE_REQUESTS = 200;
export const PROBE_IDLE_SECONDS = 1;
export const PROBE_WARMUP_REQUESTS = 50;
export const PROBE_WARMUP_SECONDS = 0.25;

// The engines that send HTTP requests (--engine; driver/engines/table.js loads each). fast by
// default: on a 20 ms server it reads wrk's mean within 1% at a third of loadtest's CPU per
// response; loadtest stays for a study run with loadtest (docs/measurement.md, "The default engine").
export const HTTP_ENGINE_NAMES = Object.freeze(['loadtest', 'fast']);
export const DEFAULT_HTTP_ENGINE = 'fast';
