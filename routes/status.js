// GET /stores: every store, its status, where its server is (credentials masked), its keys, and the
// write limits, so a driver can refuse a workload up front. GET /healthz: 200 while the app serves; a
// store being down is reported, not fatal. Both name the answering process (`pid`), `workers` and the
// `framework` that serves them.
import { redactDeep } from '../util/redact.js';
import { jsonAnswer } from './answers.js';

export function statusRoutes(stores, { limits = {}, workers = 1, framework } = {}) {
  return {
    stores: async () => jsonAnswer(200, {
      stores: redactDeep(await stores.status()), limits, pid: process.pid, workers, framework,
    }),
    healthz: async () => {
      const list = await stores.status();
      return jsonAnswer(200, {
        status: 'ok',
        uptimeSeconds: Math.round(process.uptime()),
        pid: process.pid,
        workers,
        framework,
        stores: Object.fromEntries(list.map((store) => [store.name, store.status])),
      });
    },
  };
}
