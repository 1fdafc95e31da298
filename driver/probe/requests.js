// What one probe request is: a GET on a keep-alive connection of its own, or a get() of a store
// the probe opened itself (direct mode).
import { keepAliveAgent, httpRequest } from '../http-request.js';
import { shapedStore } from '../workloads/value-shape.js';

/**
 * @param {{ kind: 'http', url: string }
 *   | { kind: 'direct', store: string, key: string, connections: object, settings?: object,
 *       valueShape?: string }} target
 * @param {{ timeoutMs: number }} options
 */
export async function openProbeTarget(target, { timeoutMs }) {
  if (target.kind === 'http') {
    const agent = keepAliveAgent(target.url, 1);
    return {
      send: async () => answered(await httpRequest(target.url, { agent, timeoutMs, maxBodyBytes: 1024 * 1024 * 1024 })),
      close: async () => agent.destroy(),
    };
  }
  if (target.kind === 'direct') {
    // Its own connection, so its calls queue behind none of the load's; read in the run's value
    // shape (a hash key read with a plain GET would be WRONGTYPE).
    const { findAdapter } = await import('../../stores/index.js');
    const adapter = findAdapter(target.store);
    if (!adapter) throw new Error(`no store adapter "${target.store}"`);
    const store = shapedStore(await adapter.open(target.connections, target.settings), target.valueShape);
    try {
      return { ...await probeCalls(store, target, timeoutMs), close: () => store.close() };
    } catch (error) {
      await store.close().catch(() => {});
      throw error;
    }
  }
  throw new TypeError(`unknown probe target kind ${target.kind}`);
}

// Only a 2xx answer is a sample: a 404, a 429 or a 5xx is answered fast without the work the
// load's requests do, and would pull the probe's figures down; it counts as an error.
function answered(response) {
  if (response.status < 200 || response.status > 299) {
    throw Object.assign(new Error(`HTTP ${response.status}`), { code: 'HTTP_STATUS' });
  }
  return response;
}

/** The probe's call of its own store: a get, or with target.valueSize the value written first. */
export async function probeCalls(store, { key, valueSize, writes }, timeoutMs) {
  if (!valueSize) return { send: async () => found(await withDeadline(store.get(key), timeoutMs)) };
  const value = Buffer.alloc(valueSize, 'p');
  await withDeadline(store.set(key, value), timeoutMs);
  if (writes) return { send: () => withDeadline(store.set(key, value), timeoutMs) };
  return { send: async () => found(await withDeadline(store.get(key), timeoutMs)) };
}

function found(value) {
  if (value === null || value === undefined) throw Object.assign(new Error('no value'), { code: 'MISSING' });
  return value;
}

function withDeadline(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(Object.assign(new Error(`no answer within ${ms} ms`), { code: 'TIMEOUT' }));
    }, ms);
    promise.then(
      (value) => { clearTimeout(timer); resolve(value); },
      (error) => { clearTimeout(timer); reject(error); },
    );
  });
}
