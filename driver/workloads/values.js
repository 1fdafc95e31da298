// Keys and values of a key space. Values are slices of one seeded random buffer, so a write
// costs the driver no more than a read, and a value is remade from (seed, record, version): the
// verification keeps a version per key, never the bytes.
import { createRandom, hash3, mix32 } from '../../util/random.js';

const KEY_PREFIX = 'user';
const KEY_DIGITS = 10;
// The buffer holds at least this many bytes, and twice the largest value, so values of one
// size start at a million different places or more.
const POOL_MIN_BYTES = 1024 * 1024;

export const keyOf = (index) => `${KEY_PREFIX}${String(index).padStart(KEY_DIGITS, '0')}`;

/** The values of a run; `valueOf(index, version)` shares the pool's memory (do not change it). */
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
