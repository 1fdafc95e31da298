// The reference of npm run perf:frameworks: one route, /:store/:key, on a framework as its own docs
// write it, sending key1's bytes with the headers the app sends, and nothing else (no store, no
// timing, no checks). --framework express|fastify|node. Run as a child process (serve-child.js).
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { serveAsChild } from './serve-child.js';
import { payloads } from '../stores/payloads.js';

const { values: { framework } } = parseArgs({ options: { framework: { type: 'string', default: 'node' } } });
const body = payloads.key1;
const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length };

if (framework === 'express') {
  const { default: express } = await import('express');
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.get('/:store/:key', (req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  });
  serveAsChild(createServer(app));
} else if (framework === 'fastify') {
  const { default: Fastify } = await import('fastify');
  let listener;
  const app = Fastify({ serverFactory: (handler) => { listener = handler; return createServer(); } });
  app.get('/:store/:key', (request, reply) => reply.headers(headers).send(body));
  await app.ready();
  serveAsChild(createServer(listener));
} else {
  serveAsChild(createServer((req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  }));
}
