// Fixed step figures for rendering tests: numbers chosen by hand, not measured (the histogram:
// 2000 latencies of 0.2 to 5.15 ms and two of about 12 ms, so the HTML report can decode it). In the open
// model `concurrency` here is the most requests in flight (the step's peakInFlight), as its table shows.
import { createResult } from '../../result/result.js';

const WEAK = 'statistically weak: 2000 samples in 0.46 s (want at least 1000 samples and 1 s); ' +
  'p99 rests on 20 request(s)';

/** A warning as result/honesty.js makes them; `weakWarning()` is the WEAK_SAMPLE one for these figures. */
export const fixedWarning = (code, message, data = {}) => ({ code, message, data });
export const weakWarning = () => fixedWarning('WEAK_SAMPLE', WEAK, {
  responses: 2000, wallSeconds: 0.4628, minSamples: 1000, minSeconds: 1,
});

const HISTOGRAM = {
  unit: 'us',
  encoding: 'HdrHistogram compressed base64',
  data: 'HISTFAAAAER4nJNpmSzMwMBwkYGBgZGBgYGZAQJAbIZrk5cwwPj9zGqJGtSB8Rr6VIa6GqIa4viwGphWA7FvCjNd5mDiZwIAHMwtiA==',
};
const LATENCY = { count: 2000, minMs: 0.214, maxMs: 12.5, p50Ms: 1.021, p90Ms: 1.9, p99Ms: 4.351, p999Ms: 9.9 };

/** One operation's figures within a step, as the meter makes them. */
export function fixedOperation({
  operation = 'read', requests = 2000, rps = 4321.4, meanMs = 1.157, errors = { total: 0, byKind: {}, samples: {} },
} = {}) {
  return {
    operation,
    requests,
    responses: requests,
    rps,
    latency: { ...LATENCY, count: requests, meanMs },
    errors: { samples: {}, ...structuredClone(errors) },
    histogram: { ...HISTOGRAM },
  };
}

/**
 * A step's store time (result/store-time.js) as a target's Server-Timing gives it, with the fixed
 * histogram; `fields` replace its own.
 */
export const fixedStoreTime = (fields = {}) => ({
  source: 'server-timing',
  count: 2000,
  meanMs: 0.052,
  minMs: 0.011,
  maxMs: 1.9,
  p50Ms: 0.041,
  p90Ms: 0.07,
  p99Ms: 0.31,
  histogram: { ...HISTOGRAM },
  ...fields,
});

/** One second of a step's timeline (the fixed step's only one: 2000 responses in 0.4631 s). */
export function fixedSecond({ second = 0, seconds = 0.4631, responses = 2000, errors = {} } = {}) {
  const latency = { p50Ms: 1.1, p90Ms: 1.2, p99Ms: 1.5, maxMs: 2.3 };
  return { second, seconds, responses, errors, latency, histogram: { ...HISTOGRAM } };
}

export function fixedStep({
  store = 'redis', key = 'key1', concurrency = 5, rps = 4321.4, meanMs = 1.157,
  errors = { total: 0, byKind: {}, samples: {} }, warnings = [], model = 'closed', mode = 'http', targetRps = null,
  maxRequests = 2000, workload = null, operations, repeat = 1,
  machine = { stealPercent: 1.5, othersCpuPercent: 12.25, treeCpuPercent: 140, loadAverage: 1.1 }, probe = null,
  intervals = { seconds: 0.25, responses: [] }, warmup = null, timeline = [fixedSecond()], storeTime,
} = {}) {
  return {
    url: workload ? `http://127.0.0.1:40123/${store}` : `http://127.0.0.1:40123/${store}/${key}`,
    store,
    key,
    workload,
    mode,
    model,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:00.463Z',
    maxRequests,
    durationSeconds: null,
    concurrency: model === 'open' ? null : concurrency,
    targetRps,
    peakInFlight: concurrency,
    requests: 2000,
    responses: 2000,
    wallSeconds: 0.4628,
    elapsedSeconds: 0.4631,
    rps,
    latency: { ...LATENCY, meanMs },
    ...(storeTime === undefined ? {} : { storeTime }),
    errors: { samples: {}, ...errors },
    cpuPercent: 55.5,
    engineReported: { meanLatencyMs: 1.2, rps: 4321, totalRequests: 2000 },
    warnings,
    histogram: { ...HISTOGRAM },
    intervals,
    timeline,
    warmup,
    operations: operations ?? [fixedOperation({ rps, meanMs, errors })],
    repeat,
    machine,
    workers: null,
    machines: null,
    probe,
  };
}

/** The settings of a run of the seeded reads (today's default), as runBenchmark records them. */
const SEEDED_READ_SETTINGS = Object.freeze({
  workload: 'read',
  mix: { read: 1 },
  records: null,
  valueSizeMin: null,
  valueSizeMax: null,
  distribution: null,
  seed: null,
  load: false,
  verify: false,
});

/** A scenario record (a Result's `scenario`) with nothing measured, judged or noted; `fields` replace its own. */
export function scenarioRecord(fields = {}) {
  return {
    name: 's',
    title: 'S',
    summary: 'x',
    study: { file: '000_a.txt', hardware: 'h', date: 'd' },
    scale: 'tiny',
    scaleNote: null,
    cloudantPlan: null,
    measured: [],
    published: [],
    verdicts: [],
    notes: [],
    runs: [],
    ...fields,
  };
}

/** A whole Result as runBenchmark resolves to (two stores, one key, a skipped store), built from fixed steps. */
export function fixedResult({ steps, interrupted = false, appExit = null } = {}) {
  const list = steps ?? [
    fixedStep({ store: 'memory', concurrency: 5, rps: 8000, meanMs: 0.61, warnings: [weakWarning()] }),
    fixedStep({ store: 'memory', concurrency: 10, rps: 9000, meanMs: 1.1 }),
    fixedStep({
      store: 'redis',
      concurrency: 5,
      rps: 4000,
      meanMs: 1.22,
      errors: { total: 3, byKind: { 'http 503': 2, timeout: 1 } },
    }),
    fixedStep({
      store: 'redis',
      concurrency: 10,
      rps: 6000,
      meanMs: 1.66,
      warnings: [fixedWarning('DRIVER_CPU',
        'the driver used 97% of a CPU core: the client may be the bottleneck, not the server',
        { cpuPercent: 97.2, threshold: 90 })],
    }),
  ];
  const targetOf = (step) => ({ url: step.url, store: step.store, key: step.key, named: false });
  const targets = [...new Map(list.map((step) => [step.url, targetOf(step)])).values()];
  return createResult({
    interrupted,
    appExit,
    settings: {
      concurrency: [5, 10],
      rps: null,
      requests: 2000,
      duration: null,
      warmup: 500,
      warmupMaxSeconds: 10,
      order: 'interleaved',
      control: true,
      orderSeed: 42,
      keepAlive: true,
      timeoutMs: 10000,
      stores: null,
      keys: null,
      repeat: 1,
      assert: [],
      ...SEEDED_READ_SETTINGS,
      workers: 1,
    },
    system: { node: 'v20.0.0', platform: 'linux 6 x64', cpuModel: 'Test CPU', cpuCount: 2, loadtest: '8.2.1', target: 'http://127.0.0.1:40123', date: '2026-01-01T00:00:00.000Z', hostname: 'test-host' },
    targets,
    skipped: [{ store: 'cloudant', status: 'unavailable', reason: 'no CLOUDANT_URL' }],
    steps: list,
  });
}
