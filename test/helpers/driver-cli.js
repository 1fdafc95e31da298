// Runs the driver CLI the way a user does, for the tests that check its output and exit codes.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { withResultsDir } from './results-dir.js';

export { withoutSavedLine } from './results-dir.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs `node test.js args` (or another script) asynchronously (the servers these tests start live in this
 * process's event loop, which a spawnSync would block); resolves { status, signal, stdout,
 * stderr }. onSpawn(child) gets the child process, e.g. to send it a signal; env replaces
 * its environment (and so that of the app.js it starts). The runs it saves go to a temporary
 * folder (test/helpers/results-dir.js) unless `env` names STOREBENCH_RESULTS_DIR itself.
 */
export function runDriverCli(args, { onSpawn, env, script = 'test.js' } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { cwd: root, env: withResultsDir(env ?? process.env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
    onSpawn?.(child);
  });
}

/**
 * An onSpawn for runDriverCli: SIGINT (Ctrl-C) to the driver once `server` (a test server that
 * records each request it held, startTestServer of test/helpers/driver-servers.js) has held `requests` of them.
 */
export const interruptAfter = (server, requests) => (child) => {
  const poll = setInterval(() => {
    if (server.heldMs.length < requests) return;
    clearInterval(poll);
    child.kill('SIGINT');
  }, 5);
};
