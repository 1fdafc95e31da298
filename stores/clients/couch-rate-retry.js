// A Cloudant plan answers 429 past its rate (Lite: 20 lookups/s); study 000's client retried after
// 0.5 s. So do all three CouchDB clients here, at most MAX_RETRIES times; stats() counts the 429s.

export const RETRY_DELAY_MS = 500;
const MAX_RETRIES = 10; // 5 s of retries: well inside the driver's 10 s request deadline

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

export function withRateLimitRetry(store, statusOf, { delayMs = RETRY_DELAY_MS, maxRetries = MAX_RETRIES } = {}) {
  const counts = { seen429: 0, retries: 0, gaveUp: 0 };
  const retrying = (operation) => async (...args) => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await operation(...args);
      } catch (error) {
        if (statusOf(error) !== 429) throw error;
        counts.seen429 += 1;
        if (attempt >= maxRetries) {
          counts.gaveUp += 1;
          throw error;
        }
        counts.retries += 1;
        await sleep(delayMs);
      }
    }
  };
  const wrapped = {};
  for (const [name, value] of Object.entries(store)) {
    wrapped[name] = typeof value === 'function' && name !== 'close' && name !== 'stats' ? retrying(value) : value;
  }
  wrapped.stats = () => ({ ...(store.stats?.() ?? {}), rateLimited: { ...counts } });
  return wrapped;
}
