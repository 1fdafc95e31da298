// --probe: a separate prober sending one request at a time (the studies' single-threaded
// response-time client), before a target's steps (idle) and throughout each step (under
// load). It runs in a worker thread of its own, with its own connection, so its timing does
// not wait on the load's event loop, and its requests are never part of a step's counts.
//
// A store that lives inside the process that opens it (memory: a Map) cannot be reached from
// another thread: in direct mode it is probed in the driver's own thread, between the load's
// callbacks, and its figures say so (thread: 'main'). What that probe sees under load is the
// wait for the driver's event loop, which is exactly what a call of that store waits for.
import { Worker } from 'node:worker_threads';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { startSampling } from './sampler.js';
import { probeCalls } from './requests.js';
import { RunError } from '../../util/errors.js';
import { redactText } from '../../util/redact.js';

// The idle probe: this many requests or this long, whichever comes first.
export const PROBE_IDLE_REQUESTS = 200;
export const PROBE_IDLE_SECONDS = 1;
// Before the idle figures, untimed requests: a new connection's first requests (its handshake,
// the client's and the server's first use of their code paths) are several times slower than
// the ones after (0.16 ms against 0.05 ms a GET on loopback Redis, measured), which would make
// idle read slower than under load.
export const PROBE_WARMUP_REQUESTS = 50;
export const PROBE_WARMUP_SECONDS = 0.25;
// A step must give the probe a chance: at least this many of its requests per client (a
// probe request takes about as long as one of the step's, and the step lasts about
// requests / concurrency of them), and timed steps at least this long.
export const PROBE_MIN_REQUESTS_PER_CLIENT = 10;
export const PROBE_MIN_SECONDS = 0.1;

/**
 * Starts the prober's worker. Resolves to { use(target), idle(), underLoad(), close() }:
 * use(probeTarget) chooses what the next samples send to ({ kind: 'http', url }, { kind:
 * 'direct', store, key, connections, settings }, or { kind: 'main', store, key } for a store
 * probed in this thread); idle() resolves to the idle figures; underLoad() starts sampling
 * and returns { end() } resolving to the figures; close() ends the worker and what it opened.
 */
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
  // Samples the current target: { done, stop() }, both resolving to the figures.
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
    // A target the probe cannot reach is not probed (its figures are null, `error` says why);
    // the steps are the product, and they go on.
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
    /** Why the current target is not probed, or null. */
    get error() {
      return unusable;
    },
    /** Where the probe's requests come from for the current target: 'worker' or 'main'. */
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
