// Deadlines: a silent server must cost a bounded wait, not the client library's own patience
// (ioredis and tarantool-driver wait forever for a server that accepts and never answers).
import { StoreTimeoutError } from '../util/errors.js';

// The work behind promise is not cancelled, only no longer waited for: its owner must see it to the end.
export function withDeadline(promise, ms, timeoutError) {
  // Hand-rolled rather than Promise.race: this sits on every request's path.
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(timeoutError()), ms);
    promise.then(
      (value) => { clearTimeout(timer); resolve(value); },
      (error) => { clearTimeout(timer); reject(error); },
    );
  });
}

const operations = ['get', 'set', 'delete', 'append', 'setMany', 'setHash', 'getHash', 'ping'];

/**
 * Deadlines for many operations of one length: a timer each would cost every request a timer's
 * insert and removal (about 6 µs per request on the 2-vCPU VM: docs/measurement.md, "What the app
 * costs"). Instead the operations under way wait in one Set, in the order they began, which is
 * the order their deadlines come, and one interval rejects those past it: an operation fails at
 * most a sweep (a tenth of the deadline, 100 ms at most) after its deadline. The interval stops
 * once a sweep finds nothing under way.
 */
export function deadlineKeeper(ms) {
  const pending = new Set();
  const period = Math.max(1, Math.min(100, Math.floor(ms / 10)));
  let sweeper = null;
  const sweep = () => {
    const now = performance.now();
    for (const entry of pending) {
      if (entry.expiresAt > now) break;
      pending.delete(entry);
      entry.reject(entry.timeoutError());
    }
    if (pending.size === 0) {
      clearInterval(sweeper);
      sweeper = null;
    }
  };
  return (promise, timeoutError) => new Promise((resolve, reject) => {
    const entry = { expiresAt: performance.now() + ms, reject, timeoutError };
    pending.add(entry);
    sweeper ??= setInterval(sweep, period);
    promise.then(
      (value) => { pending.delete(entry); resolve(value); },
      (error) => { pending.delete(entry); reject(error); },
    );
  });
}

// Each operation the store has rejects with StoreTimeoutError (503) past ms; close and stats stay its own.
export function withOperationDeadline(store, name, ms) {
  const guarded = { ...store };
  const within = deadlineKeeper(ms);
  for (const operation of operations) {
    if (typeof store[operation] !== 'function') continue;
    const timeoutError = () => new StoreTimeoutError(name, operation, ms);
    guarded[operation] = (...args) => {
      let pending;
      try {
        pending = Promise.resolve(store[operation](...args));
      } catch (error) {
        return Promise.reject(error);
      }
      return within(pending, timeoutError);
    };
  }
  return guarded;
}
