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

// Each operation the store has rejects with StoreTimeoutError (503) past ms; close and stats stay its own.
export function withOperationDeadline(store, name, ms) {
  const guarded = { ...store };
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
      return withDeadline(pending, ms, timeoutError);
    };
  }
  return guarded;
}
