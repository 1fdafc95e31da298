// A node:http server in its own process whose CPU use is known: each request burns
// `requestMicros` of this process's own CPU time before answering, and in the background it
// burns `dutyPercent` of a core (busy 20 ms of CPU, then idle for the rest of each cycle).
// GET /cpu answers what it has used so far by its own clock (process.cpuUsage, µs) and the
// requests it served, so a test can hold the tiers' /proc figures against it.
// argv[2]: JSON { requestMicros, dutyPercent }. Announces { event: 'listening', url } over IPC.
import { createServer } from 'node:http';

const { requestMicros = 0, dutyPercent = 0 } = JSON.parse(process.argv[2] ?? '{}');
const BURST_MICROS = 20_000;

const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
// Spins until this process has used `micros` more CPU: CPU time, not wall time, so a busy
// machine that preempts it makes the burn slower, never smaller.
const burn = (micros) => {
  const until = cpuMicros() + micros;
  while (cpuMicros() < until) { /* spin */ }
};

if (dutyPercent > 0) {
  const idleMs = (BURST_MICROS / 1000) * (100 / dutyPercent - 1);
  const cycle = () => {
    burn(BURST_MICROS);
    setTimeout(cycle, idleMs);
  };
  cycle();
}

let served = 0;
const server = createServer((request, response) => {
  if (request.url === '/cpu') {
    response.writeHead(200, { 'content-type': 'application/json' });
    return response.end(JSON.stringify({ cpuMicros: cpuMicros(), served, atMs: performance.now() }));
  }
  served += 1;
  burn(requestMicros);
  response.writeHead(200, { 'content-type': 'text/plain' });
  response.end('ok');
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ event: 'listening', url: `http://127.0.0.1:${server.address().port}` }));
process.on('disconnect', () => process.exit(0));
