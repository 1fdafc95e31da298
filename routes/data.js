// GET /:store/:key: the route every benchmark hits, so it does as little as it can. The
// store hands back the payload's JSON bytes and they go out as they are: no parse, no
// stringify, no ETag hashing of a 270 KB body.
import { Router } from 'express';

export function dataRoutes(stores) {
  const router = Router();
  router.get('/:store/:key', async (req, res) => {
    const bytes = await stores.read(req.params.store, req.params.key);
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': bytes.length });
    res.end(bytes);
  });
  return router;
}
