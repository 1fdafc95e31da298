// node-redis client options shared by every store that talks to Redis through it.
// Fail fast while disconnected (no offline queue: a request must get a 503, not hang),
// and keep reconnecting in the background so the store recovers when the server returns.

/** Options for createClient() from a resolved redis connection. */
export function redisClientOptions(connection) {
  return {
    url: connection.url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 5000,
      reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2000),
      ...(connection.ca ? { tls: true, ca: connection.ca } : {}),
    },
  };
}

/** Connects, or rejects within timeoutMs (node-redis would otherwise retry forever). */
export async function connectWithin(client, timeoutMs = 5000) {
  let timer;
  const timeout = new Promise((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no connection within ${timeoutMs} ms`)), timeoutMs);
  });
  let lastError;
  const remember = (error) => { lastError = error; };
  client.on('error', remember);
  try {
    await Promise.race([client.connect(), timeout]);
  } catch (error) {
    client.destroy();
    throw lastError ?? error;
  } finally {
    clearTimeout(timer);
    client.off('error', remember);
  }
}
