// A TCP proxy that delays every byte it forwards, as a network between two machines would: half
// the round-trip time each way, optionally with jitter and a bandwidth limit per direction. It
// sits between a store's client and its server (embedded/resolve-service.js puts it there when
// --store-rtt is set), so any server, embedded or configured, looks as far away as a WAN.
//
// Why a proxy and not `tc netem`: it needs no root, no network namespace and no Linux, works
// for a configured server as for an embedded one, delays only the store's connections (never
// the driver's own, which netem on loopback would), and is in the Result's settings like any
// other. What it does not model: packet loss, TCP's slow start and window (a large value is
// delayed by the bandwidth limit alone), or a handshake per request of a client that keeps its
// connection (every store here does). docs/configuration.md#network-emulation says more.
import net from 'node:net';

// Past this many bytes waiting in one direction, the sender is paused (a slow link's backpressure).
const HIGH_WATER_BYTES = 4 * 1024 * 1024;

/**
 * The delay settings as given, checked: { rttMs, jitterMs, bandwidth } (bandwidth in bytes a
 * second per direction, 0 or undefined for none). Active when any of them is.
 */
export const delayActive = ({ rttMs = 0, jitterMs = 0, bandwidth = 0 } = {}) =>
  rttMs > 0 || jitterMs > 0 || bandwidth > 0;

/** A one-line description of a delay: "RTT 50 ms ± 5 ms, 1 MB/s each way" (", per connection" with perConnection). */
export function delayText({ rttMs = 0, jitterMs = 0, bandwidth = 0, perConnection = false } = {}) {
  const parts = [`RTT ${rttMs} ms${jitterMs > 0 ? ` ± ${jitterMs} ms` : ''}`];
  if (bandwidth > 0) parts.push(`${bandwidthText(bandwidth)} each way${perConnection ? ' per connection' : ''}`);
  return parts.join(', ');
}

function bandwidthText(bytesPerSecond) {
  const units = [['GB/s', 1024 ** 3], ['MB/s', 1024 ** 2], ['KB/s', 1024]];
  const [unit, size] = units.find(([, bytes]) => bytesPerSecond >= bytes) ?? ['B/s', 1];
  return `${Number((bytesPerSecond / size).toFixed(2))} ${unit}`;
}

// One direction of the link: chunks leave in order, each after the one-way delay (plus jitter,
// never reordering: TCP would not) and after the link has carried the bytes before it.
class Direction {
  constructor({ oneWayMs, jitterMs, bandwidth, link, random }) {
    Object.assign(this, { oneWayMs, jitterMs, bandwidth, link, random });
    this.queue = [];
    this.queued = 0;
    this.lastAt = 0;
    this.timer = null;
    this.ended = false;
  }

  // When a chunk sent now arrives. `notBefore`: the connection's handshake, one RTT after accept.
  arrival(bytes, notBefore) {
    const now = performance.now();
    let sent = now;
    if (this.bandwidth > 0) {
      // The link is shared by every connection of the proxy in this direction, as one path is
      // (or, perConnection, is this connection's own).
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
    // Timers fire up to a millisecond late and never early by design; a chunk due within half a
    // millisecond goes now rather than after another timer.
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
 * Starts a delaying proxy to `target` on a free loopback port. Resolves to
 * { host, port, connections(), stop() }.
 * @param {{ host: string, port: number }} target  where the server is
 * @param {{ rttMs?: number, jitterMs?: number, bandwidth?: number, perConnection?: boolean,
 *   random?: () => number }} delay
 *   rttMs: the round trip (half each way); jitterMs: each chunk's one-way delay varies by up to
 *   this either side (order kept); bandwidth: bytes a second per direction, shared by all
 *   connections (0: unlimited), or with perConnection each connection's own (a long path where
 *   each connection's window, not the path, limits it); random: for tests
 */
export async function startDelayProxy(target, {
  rttMs = 0, jitterMs = 0, bandwidth = 0, perConnection = false, random = Math.random,
} = {}) {
  const oneWayMs = rttMs / 2;
  const shared = { up: { freeAt: 0 }, down: { freeAt: 0 } };
  const sockets = new Set();

  const server = net.createServer({ noDelay: true }, (client) => {
    const accepted = performance.now();
    // A real connection is usable one round trip after the client asks for it (SYN, SYN-ACK):
    // the first bytes it sends then reach the server one way later.
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
    // from -> to through dir; its end (FIN) is delayed like its data.
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
