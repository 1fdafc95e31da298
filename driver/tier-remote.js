// A tier's CPU seconds from what it says about itself where /proc cannot see it (/metrics, Redis
// INFO cpu); null when unreadable: not measured, never an error for the run.
import { httpGet } from './http-get.js';

const READ_TIMEOUT_MS = 2000;

// storebench's app says how many processes its figures add up (one each: its primary and every
// worker) and how many CPUs its machine has (app/process-gauges.js).
const PROCESSES_METRIC = 'storebench_app_processes';
const CPUS_METRIC = 'storebench_app_cpus';

function samples(text) {
  const found = [];
  for (const line of String(text).split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+([-+0-9.eE]+)(\s+\d+)?\s*$/.exec(line);
    const value = match && Number(match[3]);
    if (match && Number.isFinite(value)) found.push({ name: match[1], value });
  }
  return found;
}

/**
 * What a /metrics text says of the app's CPU: { cpuSeconds (every `process_cpu_seconds_total`
 * sample added), processes, cpus (null where it does not say) }; null without a CPU figure.
 */
export function metricsFigures(text) {
  const all = samples(text);
  const cpu = all.filter(({ name }) => name.endsWith('process_cpu_seconds_total'));
  if (!cpu.length) return null;
  const sum = (list) => (list.length ? list.reduce((total, { value }) => total + value, 0) : null);
  const cpus = all.filter(({ name }) => name === CPUS_METRIC).map(({ value }) => value);
  return {
    cpuSeconds: sum(cpu),
    processes: sum(all.filter(({ name }) => name === PROCESSES_METRIC)),
    cpus: cpus.length ? Math.max(...cpus) : null,
  };
}

export async function readMetricsFigures(url, { timeoutMs = READ_TIMEOUT_MS } = {}) {
  try {
    const { status, body } = await httpGet(url, { timeoutMs });
    return status === 200 ? metricsFigures(body) : null;
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
