// node-redis client options shared by the stores that use it. No offline queue: a request gets a 503,
// not a hang, while reconnecting in the background. No per-command timeout (node-redis's default is
// 5 s): every call has our deadline already, and that timeout is the costliest part of a command (a
// direct GET on loopback reached 0.47 of redis-benchmark's rps with it, 1.11 without: docs/direct.md).

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

const AUTH_REFUSED = /WRONGPASS|NOAUTH|invalid password|invalid username-password/i;

// Rejects within timeoutMs (node-redis would otherwise retry forever), at once on refused credentials.
export async function connectWithin(client, timeoutMs = 5000) {
  let timer;
  const timeout = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no connection within ${timeoutMs} ms`)), timeoutMs);
  });
  let lastError;
  let refused;
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
