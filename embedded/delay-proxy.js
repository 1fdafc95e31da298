// A TCP proxy that delays every byte it forwards, as a network between two machines would: half the
// RTT each way, with optional jitter and bandwidth limit. Not `tc netem`: it needs no root and no
// Linux, works for a configured server, and delays only the store's connections, never the driver's.
// It does not model packet loss, TCP's slow start and window, or per-request handshakes
// (docs/configuration.md#network-emulation).
import net from 'node:net';

// Past this many bytes waiting in one direction, the sender is paused (a slow link's backpressure).
const HIGH_WATER_BYTES = 4 * 1024 * 1024;

// One direction of the link: chunks leave in order (jitter never reorders: TCP would not).
class Direction {
  constructor({ oneWayMs, jitterMs, bandwidth, link, random }) {
    Object.assign(this, { oneWayMs, jitterMs, bandwidth, link, random });
    this.queue = [];
    this.queued = 0;
    this.lastAt = 0;
    this.timer = null;
    this.ended = false;
  }

  // `notBefore`: the connection's handshake, one RTT after accept.
  arrival(bytes, notBefore) {
    const now = performance.now();
    let sent = now;
    if (this.bandwidth > 0) {
      // The link is shared by every connection in this direction, as one path is (unless perConnection).
      sent = Math.max(now, this.link.freeAt) + (bytes / this.bandwidth) * 1000;
      this.link.freeAt = sent;
    }
    const jitter = this.jitterMs > 0 ? (this.random() * 2 - 1) * this.jitterMs : 0;
    const at = Math.max(sent + Math.max(0, this.oneWayMs + jitter), notBefore, this.lastAt);
    this.lastAt = at;
    return at;
  }

  push(at, chunk, deliver) {
    this.queue.push({ at, chunk, deliver });
    this.queued += chunk?.length ?? 0;
    this.#schedule();
  }

  #schedule() {
    if (this.timer || !this.queue.length) return;
    const wait = this.queue[0].at - performance.now();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.#flush();
    }, Math.max(0, wait));
  }

  #flush() {
    // Timers fire up to a millisecond late, never early: a chunk due within half a millisecond goes now.
    const now = performance.now() + 0.5;
    while (this.queue.length && this.queue[0].at <= now) {
      const { chunk, deliver } = this.queue.shift();
      this.queued -= chunk?.length ?? 0;
      deliver(chunk);
    }
    this.onDrain?.();
    this.#schedule();
  }

  clear() {
    clearTimeout(this.timer);
    this.timer = null;
    this.queue = [];
    this.queued = 0;
  }
}

/**
 * @param {{ host: string, port: number }} target  where the server is
 * @param {{ rttMs?: number, jitterMs?: number, bandwidth?: number, perConnection?: boolean,
 *   random?: () => number }} delay  bandwidth: bytes a second per direction, shared by all connections
 *   (0: unlimited), or with perConnection each one's own (where a connection's window limits it)
 */
export async function startDelayProxy(target, {
  rttMs = 0, jitterMs = 0, bandwidth = 0, perConnection = false, random = Math.random,
} = {}) {
  const oneWayMs = rttMs / 2;
  const shared = { up: { freeAt: 0 }, down: { freeAt: 0 } };
  const sockets = new Set();

  const server = net.createServer({ noDelay: true }, (client) => {
    const accepted = performance.now();
    // A real connection is usable one round trip after the SYN; its first bytes reach the server one way later.
    const handshake = accepted + rttMs + oneWayMs;
    const upstream = net.connect({ host: target.host, port: target.port, noDelay: true });
    sockets.add(client);
    sockets.add(upstream);
    const links = perConnection ? { up: { freeAt: 0 }, down: { freeAt: 0 } } : shared;
    const up = new Direction({ oneWayMs, jitterMs, bandwidth, link: links.up, random });
    const down = new Direction({ oneWayMs, jitterMs, bandwidth, link: links.down, random });
    const close = () => {
      up.clear();
      down.clear();
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    const pipe = (from, to, dir, notBefore) => {
      from.on('data', (chunk) => {
        dir.push(dir.arrival(chunk.length, notBefore), chunk, (bytes) => { if (!to.destroyed) to.write(bytes); });
        if (dir.queued > HIGH_WATER_BYTES) from.pause();
      });
      dir.onDrain = () => { if (dir.queued <= HIGH_WATER_BYTES && from.isPaused()) from.resume(); };
      from.on('end', () => dir.push(dir.arrival(0, notBefore), null, () => { if (!to.destroyed) to.end(); }));
    };
    pipe(client, upstream, up, handshake);
    pipe(upstream, client, down, 0);
    client.on('error', close);
    upstream.on('error', close);
    client.on('close', () => { if (!up.queue.length) close(); });
    upstream.on('close', () => { if (!down.queue.length) close(); });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  server.unref();
  return {
    host: '127.0.0.1',
    port: server.address().port,
    connections: () => sockets.size / 2,
    async stop() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
