// The app on Express 5: the app the studies describe, and the default. Each route of routes/table.js
// is an Express route, registered in the table's order; Express's own errors (a path that does not
// decode) reach the same error answer as the routes'.
import express from 'express';
import { writeAnswer, writeErrorAnswer } from '../../routes/answers.js';
import { ANY } from '../../routes/table.js';

/** An Express app serving `surface` (routes/table.js's createRoutes): a node:http request listener. */
export function expressListener(surface) {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag'); // hashing every 270 KB body would be benchmarked along with the store
  const serve = (handle) => async (req, res) => writeAnswer(res, await handle(req, res, req.params));
  for (const { method, path, handle } of surface.routes) {
    app[method === ANY ? 'all' : method.toLowerCase()](path, serve(handle));
  }
  app.use(serve(surface.notFound));
  // Express recognises an error handler by its four parameters.
  app.use((error, req, res, next) => writeErrorAnswer(res, surface.errorAnswer(error, req)));
  return app;
}
