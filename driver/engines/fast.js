// The fast HTTP engine (`--engine fast`): HTTP/1.1 written straight to sockets, one keep-alive
// connection per client, a fraction of loadtest's CPU per request (docs/measurement.md says why
// not undici or Node's http client). The contract is the loadtest engine's; in the open model a
// request waits for a connection past CONNECTIONS_PER_CLIENT x concurrency (loadtest's agent
// allows as many), its latency counting from its intended start all the same. A connection
// closed before its response ended is `conn ECONNRESET`, as Node's "socket hang up".
import net from 'node:net';
import tls from 'node:tls';
import { ResponseReader, commonHeaders, requestHead } from './http1.js';
import { LoadRun } from './load-run.js';

export const CONNECTIONS_PER_CLIENT = 10;
const READ_BUFFER_BYTES = 64 * 1024;

const hangUp = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

class Client {
  constructor(run) {
    this.run = run;
    this.socket = null;
    this.handle = null; // the meter's handle of the request in flight
    this.request = null; // its workload request (null: the target's GET)
    this.stage = 0; // read-modify-write: 1 once the PUT went out
    this.firstStoreMs = -1; // read-modify-write: the GET's store time
    this.onCancel = (error) => this.cancel(error);
    this.buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  }

  start(handle, request) {
    this.handle = handle;
    this.request = request;
    this.stage = 0;
    this.write(request);
  }

  write(spec) {
    const socket = this.socket ?? this.connect();
    if (spec === null) {
      socket.write(this.run.getBytes);
      return;
    }
    const { body } = spec;
    const head = requestHead(spec.method, spec.path, this.run.headers, body ? body.length : -1, spec.authorization);
    if (!body) {
      socket.write(head, 'latin1');
      return;
    }
    socket.cork(); // head and body in one writev
    socket.write(head, 'latin1');
    socket.write(body);
    socket.uncork();
  }

  connect() {
    const { host, port, secure } = this.run;
    // One reused buffer per client, no 'data' event or new Buffer per read (net's `onread`).
    const onread = { buffer: this.buffer, callback: (length, buffer) => this.received(socket, reader, buffer, length) };
    const socket = secure
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, onread })
      : net.connect({ host, port, noDelay: true, onread });
    if (secure) socket.setNoDelay(true);
    const reader = new ResponseReader((status, keepAlive, body, storeMs) =>
      this.responded(socket, status, keepAlive, body, storeMs));
    socket.on('error', (error) => this.broken(socket, error));
    socket.on('close', () => this.closed(socket, reader));
    this.socket = socket;
    return socket;
  }

  received(socket, reader, buffer, length) {
    if (socket !== this.socket) return;
    try {
      reader.push(buffer, length);
    } catch (error) {
      this.broken(socket, error);
    }
  }

  responded(socket, status, keepAlive, body, storeMs) {
    if (socket !== this.socket || this.handle === null) return; // a connection given up, or bytes nobody asked for
    const { request, handle } = this;
    if (request?.then && this.stage === 0 && status >= 200 && status < 300) {
      if (!keepAlive || !this.run.keepAlive) this.drop();
      this.stage = 1;
      this.firstStoreMs = storeMs;
      this.write(request.then);
      return;
    }
    this.handle = null;
    this.request = null;
    const both = this.firstStoreMs < 0 || storeMs < 0 ? -1 : this.firstStoreMs + storeMs;
    handle.responded(status, body, this.stage === 0 ? storeMs : both);
    if (!keepAlive || !this.run.keepAlive) this.drop();
    request?.settle(status, this.stage);
    this.run.settled(this);
  }

  fail(error) {
    const { handle, request } = this;
    this.handle = null;
    this.request = null;
    handle.failed(error);
    request?.settle(null, this.stage);
    this.run.settled(this);
  }

  cancel(error) {
    if (this.handle === null) return;
    this.drop();
    this.fail(error);
  }

  broken(socket, error) {
    if (socket !== this.socket) return;
    this.drop();
    if (this.handle !== null) this.fail(error);
  }

  closed(socket, reader) {
    if (socket !== this.socket) return;
    reader.closed(); // a body that ran until the close ends here (responded() moves on)
    if (socket !== this.socket) return;
    this.socket = null;
    if (this.handle !== null) this.fail(hangUp());
  }

  drop() {
    const { socket } = this;
    this.socket = null;
    socket?.destroy();
  }
}

class FastRun extends LoadRun {
  constructor(load, meter) {
    super(load, meter);
    const { url, concurrency, rps, keepAlive } = load;
    const target = new URL(url);
    this.secure = target.protocol === 'https:';
    this.host = target.hostname.replace(/^\[|\]$/g, '');
    this.port = Number(target.port) || (this.secure ? 443 : 80);
    this.keepAlive = keepAlive !== false;
    this.headers = commonHeaders(target, { keepAlive: this.keepAlive });
    this.getBytes = Buffer.from(requestHead('GET', `${target.pathname}${target.search}`, this.headers), 'latin1');
    this.clients = [];
    this.maxClients = rps ? CONNECTIONS_PER_CLIENT * concurrency : concurrency;
    this.queue = []; // open model: requests begun with no connection free, oldest first from queueAt
    this.queueAt = 0;
    this.onAbort = () => {
      this.stop();
      for (const client of this.clients) if (client.handle === null) client.drop();
    };
  }

  newClient() {
    const client = new Client(this);
    this.clients.push(client);
    return client;
  }

  send(client) {
    const request = this.workload ? this.workload.next() : null;
    const handle = this.meter.begin(client.onCancel, request?.operation);
    this.begun();
    client.start(handle, request);
  }

  closedLoop() {
    const clients = Math.min(this.concurrency, this.maxRequests);
    for (let i = 0; i < clients && this.take(); i += 1) this.send(this.newClient());
  }

  settled(client) {
    if (this.signal?.aborted) return client.drop();
    if (!this.rps) {
      if (this.take()) this.send(client);
      return;
    }
    while (this.queueAt < this.queue.length) {
      const waiting = this.queue[this.queueAt];
      this.queue[this.queueAt] = undefined;
      this.queueAt += 1;
      if (this.queueAt > 1024 && this.queueAt * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.queueAt);
        this.queueAt = 0;
      }
      if (waiting.cancelled) continue;
      waiting.client = client;
      client.start(waiting.handle, waiting.request);
      return;
    }
    this.idle.push(client);
  }

  scheduled() {
    const client = this.idle.pop() ?? (this.clients.length < this.maxClients ? this.newClient() : null);
    if (client) return this.send(client);
    const request = this.workload ? this.workload.next() : null;
    const waiting = { request, handle: null, client: null, cancelled: false };
    waiting.handle = this.meter.begin((error) => {
      if (waiting.client) return waiting.client.cancel(error);
      waiting.cancelled = true;
      waiting.handle.failed(error);
      request?.settle(null, 0);
    }, request?.operation);
    this.begun();
    this.queue.push(waiting);
  }

  release() {
    for (const client of this.clients) client.drop();
  }
}

/** @type {import('../step.js').Engine} */
export const fastEngine = {
  name: 'fast',
  async run(load, meter) {
    const run = new FastRun(load, meter);
    run.start();
    await run.done;
    return { reported: null, release: () => run.release() };
  },
};
