// --probe: one request at a time, idle and under each step's load, from a worker thread with its
// own connection so its timing does not wait on the load's event loop. An in-process store
// (memory) is probed in the main thread: what it sees is the wait for the driver's event loop,
// which is exactly what a call of that store waits for.
import { Worker } from 'node:worker_threads';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { startSampling } from './sampler.js';
import { probeCalls } from './requests.js';
import { RunError } from '../../util/errors.js';
import { redactText } from '../../util/redact.js';
import {
  PROBE_IDLE_REQUESTS, PROBE_IDLE_SECONDS, PROBE_WARMUP_REQUESTS, PROBE_WARMUP_SECONDS,
} from '../../config/run-defaults.js';

/** Starts the prober's worker: { use(target), idle(), underLoad(), close() }. */
export async function startProber({ timeoutMs }) {
  const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData: { timeoutMs } });
  const waiting = new Map();
  let nextId = 0;
  let broken = null;
  const failAll = (error) => {
    broken = error;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  worker.on('message', ({ type, id, figures, message }) => {
    const entry = waiting.get(id);
    if (!entry) return;
    waiting.delete(id);
    // A client's message may quote its connection URL: its credentials are masked here.
    if (type === 'error') entry.reject(new RunError(`--probe: ${redactText(message)}`));
    else entry.resolve(figures ?? null);
  });
  worker.on('error', (error) => failAll(new RunError(`--probe: the prober's thread failed: ${error.message}`)));
  worker.on('exit', () => failAll(new RunError('--probe: the prober\'s thread ended')));
  const ask = (message) => {
    const id = (nextId += 1);
    const answer = new Promise((resolve, reject) => {
      if (broken) return reject(broken);
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
    return { id, answer };
  };

  let local = null; // a target probed in this thread
  let unusable = null; // why the current target cannot be probed (its connection failed), or null
  const sample = (limits) => {
    if (local) return startSampling(local.send, { ...limits, pause: () => nextTurn() });
    const { id, answer } = ask({ type: 'sample', ...limits });
    return {
      done: answer,
      stop: () => {
        worker.postMessage({ type: 'stop', id });
        return answer;
      },
    };
  };

  return {
    // An unreachable target is not probed (`error` says why); the steps are the product, and go on.
    async use(target) {
      unusable = null;
      if (target.kind === 'main') {
        try {
          local = await probeCalls(target.store, target, timeoutMs);
        } catch (error) {
          local = { send: () => Promise.reject(error) };
          unusable = String(error?.message ?? error).split('\n')[0];
        }
        return;
      }
      local = null;
      try {
        await ask({ type: 'target', target }).answer;
      } catch (error) {
        if (broken) throw error;
        unusable = error.message.replace(/^--probe: /, '');
      }
    },
    get error() {
      return unusable;
    },
    get thread() {
      return local ? 'main' : 'worker';
    },
    /** The idle figures, with `warmup`: how many untimed requests went before them. */
    async idle() {
      if (unusable) return null;
      const warmup = await sample({ maxCount: PROBE_WARMUP_REQUESTS, maxSeconds: PROBE_WARMUP_SECONDS }).done;
      const figures = await sample({ maxCount: PROBE_IDLE_REQUESTS, maxSeconds: PROBE_IDLE_SECONDS }).done;
      return figures && { ...figures, warmup: warmup ? warmup.count + warmup.errors : 0 };
    },
    underLoad() {
      if (unusable) return { end: async () => null };
      const sampling = sample({ timeline: true });
      return { end: () => sampling.stop() };
    },
    async close() {
      if (!broken) await ask({ type: 'close' }).answer.catch(() => {});
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}
