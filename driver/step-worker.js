// One worker thread of --workers N (driver/workers.js starts them and keeps them for the whole
// run). It runs measureStep on its share of each step's load and posts the step back, with the
// exact latency sums so the main thread can add the workers' steps exactly (add-steps.js).
//
// A job names its engine instead of carrying one (functions do not cross postMessage), and its
// target is plain data: the HTTP engine needs only the URL; the direct engine (issue 11, item
// 1) will get its store's connection settings the same way.
import { parentPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { measureStep } from './step.js';
import { createWorkload } from './workloads/workload.js';
import { threadCpuMicros } from './thread-cpu.js';

const ENGINES = {
  http: async () => (await import('./engines/http.js')).httpEngine,
};

// This worker's workload per target, kept across steps as the main thread keeps its own: the
// same key stream continues from step to step. `stream` gives each worker its own streams.
const workloads = new Map();
function workloadFor(job) {
  if (!job) return undefined;
  if (!workloads.has(job.key)) workloads.set(job.key, createWorkload(job.spec, { basePath: job.basePath, token: job.token, stream: job.stream }));
  return workloads.get(job.key);
}

async function run({ engine: name, load, workload }) {
  const engine = await ENGINES[name]?.();
  if (!engine) throw new Error(`no engine named ${name} in the worker`);
  const cpuBefore = threadCpuMicros();
  const eluBefore = performance.eventLoopUtilization();
  const startNs = process.hrtime.bigint();
  const step = await measureStep(engine, { ...load, workload: workloadFor(workload), keepSums: true });
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
  try {
    parentPort.postMessage({ id: job.id, step: await run(job) });
  } catch (error) {
    parentPort.postMessage({ id: job.id, error: { message: error.message, code: error.code } });
  }
});
