// Starting and stopping the local servers the embedded default runs; every child is tied to this process's life.
import { spawn } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { endGroup, signalGroup } from '../util/process-group.js';

const guardScript = fileURLToPath(new URL('./guard.sh', import.meta.url));

// Released just before the caller binds it.
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port, { timeoutMs = 10_000, host = '127.0.0.1', isAlive = () => true } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise((resolve) => {
      const socket = connect(port, host, () => { socket.destroy(); resolve(true); });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    if (!isAlive()) throw new Error('the server exited before it accepted connections');
    if (Date.now() > deadline) {
      throw new Error(`nothing accepted connections on ${host}:${port} within ${timeoutMs} ms`);
    }
    await sleep(50);
  }
}

// Starts `command args` under guard.sh and waits until it accepts TCP connections on port; removeDir
// goes once the server exited, however the parent ended. pid is the guard's, leading the server's
// process group. stop() is idempotent.
export async function startServer({
  name, command, args, port, cwd, env = process.env, stopSignal = 'TERM', removeDir = '', timeoutMs = 15_000,
}) {
  // detached: its own process group, so a Ctrl-C reaches only us and we stop it in order.
  const child = spawn(guardScript, [command, ...args], {
    cwd,
    detached: true,
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { ...env, GUARD_STOP_SIGNAL: stopSignal, GUARD_REMOVE_DIR: removeDir },
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr = (stderr + chunk).slice(-2000); });
  let exited = false;
  const exit = new Promise((resolve) => {
    const done = () => { exited = true; resolve(); };
    child.on('exit', done);
    child.on('error', done); // could not be spawned: there is nothing to wait for
  });
  child.stdin.on('error', () => {});

  const stop = async () => {
    if (!exited) child.stdin.end();
    // Cleared on exit, so a stopped server does not hold the event loop for 5 s. The whole group:
    // killing the guard alone would orphan the server.
    const kill = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), 5000);
    await exit;
    clearTimeout(kill);
    // A server that outlived its guard is still in its process group: never leave it running.
    await endGroup(child.pid, { signal: `SIG${stopSignal}` });
  };
  try {
    await waitForPort(port, { timeoutMs, isAlive: () => !exited });
  } catch (error) {
    await stop();
    const detail = stderr.trim().split('\n').pop();
    throw new Error(`${name} did not start: ${error.message}${detail ? ` (${detail})` : ''}`);
  }
  child.unref();
  child.stdin.unref?.();
  return { pid: child.pid, port, stop };
}
