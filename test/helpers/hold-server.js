// A node:http server in its own process (so its timers and the driver's do not share one
// event loop) that holds each request a set time before answering. argv[2]: JSON list of
// hold times in ms, used in turn by request number (request n is held holds[n % length]).
// GET /held answers the times it really held every request so far, in ms, as JSON.
// Announces { event: 'listening', url } over IPC (util/fork-child.js).
import { createServer } from 'node:http';

const holds = JSON.parse(process.argv[2] ?? '[0]');
const held = [];
let served = 0;
const server = createServer((request, response) => {
  if (request.url === '/held') {
    response.writeHead(200, { 'content-type': 'application/json' });
    return response.end(JSON.stringify(held));
  }
  const start = process.hrtime.bigint();
  const holdMs = holds[served % holds.length];
  served += 1;
  setTimeout(() => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('ok');
    held.push(Number(process.hrtime.bigint() - start) / 1e6);
  }, holdMs);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ event: 'listening', url: `http://127.0.0.1:${server.address().port}` }));
process.on('disconnect', () => process.exit(0));
