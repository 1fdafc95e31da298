// A server that takes writes and keeps nothing, run as a child process: for measuring the
// driver alone on a workload (its CPU per request, its memory over a huge key space).
// POST /<store> (a bulk load) answers {"written": N}, counting the records in the body by their
// length prefixes; PUT, POST .../append and DELETE answer 204, as the app does; GET answers 200
// with --value-bytes N bytes (default 100), as the app does for a key holding a value that
// size, so a read and a write of the same size cost the client alike but for their direction.
// --hold-ms N answers each data request N ms after it arrived, so reads and writes go at the
// same rate, set by the hold, whatever each costs the server.
// Reports its URL over IPC (or prints it, run by hand).
import { createServer } from 'node:http';
import { serveAsChild } from './serve-child.js';

const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const value = Buffer.alloc(option('--value-bytes', 100), 'x');
const holdMs = option('--hold-ms', 0);

// Counts the records of a bulk body across its chunks: [uint16 key length][key][uint32 value length][value].
function recordCounter() {
  let records = 0;
  let header = Buffer.alloc(0);
  let skip = 0; // bytes of the current key or value still to pass
  let state = 'key-length';
  return {
    push(chunk) {
      let at = 0;
      while (at < chunk.length) {
        if (skip > 0) {
          const taken = Math.min(skip, chunk.length - at);
          skip -= taken;
          at += taken;
          continue;
        }
        const need = state === 'key-length' ? 2 : 4;
        const taken = Math.min(need - header.length, chunk.length - at);
        header = Buffer.concat([header, chunk.subarray(at, at + taken)]);
        at += taken;
        if (header.length < need) continue;
        skip = need === 2 ? header.readUInt16BE(0) : header.readUInt32BE(0);
        if (state === 'value-length') records += 1;
        state = state === 'key-length' ? 'value-length' : 'key-length';
        header = Buffer.alloc(0);
      }
    },
    get records() {
      return records;
    },
  };
}

const server = createServer((request, response) => {
  const parts = request.url.split('/').filter(Boolean);
  if (request.method === 'POST' && parts.length === 1) {
    const counter = recordCounter();
    request.on('data', (chunk) => counter.push(chunk));
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ written: counter.records }));
    });
    return;
  }
  request.resume();
  request.on('end', () => (holdMs ? setTimeout(answer, holdMs, request, response) : answer(request, response)));
});

function answer(request, response) {
  if (request.method === 'GET') {
    response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': value.length });
    response.end(value);
  } else {
    response.writeHead(204);
    response.end();
  }
}
serveAsChild(server);
