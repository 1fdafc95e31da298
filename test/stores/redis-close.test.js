// Closing a Redis store never hangs: not while its client reconnects to a server that does not
// answer, nor with a command under way on a frozen server. Regression: node-redis's close() during a
// reconnect never settled, and an app.close() after its Redis had stopped stayed pending for ever.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { once } from 'node:events';
import * as redis from '../../stores/redis.js';
import * as ioredis from '../../stores/ioredis.js';
import { CLOSE_GRACE_MS } from '../../stores/clients/close-within.js';
import { ownRedis } from '../helpers/own-servers.js';
import { closeTime } from '../helpers/close-time.js';

// A TCP relay to a server that can be made silent: hold() cuts every link, and connections made
// after are accepted and never answered, as by a server that hangs after its accept.
async function silenceableRelay(t, port) {
  let silent = false;
  const sockets = new Set();
  const relay = net.createServer((client) => {
    sockets.add(client);
    client.on('error', () => {});
    client.on('close', () => sockets.delete(client));
    if (silent) return void client.resume();
    const server = net.connect({ host: '127.0.0.1', port });
    sockets.add(server);
    server.on('error', () => client.destroy());
    server.on('close', () => sockets.delete(server));
    client.pipe(server).pipe(client);
  });
  relay.listen(0, '127.0.0.1');
  await once(relay, 'listening');
  t.after(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => relay.close(resolve));
  });
  return {
    url: `redis://127.0.0.1:${relay.address().port}`,
    hold() {
      silent = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

test('redis: close() while the client reconnects to a server that accepts and never answers ' +
  'settles at once', async (t) => {
  const server = await ownRedis(t);
  if (!server) return;
  const relay = await silenceableRelay(t, server.port);
  const store = await redis.open({ redis: { url: relay.url, source: 'test' } });
  assert.equal(await store.set('close-test', Buffer.from('v')), undefined);
  relay.hold();
  await sleep(300); // its first reconnect is 50 ms after the cut: it is now waiting on its handshake
  const ms = await closeTime(store, CLOSE_GRACE_MS * 3);
  assert.ok(ms !== null, `close() had not settled after ${CLOSE_GRACE_MS * 3} ms`);
  assert.ok(ms < CLOSE_GRACE_MS, `a client that is not ready is destroyed at once: ${ms.toFixed(0)} ms`);
});

for (const adapter of [redis, ioredis]) {
  test(`${adapter.name}: close() with a read under way on a frozen server gives up after ` +
    `${CLOSE_GRACE_MS} ms, and the read fails`, async (t) => {
    const server = await ownRedis(t);
    if (!server) return;
    const store = await adapter.open({ redis: { url: server.url, source: 'test' } });
    await store.set('close-test', Buffer.from('v'));
    server.signal('SIGSTOP');
    t.after(() => server.signal('SIGCONT'));
    const read = store.get('close-test').then(() => 'answered', () => 'failed');
    await sleep(20);
    const ms = await closeTime(store, CLOSE_GRACE_MS * 3);
    assert.ok(ms !== null, `close() had not settled after ${CLOSE_GRACE_MS * 3} ms`);
    assert.ok(ms >= CLOSE_GRACE_MS * 0.95, `it waited its grace for the answer: ${ms.toFixed(0)} ms`);
    assert.equal(await read, 'failed');
  });
}
