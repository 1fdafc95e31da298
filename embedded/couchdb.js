// The embedded stand-in for Cloudant: express-pouchdb over in-memory PouchDB in a child
// process, reached over HTTP by the real Cloudant client like any CouchDB.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const childScript = fileURLToPath(new URL('./couchdb-child.cjs', import.meta.url));

/**
 * Starts the CouchDB-compatible server; returns { url, stop() } or throws with the reason.
 * With admin { username, password } it requires those credentials, as a real server would
 * (url stays without them: callers pass them the way they would to that server).
 */
export async function startCouchServer({ timeoutMs = 20_000, admin } = {}) {
  const env = admin ? { ...process.env, COUCH_ADMIN_USER: admin.username, COUCH_ADMIN_PASSWORD: admin.password } : process.env;
  const child = fork(childScript, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], detached: true, env });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr = (stderr + chunk).slice(-2000); });
  const exit = new Promise((resolve) => child.once('exit', resolve));

  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    child.on('message', (message) => {
      if (message?.event === 'listening') { clearTimeout(timer); resolve(message.port); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`exited with code ${code}`)); });
    child.once('error', (error) => { clearTimeout(timer); reject(error); });
  }).catch((error) => {
    child.kill('SIGKILL');
    const detail = stderr.trim().split('\n').pop();
    throw new Error(`the embedded CouchDB server did not start: ${error.message}${detail ? ` (${detail})` : ''}`);
  });

  child.unref();
  child.channel?.unref();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000); // cleared, so it holds no event loop
    await exit;
    clearTimeout(kill);
  };
  return { url: `http://127.0.0.1:${port}`, port, stop };
}
