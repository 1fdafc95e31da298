// What only the fast engine (driver/engines/fast.js) has to get right, since it speaks HTTP/1.1
// itself: bodies it must find the end of, connections the server closes, bytes that are not
// HTTP; and a whole run with --engine fast, --workers and --probe through the CLI. The known
// cases both engines pass are in http-engine.test.js, workloads.test.js and workers.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import net from 'node:net';
import { measureStep } from '../../driver/step.js';
import { fastEngine } from '../../driver/engines/fast.js';
import { runDriverCli } from '../helpers/driver-cli.js';

async function listen(t, server) {
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(resolve);
  }));
  return `http://127.0.0.1:${server.address().port}`;
}

test('a chunked body is timed to its last chunk: two parts written 30 ms apart take at least 30 ms', async (t) => {
  const url = await listen(t, createServer((request, response) => {
    response.write('first part');
    setTimeout(() => response.end('second part'), 30);
  }));
  const step = await measureStep(fastEngine, { url, concurrency: 2, maxRequests: 20 });
  assert.equal(step.responses, 20);
  assert.deepEqual(step.errors, { total: 0, byKind: {}, samples: {} });
  assert.ok(step.latency.minMs >= 29, `min ${step.latency.minMs} ms for a body ended 30 ms after its first chunk`);
});

test('a server that says Connection: close gets a new connection for each request, and no errors', async (t) => {
  let connections = 0;
  const server = createServer((request, response) => {
    response.writeHead(200, { connection: 'close', 'content-type': 'text/plain' });
    response.end('ok');
  });
  server.on('connection', () => (connections += 1));
  const url = await listen(t, server);
  const step = await measureStep(fastEngine, { url, concurrency: 3, maxRequests: 60 });
  assert.equal(step.responses, 60);
  assert.deepEqual(step.errors, { total: 0, byKind: {}, samples: {} });
  assert.equal(connections, 60);
});

test('idle connections the server closed (its keep-alive timeout) are reopened, not counted as errors', async (t) => {
  let connections = 0;
  // Each connection closed 30 ms after its answer, while idle, as a keep-alive timeout does.
  const server = createServer((request, response) => {
    response.end('ok');
    setTimeout(() => request.socket.destroy(), 30);
  });
  server.on('connection', () => (connections += 1));
  const url = await listen(t, server);
  // 5 per second: each connection sits idle 200 ms, and the server closes it after 30.
  const step = await measureStep(fastEngine, { url, rps: 5, maxRequests: 5 });
  assert.equal(step.responses, 5);
  assert.deepEqual(step.errors, { total: 0, byKind: {}, samples: {} });
  assert.equal(connections, 5);
});

test('a body that runs until the close (no length, HTTP/1.0) ends at the close', async (t) => {
  const server = net.createServer((socket) => {
    socket.once('data', () => socket.end('HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil the close'));
  });
  const url = await listen(t, server);
  const step = await measureStep(fastEngine, { url, concurrency: 2, maxRequests: 10 });
  assert.equal(step.responses, 10);
  assert.deepEqual(step.errors, { total: 0, byKind: {}, samples: {} });
});

test('a connection closed mid-response is conn ECONNRESET; ' +
  'bytes that are not HTTP are conn HPE_INVALID_RESPONSE', async (t) => {
  const cut = await listen(t, net.createServer((socket) => {
    socket.once('data', () => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part of it'));
  }));
  const cutStep = await measureStep(fastEngine, { url: cut, concurrency: 1, maxRequests: 3 });
  assert.deepEqual({ ...cutStep.errors, samples: {} }, { total: 3, byKind: { 'conn ECONNRESET': 3 }, samples: {} });
  assert.equal(cutStep.responses, 0);
  const garbage = await listen(t, net.createServer((socket) => {
    socket.once('data', () => socket.write('SSH-2.0-OpenSSH_9.6\r\n\r\n'));
  }));
  const garbageStep = await measureStep(fastEngine, { url: garbage, concurrency: 1, maxRequests: 3 });
  assert.deepEqual({ ...garbageStep.errors, samples: {} },
    { total: 3, byKind: { 'conn HPE_INVALID_RESPONSE': 3 }, samples: {} });
});

test('an error answer\'s body is the step\'s sample, chunked or ended by the close', async (t) => {
  const message = { code: 'VALUE_TOO_LARGE', error: 'the memcached server refused a value over 1 MB' };
  const chunked = await listen(t, createServer((request, response) => {
    response.writeHead(413, { 'Content-Type': 'application/json' });
    response.write('{"code":"VALUE_TOO_LARGE",'); // two chunks: the sample is the body, not its first chunk
    setImmediate(() => response.end(`"error":${JSON.stringify(message.error)}}`));
  }));
  const step = await measureStep(fastEngine, { url: chunked, concurrency: 2, maxRequests: 20 });
  assert.deepEqual(step.errors, {
    total: 20, byKind: { 'http 413': 20 }, samples: { 'http 413': `${message.code}: ${message.error}` },
  });
  const untilClose = await listen(t, net.createServer((socket) => {
    socket.once('data', () => socket.end('HTTP/1.0 503 Service Unavailable\r\n\r\nbusy: try later'));
  }));
  const closeStep = await measureStep(fastEngine, { url: untilClose, concurrency: 1, maxRequests: 3 });
  assert.deepEqual(closeStep.errors, {
    total: 3, byKind: { 'http 503': 3 }, samples: { 'http 503': 'busy: try later' },
  });
});

test('node test --engine fast --workers 2 --probe: the run says which engine sent the load and why, ' +
  'in its System line and its JSON', async (t) => {
  let served = 0;
  const url = await listen(t, createServer((request, response) => {
    served += 1;
    response.end('ok');
  }));
  const { status, stdout, stderr } = await runDriverCli([
    '--url', `${url}/`, '--engine', 'fast', '--threads', '2', '--probe', '-c', '4', '-n', '400', '--warmup', '20',
    '--json', '-',
  ]);
  assert.equal(status, 0, stderr);
  const result = JSON.parse(stdout);
  assert.equal(result.settings.engine, 'fast');
  assert.equal(result.settings.engineChoice, 'option');
  assert.equal(result.settings.workers, 2);
  const [step] = result.steps;
  assert.equal(step.requests, 400);
  assert.equal(step.responses, 400);
  assert.equal(step.workers.length, 2);
  assert.ok(step.probe.underLoad.count > 0, 'the probe ran beside the step');
  assert.ok(served >= 420, `the server saw ${served} requests: the step's, the warm-up's and the probe's`);
  assert.match(stderr, /^System: {3}Node v[\d.]+ · .* · engine fast \(--engine fast\)$/m);
});
