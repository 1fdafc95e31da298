// The one key alphabet every store accepts, checked before any store is called: a key is 1 to
// 250 characters (memcached's limit) of A-Z a-z 0-9 . _ : ~ -. Nothing in it can name a server
// resource on its own (no /, no %, no spaces or control bytes), and every store keeps its own
// internal keys behind a separator outside it (INTERNAL_SEPARATOR), where no user key can
// reach. Adapters still encode keys into URLs and document ids (stores/clients/couch-values.js):
// the alphabet is the first fence, not the only one.
import { InvalidKeyError } from '../util/errors.js';

export const KEY_MAX_LENGTH = 250;
export const KEY_ALPHABET = 'A-Z a-z 0-9 . _ : ~ -';
const keyPattern = /^[A-Za-z0-9._:~-]+$/;

/** Joins a store's internal names ("storebench#write-behind#key1"): # is outside the alphabet. */
export const INTERNAL_SEPARATOR = '#';

/** Why key is not a valid key, in a few words, or undefined when it is valid. */
export function keyProblem(key) {
  if (typeof key !== 'string' || key.length === 0) return 'a key is 1 to 250 characters, not empty';
  if (key.length > KEY_MAX_LENGTH) return `a key is at most ${KEY_MAX_LENGTH} characters, not ${key.length}`;
  if (!keyPattern.test(key)) {
    const bad = [...key].find((c) => !keyPattern.test(c));
    const shown = /^[\x21-\x7e]$/.test(bad) ? `"${bad}"` : `U+${bad.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
    return `a key has only the characters ${KEY_ALPHABET}, not ${shown}`;
  }
  return undefined;
}

// Store names: the key alphabet and + (redis+postgres). A name a remote /stores lists is
// checked against it before the driver uses or prints it (driver/targets.js).
export const STORE_NAME_ALPHABET = `${KEY_ALPHABET} +`;
const storeNamePattern = /^[A-Za-z0-9._:~+-]{1,250}$/;

/** Why name cannot be a store's name, in a few words, or undefined when it can. */
export function storeNameProblem(name) {
  if (typeof name === 'string' && storeNamePattern.test(name)) return undefined;
  return `a store name is 1 to 250 characters of ${STORE_NAME_ALPHABET}`;
}

/** Throws InvalidKeyError (400 INVALID_KEY) unless key is valid. */
export function assertKey(key, store) {
  const problem = keyProblem(key);
  if (problem) throw new InvalidKeyError(problem, store);
  return key;
}
