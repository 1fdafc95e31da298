// Tests that need a server they cannot reach skip with the reason on a developer's machine,
// and fail in CI (CI=true), where .ci/run must have started everything.
import assert from 'node:assert/strict';
import { createConnection } from 'node:net';

const inCI = process.env.CI === 'true';

/** Skips the test (locally) or fails it (CI) with reason. Returns true when the test must stop. */
export function unavailable(t, reason) {
  if (inCI) assert.fail(`required in CI: ${reason}`);
  t.skip(reason);
  return true;
}

/** Resolves true when something accepts TCP connections at url's host and port. */
export function reachable(url, timeoutMs = 1000) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port) });
    const done = (ok) => { socket.destroy(); resolve(ok); };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** The URL of a running Redis for tests: REDIS_URL, else the local default. */
export const testRedisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The URL of a running PostgreSQL for tests: POSTGRES_URL, else the local server's db `test`. */
export const testPostgresUrl = process.env.POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
