// One worker thread of --workers N (driver/workers.js starts them and keeps them for the whole
// run). It runs measureStep on its share of each step's load and posts the step back, with the
// exact latency sums so the main thread can add the workers' steps exactly (add-steps.js).
//
// A job names its engine instead of carrying one (functions do not cross postMessage), and its
// target is plain data: the HTTP engines (loadtest, fast) need only the URL; the direct engine
// gets the store's name, the connection and settings the driver resolved, and the key, and
// opens a connection of its own in this thread (kept for the run, closed on { type: 'close' }).
import { parentPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { measureStep } from './step.js';
import { createWorkload } from './workloads/workload.js';
import { threadCpuMicros } from './thread-cpu.js';
import { loadEngine } from './engines/table.js';

// Direct mode: this thread's own Store per store, opened once with the adapter's open(), its
// values in the run's --value-shape.
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

// What the engine needs beyond the load: the direct engine's Store and key.
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

// This worker's workload per target, kept across steps as the main thread keeps its own: the
// same key stream continues from step to step. `stream` gives each worker its own streams.
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
