// --threads N: each step runs in N worker threads, each sending its share with measureStep; the
// main thread adds their steps into one (add-steps.js).
import { Worker } from 'node:worker_threads';
import { measureStep, StepAborted } from './step.js';
import { addSteps, withoutSums } from '../result/add-steps.js';
import { UsageError } from '../util/errors.js';
import { splitEvenly, splitInProportion } from './split.js';
import { engineMode } from './engines/table.js';

const THREAD_ENGINES = ['http', 'direct'];
// How long close() lets the threads close their stores' connections before ending them.
const CLOSE_GRACE_MS = 2000;

/** Each worker's share of `load`: fewer shares than workers when there is not enough to share. */
export function splitLoad({ concurrency, rps, maxRequests }, workers) {
  let count = Math.min(workers, maxRequests ?? Infinity);
  if (!rps) count = Math.min(count, concurrency);
  const clients = rps ? null : splitEvenly(concurrency, count);
  // -n in proportion to each worker's clients, so they all end together (-n 1001 -c 3 over 2
  // workers: 667 and 334, not 501 and 500).
  const requests = maxRequests === undefined || maxRequests === null
    ? null
    : (clients ? splitInProportion(maxRequests, clients) : splitEvenly(maxRequests, count));
  return Array.from({ length: count }, (_, index) => ({
    ...(rps ? { rps: rps / count } : { concurrency: clients[index] }),
    ...(requests ? { maxRequests: requests[index] } : {}),
  }));
}

function createPool(size) {
  const url = new URL('./step-worker.js', import.meta.url);
  let workers = null;
  let nextId = 0;
  const start = () => {
    workers ??= Array.from({ length: size }, () => new Worker(url));
    return workers;
  };
  const terminate = () => {
    const ending = workers ?? [];
    workers = null;
    return Promise.all(ending.map((worker) => worker.terminate()));
  };
  const close = async () => {
    if (!workers) return;
    const closing = workers.map((worker) => runOne(worker, { type: 'close' }).catch(() => {}));
    let timer;
    await Promise.race([Promise.all(closing), new Promise((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
    clearTimeout(timer);
    await terminate();
  };
  const runOne = (worker, job) => new Promise((resolve, reject) => {
    const id = (nextId += 1);
    const onMessage = (message) => {
      if (message.id !== id) return;
      cleanup();
      if (message.error) {
        reject(Object.assign(new Error(`worker thread: ${message.error.message}`), { code: message.error.code }));
      } else {
        resolve(message.step ?? null);
      }
    };
    const onError = (error) => {
      cleanup();
      reject(error);
    };
    const onExit = (code) => {
      cleanup();
      reject(new StepAborted(`worker thread exited (code ${code})`));
    };
    const cleanup = () => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ ...job, id });
  });
  return {
    async run(jobs, signal) {
      if (signal?.aborted) throw new StepAborted();
      const threads = start();
      let onAbort;
      const aborted = new Promise((resolve, reject) => {
        // Ctrl-C: the threads are ended now, with whatever they had in flight.
        onAbort = () => {
          terminate();
          reject(new StepAborted());
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      aborted.catch(() => {});
      try {
        return await Promise.race([Promise.all(jobs.map((job, index) => runOne(threads[index], job))), aborted]);
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
    },
    close,
  };
}

/**
 * What a sweep measures its steps with: `measure(load, { workload, target })` resolves to a
 * step plus `workers`. A store with no server (memory) exists only in this thread, so its steps
 * run here on one worker. `threads` runs even one worker in a thread (bench/cpu-per-request.js).
 */
export function createStepRunner({ workers = 1, engine, onNotice = () => {}, threads = workers > 1 }) {
  const mode = engineMode(engine);
  if (threads && !THREAD_ENGINES.includes(mode)) {
    throw new UsageError(`--threads ${workers} runs ${THREAD_ENGINES.join(', ')} steps only; ` +
      `${mode} mode runs on one thread (--threads 1)`);
  }
  if (!threads) {
    return {
      measure: async (load) => ({ ...(await measureStep(engine, load)), workers: null }),
      close: async () => {},
    };
  }
  const pool = createPool(workers);
  return {
    async measure({ signal, workload: runner, store, key, ...load }, { workload = null, target = null } = {}) {
      if (mode === 'direct' && !target) {
        onNotice('the memory store exists only in the driver\'s main thread: its steps run there, on one worker');
        return { ...(await measureStep(engine, { ...load, store, key, signal, workload: runner })), workers: null };
      }
      const shares = splitLoad(load, workers);
      if (shares.length < workers) {
        const capped = load.maxRequests < load.concurrency ? ` and -n ${load.maxRequests}` : '';
        const why = load.rps ? `-n ${load.maxRequests}` : `concurrency ${load.concurrency}${capped}`;
        onNotice(`${why} shared by ${shares.length} of the ${workers} workers ` +
          '(each needs at least one client and one request)');
      }
      const jobs = shares.map((share, index) => ({
        engine: engine.name,
        target,
        load: { ...load, ...share },
        workload: workload && { ...workload, stream: index },
      }));
      const cpuBefore = process.cpuUsage();
      const startNs = process.hrtime.bigint();
      const parts = await pool.run(jobs, signal);
      const elapsedSeconds = Number(process.hrtime.bigint() - startNs) / 1e9;
      const cpu = process.cpuUsage(cpuBefore);
      const step = withoutSums(addSteps(parts));
      return {
        ...step,
        // The shares of a rate add up only to within rounding (100 / 3 three times).
        concurrency: load.rps ? null : load.concurrency,
        targetRps: load.rps ?? null,
        maxRequests: load.maxRequests ?? null,
        // The whole driver process (every worker, the main thread, the garbage collector), in % of one core.
        cpuPercent: elapsedSeconds > 0 ? ((cpu.user + cpu.system) / 1e6 / elapsedSeconds) * 100 : 0,
        cpuSeconds: (cpu.user + cpu.system) / 1e6,
        workers: parts.map((part) => ({
          requests: part.requests,
          responses: part.responses,
          rps: part.rps,
          cpuPercent: part.cpuPercent,
          cpuSeconds: part.cpuMicros === null ? null : part.cpuMicros / 1e6,
        })),
      };
    },
    close: () => pool.close(),
  };
}
