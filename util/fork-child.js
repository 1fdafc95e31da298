// Forking a Node script that announces itself with an IPC message {event: 'listening', ...}: one place
// that waits with a deadline, keeps the child's last output for the error, and stops it (SIGTERM,
// then SIGKILL), so no caller can leave a child behind.
import { fork } from 'node:child_process';

const OUTPUT_KEPT = 4000; // characters of the child's output kept for error messages

// Resolves to { child, message, output(), exited, stop() }; rejects, the child stopped, when it exits
// first or stays silent past timeoutMs. output: 'capture' or 'inherit'; detached: its own process group.
export async function forkListening(script, args = [], {
  name = script,
  env = process.env,
  output = 'capture',
  detached = false,
  timeoutMs = 20_000,
  stopTimeoutMs = 5000,
} = {}) {
  const stdio = output === 'inherit' ? ['ignore', 'inherit', 'inherit', 'ipc'] : ['ignore', 'pipe', 'pipe', 'ipc'];
  const child = fork(script, args, { env, detached, stdio });
  let kept = '';
  const keep = (chunk) => { kept = (kept + chunk).slice(-OUTPUT_KEPT); };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
  });
  const isRunning = () => child.exitCode === null && child.signalCode === null;

  let stopping;
  const stop = () => (stopping ??= (async () => {
    if (isRunning()) child.kill('SIGTERM');
    // Cleared once it exits, so a stopped child holds no event loop.
    const kill = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
    await exited;
    clearTimeout(kill);
  })());

  let timer;
  try {
    const message = await Promise.race([
      new Promise((resolve) => child.on('message', (m) => m?.event === 'listening' && resolve(m))),
      exited.then(({ code, signal, error }) => {
        const how = error ? error.message : signal ?? `code ${code}`;
        throw Object.assign(new Error(`${name} exited (${how}) before listening`), { reason: 'exited' });
      }),
      new Promise((resolve, reject) => {
        const late = () => Object.assign(new Error(`${name} did not start listening within ${timeoutMs / 1000} s`), {
          reason: 'timeout',
        });
        timer = setTimeout(() => reject(late()), timeoutMs);
      }),
    ]);
    return { child, message, output: () => kept, exited, stop };
  } catch (error) {
    await stop();
    error.output = kept.trim();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
