// A bare node:http server for bench/accuracy.js, run as a child process: answers every
// request with a small JSON body (after --sleep-ms, if given), reports its URL over IPC.
import { createServer } from 'node:http';

const body = Buffer.from('{"message":"Text data"}');
const sleepIndex = process.argv.indexOf('--sleep-ms');
const sleepMs = sleepIndex > 0 ? Number(process.argv[sleepIndex + 1]) : 0;
const answer = (response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  response.end(body);
};
const busyIndex = process.argv.indexOf('--busy-us');
const busyNs = busyIndex > 0 ? BigInt(Math.round(Number(process.argv[busyIndex + 1]) * 1000)) : 0n;
const server = createServer((request, response) => {
  if (busyNs > 0n) {
    // CPU work per request: the server, not the client, is what limits throughput.
    const until = process.hrtime.bigint() + busyNs;
    while (process.hrtime.bigint() < until);
  }
  if (sleepMs > 0) setTimeout(answer, sleepMs, response);
  else answer(response);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  process.send?.({ event: 'listening', url: `http://127.0.0.1:${server.address().port}` });
});
const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('disconnect', stop);
