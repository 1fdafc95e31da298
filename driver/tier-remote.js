// A tier's CPU seconds from what it says about itself where /proc cannot see it (/metrics, Redis
// INFO cpu); null when unreadable: not measured, never an error for the run.
import { httpGet } from './http-get.js';

const READ_TIMEOUT_MS = 2000;

/** The sum of every `process_cpu_seconds_total` sample (any prefix); null when none. */
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

/** INFO cpu of the Redis at `url`, on a connection of its own closed at once; null when unreadable. */
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
