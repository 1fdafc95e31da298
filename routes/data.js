// GET /:store/:key: the route every benchmark hits, so it does as little as it can: the stored bytes
// go out as they are (no parse, no stringify, no ETag hashing of a 270 KB body).
import { Router } from 'express';
import { keys as seededKeys } from '../stores/payloads.js';
import { serverTimingValue, setServerTiming } from './server-timing.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const BYTES_TYPE = 'application/octet-stream';
const seeded = new Set(seededKeys);

export function dataRoutes(stores) {
  const router = Router();
  router.get('/:store/:key', async (req, res) => {
    const { store, key } = req.params;
    const { timing } = req;
    let bytes;
    try {
      bytes = await stores.read(store, key, timing);
    } catch (error) {
      setServerTiming(res, timing); // an answer the store gave (404, 503) says so too
      throw error;
    }
    const type = seeded.has(key) ? JSON_TYPE : BYTES_TYPE;
    if (timing === undefined) {
      res.writeHead(200, { 'Content-Type': type, 'Content-Length': bytes.length });
    } else {
      const serverTiming = serverTimingValue(timing);
      res.writeHead(200, { 'Content-Type': type, 'Content-Length': bytes.length, 'Server-Timing': serverTiming });
    }
    res.end(bytes);
  });
  return router;
}
