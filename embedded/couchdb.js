// The embedded stand-in for Cloudant: express-pouchdb over in-memory PouchDB in a child
// process, reached over HTTP by the real Cloudant client like any CouchDB.
import { fileURLToPath } from 'node:url';
import { forkListening } from '../util/fork-child.js';

const childScript = fileURLToPath(new URL('./couchdb-child.cjs', import.meta.url));

/**
 * Starts the CouchDB-compatible server; returns { url, stop() } or throws with the reason.
 * With admin { username, password } it requires those credentials, as a real server would
 * (url stays without them: callers pass them the way they would to that server).
 * With plan 'lite' it enforces Cloudant Lite's rate limits (embedded/couch-rate-limit.cjs);
 * GET <url>/_storebench/limits tells what it accepted and refused.
 */
export async function startCouchServer({ timeoutMs = 20_000, admin, plan = 'none' } = {}) {
  const env = {
    ...process.env,
    COUCH_RATE_PLAN: plan,
    ...(admin ? { COUCH_ADMIN_USER: admin.username, COUCH_ADMIN_PASSWORD: admin.password } : {}),
  };
  let started;
  try {
    started = await forkListening(childScript, [], {
      name: 'the embedded CouchDB server',
      env,
      detached: true,
      timeoutMs,
    });
  } catch (error) {
    const detail = error.output?.split('\n').pop();
    throw new Error(`${error.message}${detail ? ` (${detail})` : ''}`);
  }
  const { child, message, stop } = started;
  child.unref();
  child.channel?.unref();
  child.stdout.unref?.();
  child.stderr.unref?.();
  return { url: `http://127.0.0.1:${message.port}`, port: message.port, stop };
}
