// Fixed step figures for rendering tests: numbers chosen by hand, not measured.
export function fixedStep({ store = 'redis', key = 'key1', concurrency = 5, rps = 4321.4, meanMs = 1.157, errors = { total: 0, byKind: {} }, warnings = [], mode = 'closed', targetRps = null, maxRequests = 2000 } = {}) {
  return {
    url: `http://127.0.0.1:40123/${store}/${key}`,
    store,
    key,
    mode,
    maxRequests,
    durationSeconds: null,
    concurrency,
    targetRps,
    requests: 2000,
    responses: 2000,
    wallSeconds: 0.4628,
    rps,
    latency: { count: 2000, meanMs, minMs: 0.214, maxMs: 12.5, p50Ms: 1.021, p90Ms: 1.9, p99Ms: 4.351, p999Ms: 9.9 },
    errors,
    peakInFlight: concurrency,
    cpuPercent: 55.5,
    warnings,
    histogram: 'HISTFAAAAB14nJNpmSzMwMDAxAABzFCaEUzOmQQRAAA0ZAJ5',
  };
}
