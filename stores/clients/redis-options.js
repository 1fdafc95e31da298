// node-redis client options shared by every store that talks to Redis through it.
// Fail fast while disconnected (no offline queue: a request must get a 503, not hang),
// and keep reconnecting in the background so the store recovers when the server returns.
// No per-command timeout of node-redis's own (its default is 5 s): every call already has one
// deadline, ours (the app's operation deadline, the driver's --timeout in direct mode), and
// node-redis's would cut a slow command at 5 s whatever --timeout says. It is also the costliest
// part of a command in the client (an AbortSignal.timeout and its listener each): with it, a
// direct GET on loopback reached 0.47 of redis-benchmark's rps, without it 1.11
// (npm run perf:direct, docs/direct.md); ioredis has no such default either.

/** Options for createClient() from a resolved redis connection. */
export function redisClientOptions(connection) {
  return {
    url: connection.url,
    disableOfflineQueue: true,
    commandOptions: { timeout: 0 },
    socket: {
      connectTimeout: 5000,
      reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2000),
      ...(connection.ca ? { tls: true, ca: connection.ca } : {}),
    },
  };
}

// Redis's answers to a wrong password or a missing one (AUTH, HELLO).
const AUTH_REFUSED = /WRONGPASS|NOAUTH|invalid password|invalid username-password/i;

/**
 * Connects, or rejects within timeoutMs (node-redis would otherwise retry forever), at once when
 * the credentials are refused.
 */
export async function connectWithin(client, timeoutMs = 5000) {
  let timer;
  const timeout = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no connection within ${timeoutMs} ms`)), timeoutMs);
  });
  let lastError;
  let refused;
  // A server that refuses the credentials will refuse them again: say so now, not at the deadline.
  const refusedAuth = new Promise((_resolve, reject) => { refused = reject; });
  const remember = (error) => {
    lastError = error;
    if (AUTH_REFUSED.test(error?.message ?? '')) refused(error);
  };
  client.on('error', remember);
  try {
    await Promise.race([client.connect(), timeout, refusedAuth]);
  } catch (error) {
    client.destroy();
    throw lastError ?? error;
  } finally {
    clearTimeout(timer);
    client.off('error', remember);
  }
}
