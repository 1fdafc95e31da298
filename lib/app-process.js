// Runs app.js as its own process, as a user or the platform would, and stops it.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const appPath = fileURLToPath(new URL('../app.js', import.meta.url));

/** Forks app.js with args and env; resolves { url, child, output(), exited } once it listens. */
export function forkApp(args = ['--port', '0'], env = process.env, { timeoutMs = 30_000 } = {}) {
  const child = fork(appPath, args, { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let output = '';
  child.stdout.on('data', (chunk) => { output += chunk; });
  child.stderr.on('data', (chunk) => { output += chunk; });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`app.js did not listen within ${timeoutMs} ms:\n${output}`)), timeoutMs);
    child.on('message', (message) => {
      if (message?.event !== 'listening') return;
      clearTimeout(timer);
      resolve({ url: message.url, child, output: () => output, exited });
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`app.js exited (${code ?? signal}) before listening:\n${output}`));
    });
  });
}
