// The floor the app is measured against: a bare node:http server sending the payload bytes
// with the same headers the app sends, no framework, no store. Run as its own process;
// prints its URL (or sends it over IPC) once listening.
import { createServer } from 'node:http';
import { payloads } from '../data/payloads.js';

const server = createServer((req, res) => {
  const bytes = payloads[req.url.slice(1)];
  if (!bytes) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': bytes.length });
  res.end(bytes);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const url = `http://127.0.0.1:${server.address().port}`;
  if (process.send) process.send({ event: 'listening', url });
  else console.log(url);
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
