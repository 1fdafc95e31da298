// A Redis client's graceful close, bounded. node-redis's close() and ioredis's quit() wait for the
// answers of the commands under way, with no time limit: a frozen server holds them for ever. And
// node-redis's close() never settles when called while it reconnects with its handshake unanswered:
// its socket goes, and nothing is left to end the wait (an app.close() that never resolved, once its
// Redis had stopped). A client that is not ready has nothing to flush, so it is destroyed at once.

import { withDeadline } from '../deadline.js';

export const CLOSE_GRACE_MS = 2000;

/** Runs closeGracefully(); past CLOSE_GRACE_MS (or if it fails), forceClose() instead. */
export async function closeWithin(closeGracefully, forceClose) {
  try {
    await withDeadline(Promise.resolve().then(closeGracefully), CLOSE_GRACE_MS,
      () => new Error(`not closed within ${CLOSE_GRACE_MS} ms`));
  } catch {
    forceClose();
  }
}

/** Closes a node-redis client: gracefully when ready, within CLOSE_GRACE_MS; else destroyed. */
export async function closeNodeRedis(client) {
  if (!client.isOpen) return;
  if (!client.isReady) return void client.destroy();
  await closeWithin(() => client.close(), () => client.destroy());
}
