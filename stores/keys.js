// The one key alphabet every store accepts: 1 to 250 characters (memcached's limit) of
// A-Z a-z 0-9 . _ : ~ -. Nothing in it can name a server resource on its own; stores keep internal
// keys behind INTERNAL_SEPARATOR, outside it. Adapters still encode keys: this is the first fence only.
import { InvalidKeyError } from '../util/errors.js';

export const KEY_MAX_LENGTH = 250;
const KEY_ALPHABET = 'A-Z a-z 0-9 . _ : ~ -';
const keyPattern = /^[A-Za-z0-9._:~-]+$/;

export const INTERNAL_SEPARATOR = '#';

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

// Store names: the key alphabet and + (redis+postgres); a remote /stores' names are checked against it.
const STORE_NAME_ALPHABET = `${KEY_ALPHABET} +`;
const storeNamePattern = /^[A-Za-z0-9._:~+-]{1,250}$/;

export function storeNameProblem(name) {
  if (typeof name === 'string' && storeNamePattern.test(name)) return undefined;
  return `a store name is 1 to 250 characters of ${STORE_NAME_ALPHABET}`;
}

export function assertKey(key, store) {
  const problem = keyProblem(key);
  if (problem) throw new InvalidKeyError(problem, store);
  return key;
}
