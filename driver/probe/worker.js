// The probe's worker thread (node:worker_threads): its own event loop, so the load's
// callbacks never delay its requests or their timing. Messages in:
//   { type: 'target', id, target }                 open (or reuse) the target's connection
//   { type: 'sample', id, maxCount?, maxSeconds? } sample until a limit or 'stop'
//   { type: 'stop', id }                           end the sampling under way
// Messages out: { type: 'ready', id }, { type: 'figures', id, figures }, { type: 'error', id, message }.
import { parentPort, workerData } from 'node:worker_threads';
import { openProbeTarget } from './requests.js';
import { startSampling } from './sampler.js';

const { timeoutMs } = workerData;
const opened = new Map(); // target key -> Promise<{ send, close }>
let current = null;
let sampling = null;

const keyOf = (target) => JSON.stringify([target.kind, target.url ?? target.store, target.key ?? null]);
const reason = (error) => String(error?.message ?? error).split('\n')[0];

parentPort.on('message', async (message) => {
  const { type, id } = message;
  try {
    if (type === 'target') {
      const key = keyOf(message.target);
      if (!opened.has(key)) opened.set(key, openProbeTarget(message.target, { timeoutMs }));
      current = await opened.get(key);
      parentPort.postMessage({ type: 'ready', id });
    } else if (type === 'sample') {
      if (!current) throw new Error('no probe target');
      sampling = startSampling(current.send, message);
      const figures = await sampling.done;
      sampling = null;
      parentPort.postMessage({ type: 'figures', id, figures });
    } else if (type === 'stop') {
      sampling?.stop();
    } else if (type === 'close') {
      await Promise.allSettled([...opened.values()].map(async (target) => (await target).close()));
      parentPort.postMessage({ type: 'ready', id });
    }
  } catch (error) {
    parentPort.postMessage({ type: 'error', id, message: reason(error) });
  }
});
