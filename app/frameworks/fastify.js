// The app on fastify 5. Each route of routes/table.js is a fastify route (fastify serves HEAD for
// each GET itself); each path's other methods answer 405 or OPTIONS; fastify's own errors (a path
// that does not decode) reach the same error answer as the routes'. Answers go out through
// reply.send, fastify's own way.
import { createServer } from 'node:http';
import Fastify from 'fastify';
import { ANY } from '../../routes/table.js';

// Every method a path's 405 answers for: fastify routes only the methods it is given.
const METHODS = ['GET', 'HEAD', 'PUT', 'DELETE', 'POST', 'OPTIONS', 'PATCH'];

const send = (reply, answer) => reply.code(answer.status).headers(answer.headers).send(answer.body);

function sendError(reply, answer) {
  // An answer already begun cannot be replaced: cutting the connection is what tells the client.
  if (reply.raw.headersSent) {
    reply.hijack();
    return void reply.raw.destroy();
  }
  if (!answer) return void reply.hijack(); // the client left: nothing to send
  return send(reply, answer);
}

/** A node:http request listener serving `surface` (routes/table.js's createRoutes) through fastify. */
export async function fastifyListener(surface) {
  let listener;
  const app = Fastify({
    // The app's own node:http server, with its deadlines, serves what fastify routes (the listener
    // taken here, as serverless adapters take it); the server made here never listens.
    serverFactory: (handler) => {
      listener = handler;
      return createServer();
    },
    logger: false,
    // A key may be 250 characters: the routes refuse a longer one in their own words.
    routerOptions: { maxParamLength: 2048, ignoreTrailingSlash: true },
    return503OnClosing: false, // the app's drain answers what arrives while it stops (app/drain.js)
    frameworkErrors: (error, request, reply) => sendError(reply, surface.errorAnswer(error, request.raw)),
  });
  // Bodies are bytes, read by the write routes within their limits (routes/body.js): fastify parses none.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (request, payload, done) => done(null));
  const serve = (handle) => async (request, reply) => send(reply, await handle(request.raw, reply.raw, request.params));
  // A path's ANY route takes the methods its other routes do not (a GET takes HEAD too).
  const taken = (path) => surface.routes.filter((route) => route.path === path && route.method !== ANY)
    .flatMap(({ method }) => (method === 'GET' ? ['GET', 'HEAD'] : [method]));
  for (const { method, path, handle } of surface.routes) {
    const methods = method === ANY ? METHODS.filter((one) => !taken(path).includes(one)) : method;
    app.route({ method: methods, url: path, handler: serve(handle) });
  }
  app.setNotFoundHandler(serve(surface.notFound));
  app.setErrorHandler((error, request, reply) => sendError(reply, surface.errorAnswer(error, request.raw)));
  await app.ready();
  return listener;
}
