// GET /stores: every store, its status, where its server is (credentials masked where they sit:
// a URL's password, credentials inside a URL in a reason) and its keys; and the
// write routes' limits (`limits.maxValueSize`, bytes).
// GET /healthz: 200 while the app serves, with the same per-store status; a store being down
// is reported, not fatal, because the app still serves the others.
// Both name the process that answered (`pid`) and how many serve the port (`workers`: app.js
// --workers N runs N, and which one answers a connection is the primary's choice).
import { Router } from 'express';
import { redactDeep } from '../util/redact.js';

/**
 * limits: what the write routes accept ({ maxValueSize }), so a driver can refuse a workload up
 * front; workers: the app processes serving (1 unless app.js --workers).
 */
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
