// A Cloudant plan answers 429 Too Many Requests past its rate (Lite: 20 lookups/s); the study
// behind cloudant-vs-redis (000) saw its client retry such a request after 0.5 s. This wraps a
// CouchDB store's operations the same way for all three clients: a 429 is retried after
// RETRY_DELAY_MS, at most MAX_RETRIES times, then thrown. stats() counts what happened, for
// /stores (`stats.rateLimited`), so a run can show its 429s beside its figures.

export const RETRY_DELAY_MS = 500;
export const MAX_RETRIES = 10; // 5 s of retries: well inside the driver's 10 s request deadline

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

/**
 * The store with each operation retried on 429; `statusOf(error)` reads a client's HTTP status.
 * close and stats stay as they are; stats() gains rateLimited { seen429, retries, gaveUp }.
 */
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
