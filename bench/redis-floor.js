// The Redis clients' own pipelined rate, with no driver around them: the floor under the direct
// mode's --pipeline N (bench/direct-redis.js). Each way is `callers` loops in this process, each
// sending `depth` GETs of one key at once and the next `depth` when all are back, as the direct
// engine's batches do, for `seconds`; CPU is this thread's.
//   node-redis auto: `depth` get() calls in one tick (node-redis writes a tick's commands in one
//     write: the adapter's own path, so the driver's figure is this plus the driver's accounting);
//   node-redis pipeline: multi().execAsPipeline() of the `depth` GETs (its explicit pipeline);
//   ioredis pipeline: pipeline().exec() of the `depth` GETs.
import { redisClientOptions } from '../stores/clients/redis-options.js';
import { threadCpuMicros } from '../driver/thread-cpu.js';

export const BARE_WAYS = ['node-redis auto', 'node-redis pipeline', 'ioredis pipeline'];

/** Opens one connection per client to url; resolves { ways: { name: batch(keys) }, close() }. */
export async function openBareClients(url) {
  const { createClient, RESP_TYPES } = await import('redis');
  const { default: Redis } = await import('ioredis');
  // node-redis as the redis adapter configures it (no per-command timeout), values as Buffers.
  const nodeRedis = createClient(redisClientOptions({ url }));
  await nodeRedis.connect();
  const bytes = nodeRedis.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
  const ioredis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false });
  await ioredis.connect();
  const ways = {
    'node-redis auto': (keys) => Promise.all(keys.map((key) => bytes.get(key))),
    'node-redis pipeline': (keys) => {
      const multi = bytes.multi();
      for (const key of keys) multi.get(key);
      return multi.execAsPipeline();
    },
    'ioredis pipeline': (keys) => {
      const pipeline = ioredis.pipeline();
      for (const key of keys) pipeline.getBuffer(key);
      return pipeline.exec();
    },
  };
  return {
    ways,
    async close() {
      await nodeRedis.close();
      ioredis.disconnect();
    },
  };
}

/** One way's rate: resolves { rps, commands, cpuUs } (CPU µs of this thread per command). */
export async function bareRate(batch, { key, callers, depth, seconds }) {
  const keys = Array.from({ length: depth }, () => key);
  let commands = 0;
  let stopped = false;
  const timer = setTimeout(() => { stopped = true; }, seconds * 1000);
  const cpuBefore = threadCpuMicros();
  const startNs = process.hrtime.bigint();
  const caller = async () => {
    while (!stopped) {
      await batch(keys);
      commands += depth;
    }
  };
  try {
    await Promise.all(Array.from({ length: callers }, caller));
  } finally {
    clearTimeout(timer);
  }
  const elapsed = Number(process.hrtime.bigint() - startNs) / 1e9;
  const cpu = cpuBefore === null ? null : threadCpuMicros() - cpuBefore;
  return { rps: commands / elapsed, commands, cpuUs: cpu === null ? null : cpu / commands };
}
