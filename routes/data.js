// GET /:store/:key: the route every benchmark hits, so it does as little as it can. The
// store hands back the stored bytes and they go out as they are: no parse, no stringify, no
// ETag hashing of a 270 KB body. key1..key3 are the seeded JSON payloads; any other key holds
// whatever bytes were written to it, so it is sent as octet-stream.
import { Router } from 'express';
import { keys as seededKeys } from '../data/payloads.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const BYTES_TYPE = 'application/octet-stream';
const seeded = new Set(seededKeys);

export function dataRoutes(stores) {
  const router = Router();
  router.get('/:store/:key', async (req, res) => {
    const { store, key } = req.params;
    const bytes = await stores.read(store, key);
    res.writeHead(200, { 'Content-Type': seeded.has(key) ? JSON_TYPE : BYTES_TYPE, 'Content-Length': bytes.length });
    res.end(bytes);
  });
  return router;
}
