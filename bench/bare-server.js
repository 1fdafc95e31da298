// The floor the app is measured against: a bare node:http server, no framework, no store,
// run as a child process. GET /key1../key3 sends that payload's bytes with the headers the
// app sends; any other path sends key1's. --sleep-ms N holds each answer N ms; --busy-us N
// spends N µs of CPU per request (so the server, not the client, limits throughput).
// Reports its URL over IPC (or prints it, run by hand).
import { createServer } from 'node:http';
import { serveAsChild } from './serve-child.js';
import { payloads } from '../stores/payloads.js';

const option = (name) => {
  const index = process.argv.indexOf(name);
  return index > 0 ? Number(process.argv[index + 1]) : 0;
};
const sleepMs = option('--sleep-ms');
const busyNs = BigInt(Math.round(option('--busy-us') * 1000));

const answer = (request, response) => {
  const bytes = payloads[request.url.slice(1)] ?? payloads.key1;
  response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': bytes.length });
  response.end(bytes);
};
const server = createServer((request, response) => {
  if (busyNs > 0n) {
    const until = process.hrtime.bigint() + busyNs;
    while (process.hrtime.bigint() < until);
  }
  if (sleepMs > 0) setTimeout(answer, sleepMs, request, response);
  else answer(request, response);
});
serveAsChild(server);
