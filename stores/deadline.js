// Deadlines: a silent or frozen server must cost a request (or the app's start) a bounded
// wait, never the client library's own idea of patience (ioredis and tarantool-driver wait
// for ever for a server that accepts and never answers).
import { StoreTimeoutError } from '../util/errors.js';

/**
 * Settles as promise does, or rejects with timeoutError() once ms have passed. The work
 * behind promise is not cancelled: the caller stops waiting for it, and its late result
 * (or error) is dropped here, so whoever owns that work must see it to the end.
 */
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
 * store, with each operation it has (get, set, delete, append, setMany, setHash, getHash, ping) rejecting with
 * StoreTimeoutError (503 STORE_TIMEOUT) when the server has not answered within ms. An
 * operation the store lacks stays absent. close and stats are the store's own.
 */
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
