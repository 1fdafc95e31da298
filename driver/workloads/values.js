// Keys and values of a key space. Keys are `user` and the record number in ten digits
// (user0000000042), as YCSB names its records. Values are slices of one buffer of random
// bytes made once from the seed: a write costs the driver a subarray, never fresh random
// bytes, so writing costs it no more CPU than reading. Which slice (and, for a size range,
// how long) follows from the seed, the record and a version number, so a value can be made
// again from those three alone: the verification keeps a version per key, never the bytes.
import { createRandom, hash3, mix32 } from './random.js';

export const KEY_PREFIX = 'user';
const KEY_DIGITS = 10;
// The buffer holds at least this many bytes, and twice the largest value, so values of one
// size start at a million different places or more.
const POOL_MIN_BYTES = 1024 * 1024;

/** The key of record number `index`: user0000000042. */
export const keyOf = (index) => `${KEY_PREFIX}${String(index).padStart(KEY_DIGITS, '0')}`;

/**
 * The values of a run with `seed`, each `min` to `max` bytes (equal for a fixed size).
 * `valueOf(index, version)` is the value version `version` of record `index` holds: a
 * Buffer that shares the pool's memory (do not change it).
 */
export function createValues({ seed, min, max }) {
  const size = Math.max(POOL_MIN_BYTES, 2 * max);
  const pool = Buffer.allocUnsafeSlow(size + 3); // its own memory, 4-byte aligned for the words below
  const words = new Uint32Array(pool.buffer, pool.byteOffset, Math.ceil(size / 4));
  const random = createRandom(seed, 7);
  for (let i = 0; i < words.length; i += 1) words[i] = random.uint32();
  const span = max - min + 1;
  const sizeOf = (index, version) =>
    (span === 1 ? min : min + (mix32(hash3(seed, index, version) ^ 0x5bd1e995) % span));
  const startOf = (index, version, length) => hash3(seed, index, version) % (size - length + 1);
  return {
    pool: pool.subarray(0, size),
    sizeOf,
    valueOf(index, version) {
      const length = sizeOf(index, version);
      const start = startOf(index, version, length);
      return pool.subarray(start, start + length);
    },
  };
}
