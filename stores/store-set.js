// The stores one app serves: each opened (or unavailable, with the reason), read on the
// request path with typed errors, reported for /stores and /healthz, closed in order.
import { KeyNotFoundError, StoreUnavailableError, UnknownStoreError } from '../util/errors.js';
import { redactText } from '../util/redact.js';

const PING_TIMEOUT_MS = 2000;
const REOPEN_INTERVAL_MS = 5000;

const withTimeout = (promise, ms, what) => {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms); }),
  ]).finally(() => clearTimeout(timer));
};

/** One line from any error, with credentials cut out: safe for logs and JSON bodies. */
export const reasonOf = (error) => redactText(error?.message || String(error)).split('\n')[0];

export class StoreSet {
  /**
   * @param {object[]} entries  { adapter, store?, reason?, reasonCode?, connections?, reopen?() }
   * @param {Array<() => Promise<void>>} stopServers  stops the embedded servers, after the stores close
   */
  constructor(entries, stopServers = []) {
    this.entries = new Map(entries.map((entry) => [entry.adapter.name, entry]));
    this.stopServers = stopServers;
  }

  /** The entry for name, or UnknownStoreError (404). */
  entry(name) {
    const entry = this.entries.get(name);
    if (!entry) throw new UnknownStoreError(name);
    return entry;
  }

  /** The stored bytes of key, or a typed error: 404 unknown store/key, 503 store down. */
  async read(name, key) {
    const entry = this.entry(name);
    if (!entry.store) {
      this.#reopenSoon(entry);
      throw new StoreUnavailableError(name, entry.reason);
    }
    let bytes;
    try {
      bytes = await entry.store.get(key);
    } catch (error) {
      throw new StoreUnavailableError(name, reasonOf(error), error);
    }
    if (bytes == null) throw new KeyNotFoundError(name, key);
    return bytes;
  }

  /** Every store with its status: up, down (opened but not answering) or unavailable. */
  async status() {
    return Promise.all(
      [...this.entries.values()].map(async (entry) => {
        const { adapter } = entry;
        const report = {
          name: adapter.name,
          description: adapter.description,
          ...(adapter.lifecycle ? { lifecycle: adapter.lifecycle } : {}),
          status: 'unavailable',
          servers: Object.fromEntries(
            Object.entries(entry.connections ?? {}).map(([service, c]) => [service, `${c.source}: ${c.display}`]),
          ),
          keys: entry.keys ?? [],
        };
        if (!entry.store) {
          this.#reopenSoon(entry);
          return { ...report, reason: entry.reason, reasonCode: entry.reasonCode };
        }
        try {
          await withTimeout(entry.store.ping(), PING_TIMEOUT_MS, 'ping');
          report.status = 'up';
        } catch (error) {
          report.status = 'down';
          report.reason = reasonOf(error);
          report.reasonCode = 'STORE_UNAVAILABLE';
        }
        if (entry.store.stats) report.stats = entry.store.stats();
        return report;
      }),
    );
  }

  /** Closes every store, then stops the servers the embedded default started. */
  async close() {
    await Promise.allSettled([...this.entries.values()].map((entry) => entry.store?.close()));
    await Promise.allSettled(this.stopServers.map((stop) => stop()));
  }

  // A store whose server was configured but down when the app started is tried again in
  // the background, at most every few seconds, so it recovers without a restart.
  #reopenSoon(entry) {
    if (!entry.reopen || entry.reopening || Date.now() - (entry.triedAt ?? 0) < REOPEN_INTERVAL_MS) return;
    entry.reopening = true;
    entry.triedAt = Date.now();
    entry
      .reopen()
      .then((opened) => Object.assign(entry, opened, { reason: undefined, reasonCode: undefined }))
      .catch((error) => Object.assign(entry, { reason: reasonOf(error), reasonCode: 'OPEN_FAILED' }))
      .finally(() => { entry.reopening = false; });
  }
}
