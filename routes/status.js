// GET /stores: every store, its status, where its server is (credentials masked), its keys, and the
// write limits, so a driver can refuse a workload up front. GET /healthz: 200 while the app serves; a
// store being down is reported, not fatal. Both name the answering process (`pid`) and `workers`.
import { Router } from 'express';
import { redactDeep } from '../util/redact.js';

export function statusRoutes(stores, { limits = {}, workers = 1 } = {}) {
  const router = Router();
  router.get('/stores', async (req, res) => {
    res.json({ stores: redactDeep(await stores.status()), limits, pid: process.pid, workers });
  });
  router.get('/healthz', async (req, res) => {
    const list = await stores.status();
    res.json({
      status: 'ok',
      uptimeSeconds: Math.round(process.uptime()),
      pid: process.pid,
      workers,
      stores: Object.fromEntries(list.map((store) => [store.name, store.status])),
    });
  });
  return router;
}
