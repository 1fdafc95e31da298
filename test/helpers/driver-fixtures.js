// Fixed step figures for rendering tests: numbers chosen by hand, not measured. In the open
// model `concurrency` here is the most requests in flight (the step's peakInFlight), as its table shows.
const WEAK = 'statistically weak: 2000 samples in 0.46 s (want at least 1000 samples and 1 s); p99 rests on 20 request(s)';

/** A warning as driver/honesty.js makes them; `weakWarning()` is the WEAK_SAMPLE one for these figures. */
export const fixedWarning = (code, message, data = {}) => ({ code, message, data });
export const weakWarning = () => fixedWarning('WEAK_SAMPLE', WEAK, { responses: 2000, wallSeconds: 0.4628, minSamples: 1000, minSeconds: 1 });

export function fixedStep({ store = 'redis', key = 'key1', concurrency = 5, rps = 4321.4, meanMs = 1.157, errors = { total: 0, byKind: {} }, warnings = [], mode = 'closed', targetRps = null, maxRequests = 2000 } = {}) {
  return {
    url: `http://127.0.0.1:40123/${store}/${key}`,
    store,
    key,
    mode,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:00.463Z',
    maxRequests,
    durationSeconds: null,
    concurrency: mode === 'open' ? null : concurrency,
    targetRps,
    peakInFlight: concurrency,
    requests: 2000,
    responses: 2000,
    wallSeconds: 0.4628,
    rps,
    latency: { count: 2000, meanMs, minMs: 0.214, maxMs: 12.5, p50Ms: 1.021, p90Ms: 1.9, p99Ms: 4.351, p999Ms: 9.9 },
    errors,
    cpuPercent: 55.5,
    engineReported: { meanLatencyMs: 1.2, rps: 4321, totalRequests: 2000 },
    warnings,
    histogram: { unit: 'us', encoding: 'HdrHistogram compressed base64', data: 'HISTFAAAAB14nJNpmSzMwMDAxAABzFCaEUzOmQQRAAA0ZAJ5' },
  };
}
