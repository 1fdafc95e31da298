// One worker thread of --threads N: measureStep on its share of each step, posted back with the
// exact sums. A job names its engine (functions do not cross postMessage); the direct engine
// opens its own connection in this thread, kept for the run.
import { parentPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { measureStep } from './step.js';
import { createWorkload } from './workloads/workload.js';
import { threadCpuMicros } from './thread-cpu.js';
import { loadEngine } from './engines/table.js';

const stores = new Map();
function storeFor({ store, connections, settings, valueShape }) {
  if (!stores.has(store)) {
    stores.set(store, (async () => {
      const { findAdapter } = await import('../stores/index.js');
      const { shapedStore } = await import('./workloads/value-shape.js');
      const adapter = findAdapter(store);
      if (!adapter) throw new Error(`no store adapter "${store}"`);
      return shapedStore(await adapter.open(connections, settings), valueShape); // as the main thread's (--value-shape)
    })());
  }
  return stores.get(store);
}

async function engineLoadOf(name, target) {
  if (name !== 'direct') return {};
  const store = await storeFor(target);
  return target.key === undefined ? { store } : { store, key: target.key };
}

async function closeStores() {
  const opened = [...stores.values()];
  stores.clear();
  await Promise.allSettled(opened.map(async (store) => (await store).close()));
}

// Kept across steps so the key stream continues from step to step.
const workloads = new Map();
function workloadFor(job) {
  if (!job) return undefined;
  if (!workloads.has(job.key)) {
    workloads.set(job.key, createWorkload(job.spec, { basePath: job.basePath, token: job.token, stream: job.stream }));
  }
  return workloads.get(job.key);
}

async function run({ engine: name, target, load, workload }) {
  const engine = await loadEngine(name);
  if (!engine) throw new Error(`no engine named ${name} in the worker`);
  const engineLoad = await engineLoadOf(name, target);
  const cpuBefore = threadCpuMicros();
  const eluBefore = performance.eventLoopUtilization();
  const startNs = process.hrtime.bigint();
  const step = await measureStep(engine, { ...engineLoad, ...load, workload: workloadFor(workload), keepSums: true });
  const elapsedMicros = Number(process.hrtime.bigint() - startNs) / 1e3;
  const cpuAfter = threadCpuMicros();
  // measureStep's cpuPercent is the whole process's here: this thread's own replaces it.
  step.cpuPercent = cpuBefore !== null && cpuAfter !== null && elapsedMicros > 0
    ? ((cpuAfter - cpuBefore) / elapsedMicros) * 100
    : performance.eventLoopUtilization(eluBefore).utilization * 100;
  step.cpuMicros = cpuBefore !== null && cpuAfter !== null ? cpuAfter - cpuBefore : null;
  if (step.cpuMicros !== null) step.cpuSeconds = step.cpuMicros / 1e6;
  return step;
}

parentPort.on('message', async (job) => {
  if (job.type === 'close') {
    await closeStores();
    return parentPort.postMessage({ id: job.id, closed: true });
  }
  try {
    parentPort.postMessage({ id: job.id, step: await run(job) });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: { message: error.message, code: error.code } });
  }
});
