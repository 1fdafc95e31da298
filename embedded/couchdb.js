// The embedded stand-in for Cloudant: express-pouchdb over in-memory PouchDB in a child process,
// reached over HTTP like any CouchDB.
import { fileURLToPath } from 'node:url';
import { forkListening } from '../util/fork-child.js';

const childScript = fileURLToPath(new URL('./couchdb-child.cjs', import.meta.url));

// admin { username, password }: credentials required, as a real server would (url stays without them).
// plan 'lite': Cloudant Lite's rate limits (embedded/couch-rate-limit.cjs).
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
