// A node:http server in its own process whose speed a test sets by path, for the fairness
// tests (order, warm-up, control, ranks, failures). Every request is held a known time:
//   /hold/<ms>/<name>                     always <ms>
//   /slowstart/<n>/<slowMs>/<fastMs>/<name>  its first <n> requests <slowMs>, then <fastMs>
//   /accelerating/<ms>/<name>             <ms> at the first request, then 30% less each quarter
//                                         second (continuously): it gets faster for as long as it
//                                         is asked, 1.4 times a quarter-second window and 2 times a
//                                         half-second one. Each hold is drawn within 25% of that, so
//                                         connections do not move in lockstep (a window then counts
//                                         whole waves: a rise of 1.25 once read under 1.05 in CI)
//   /switch/<n>/<beforeMs>/<afterMs>/<name>  <beforeMs> for its first <n> requests, then <afterMs>
//   /refuse/<status>/<name>               answers <status> at once with a JSON error
// GET /served answers how many requests each path got, as JSON. Announces { event: 'listening',
// url } over IPC (util/fork-child.js).
import { createServer } from 'node:http';

const served = new Map();
const firstAt = new Map();

function holdFor(parts, count, path) {
  const [kind, a, b, c] = parts;
  if (kind === 'hold') return Number(a);
  if (kind === 'slowstart' || kind === 'switch') return count <= Number(a) ? Number(b) : Number(c);
  if (kind === 'accelerating') {
    const seconds = (Date.now() - firstAt.get(path)) / 1000;
    return Number(a) * 0.7 ** (seconds / 0.25) * (0.75 + Math.random() / 2);
  }
  return 0;
}

const server = createServer((request, response) => {
  if (request.url === '/served') {
    response.writeHead(200, { 'content-type': 'application/json' });
    return response.end(JSON.stringify(Object.fromEntries(served)));
  }
  const path = request.url;
  const count = (served.get(path) ?? 0) + 1;
  served.set(path, count);
  if (!firstAt.has(path)) firstAt.set(path, Date.now());
  const parts = path.split('/').slice(1);
  if (parts[0] === 'refuse') {
    const status = Number(parts[1]);
    response.writeHead(status, { 'content-type': 'application/json' });
    const body = { error: 'the test server refuses every request \u001b[2Kwith this reason', code: 'TEST_REFUSED' };
    return response.end(JSON.stringify(body));
  }
  setTimeout(() => {
    response.writeHead(200, { 'content-type': 'text/plain' });
    response.end('ok');
  }, holdFor(parts, count, path));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => process.send({ event: 'listening', url: `http://127.0.0.1:${server.address().port}` }));
process.on('disconnect', () => process.exit(0));
