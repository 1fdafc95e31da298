// The unit tier's guard (test/helpers/unit-isolation.js, preloaded by npm run test:unit): a unit
// test that reaches for a process, a socket or a server fails at once with the rule's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isolateUnitTests } from '../helpers/unit-isolation.js';

isolateUnitTests();
const { execFile, fork, spawn, spawnSync } = await import('node:child_process');
const net = await import('node:net');
const http = await import('node:http');
const dgram = await import('node:dgram');

const refused = { code: 'UNIT_ISOLATION', message: /unit tests touch no network and no child process/ };

test('a child process is refused, whichever call starts it', () => {
  assert.throws(() => spawn(process.execPath, ['-e', '']), refused);
  assert.throws(() => spawnSync(process.execPath, ['-e', '']), refused);
  assert.throws(() => execFile(process.execPath, ['-e', '']), refused);
  assert.throws(() => fork('./test.js'), refused);
});

test('a server, a socket, an HTTP request and a UDP socket are refused', async () => {
  assert.throws(() => net.createServer().listen(0), refused);
  assert.throws(() => http.createServer().listen(0), refused);
  assert.throws(() => net.connect(65000, '127.0.0.1'), refused);
  assert.throws(() => http.get('http://127.0.0.1:65000/'), refused);
  await assert.rejects(fetch('http://127.0.0.1:65000/'), (error) => {
    assert.match(String(error.cause?.message ?? error.message), /unit tests touch no network/);
    return true;
  });
  assert.throws(() => dgram.createSocket('udp4').bind(0), refused);
});
