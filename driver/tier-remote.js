// A tier's CPU seconds so far, from what it says about itself where /proc cannot see it: an
// app's GET /metrics (prom-client's process_cpu_seconds_total) and a Redis's INFO cpu
// (used_cpu_user + used_cpu_sys). Either resolves to null when it cannot be read: a figure not
// measured, never an error for the run.
import { httpGet } from './http-get.js';

const READ_TIMEOUT_MS = 2000;

/**
 * The CPU seconds in a Prometheus text exposition: the samples of every metric named
 * `process_cpu_seconds_total` (with or without a prefix, such as the app's `storebench_app_`),
 * added; null when it has none.
 */
export function metricsCpuSeconds(text) {
  let sum = null;
  for (const line of String(text).split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+([-+0-9.eE]+)(\s+\d+)?\s*$/.exec(line);
    if (!match || !match[1].endsWith('process_cpu_seconds_total')) continue;
    const value = Number(match[3]);
    if (Number.isFinite(value)) sum = (sum ?? 0) + value;
  }
  return sum;
}

/** GET `url` (an app's /metrics) and its metricsCpuSeconds; null when it does not answer 200 with them. */
export async function readMetricsCpuSeconds(url, { timeoutMs = READ_TIMEOUT_MS } = {}) {
  try {
    const { status, body } = await httpGet(url, { timeoutMs });
    return status === 200 ? metricsCpuSeconds(body) : null;
  } catch {
    return null;
  }
}

/** used_cpu_user + used_cpu_sys from INFO's text (seconds, µs resolution); null without them. */
export function redisInfoCpuSeconds(text) {
  const field = (name) => Number(new RegExp(`^${name}:([0-9.]+)`, 'm').exec(String(text))?.[1]);
  const total = field('used_cpu_user') + field('used_cpu_sys');
  return Number.isFinite(total) ? total : null;
}

/**
 * INFO cpu of the Redis at `url` (its password, TLS and database as the URL says), on a
 * connection of its own that is closed at once; null when it cannot be read.
 */
export async function readRedisCpuSeconds(url, { timeoutMs = READ_TIMEOUT_MS } = {}) {
  const { default: Redis } = await import('ioredis');
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
  });
  client.on('error', () => {}); // a failed read is a figure not measured
  try {
    await client.connect();
    return redisInfoCpuSeconds(await client.info('cpu'));
  } catch {
    return null;
  } finally {
    client.disconnect();
  }
}
