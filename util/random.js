// Seeded randomness for workloads (xoshiro128** through splitmix32) and YCSB's FNV-1a 64, all in
// 32-bit integer arithmetic: no BigInt on the per-request path.

const TWO_POW_53 = 2 ** 53;

/** splitmix32: turns one 32-bit seed into a stream of well-mixed 32-bit words (for seeding). */
function splitmix32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

const rotl = (x, k) => (x << k) | (x >>> (32 - k));

/** A seeded generator. `stream` picks an independent stream of the same seed. */
export function createRandom(seed, stream = 0) {
  const next = splitmix32((seed ^ Math.imul(stream + 1, 0x27d4eb2f)) >>> 0);
  let s0 = next();
  let s1 = next();
  let s2 = next();
  let s3 = next();
  if ((s0 | s1 | s2 | s3) === 0) s0 = 1; // the one state xoshiro cannot leave
  const uint32 = () => {
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl(s3, 11);
    return result;
  };
  const random = () => ((uint32() >>> 5) * 67108864 + (uint32() >>> 6)) / TWO_POW_53;
  return { uint32, random, below: (n) => Math.floor(random() * n) };
}

/** A fresh 32-bit seed, for a run without --seed (the run records it, so it can be repeated). */
export function randomSeed() {
  return Math.floor(Math.random() * 2 ** 32);
}

/** murmur3's finaliser: a 32-bit word mixed so every input bit affects every output bit. */
export function mix32(h) {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A 32-bit hash of (seed, a, b) for whole numbers a, b below 2^53. */
export function hash3(seed, a, b) {
  let h = mix32(seed ^ 0x3c6ef372);
  h = mix32(h ^ (a >>> 0) ^ Math.imul(Math.floor(a / 4294967296), 0x9e3779b1));
  return mix32(h ^ Math.imul(b >>> 0, 0x85ebca6b) ^ Math.floor(b / 4294967296));
}

// FNV-1a 64 as YCSB's Utils.fnvhash64, in four 16-bit limbs (h0 lowest) so every product fits a double.
const OFFSET_BASIS = [0x2325, 0x8422, 0x9ce4, 0xcbf2]; // 0xcbf29ce484222325

/** YCSB's fnvhash64(value) modulo n, for a whole number value below 2^53 and n up to 2^37. */
export function fnv64Mod(value, n) {
  let [h0, h1, h2, h3] = OFFSET_BASIS;
  let rest = value;
  for (let i = 0; i < 8; i += 1) {
    const octet = rest % 256;
    rest = Math.floor(rest / 256);
    h0 ^= octet;
    // h * (2^40 + 0x1b3): the 2^40 part shifts h by two limbs and 8 bits.
    const r0 = h0 * 0x1b3;
    let r1 = h1 * 0x1b3;
    let r2 = h2 * 0x1b3 + h0 * 256;
    let r3 = h3 * 0x1b3 + h1 * 256;
    r1 += Math.floor(r0 / 65536);
    r2 += Math.floor(r1 / 65536);
    r3 += Math.floor(r2 / 65536);
    h0 = r0 % 65536;
    h1 = r1 % 65536;
    h2 = r2 % 65536;
    h3 = r3 % 65536;
  }
  if (h3 >= 0x8000) {
    // Math.abs of a negative long: two's complement negation.
    h0 = 0x10000 - h0;
    h1 = 0xffff - h1 + Math.floor(h0 / 0x10000);
    h0 %= 0x10000;
    h2 = 0xffff - h2 + Math.floor(h1 / 0x10000);
    h1 %= 0x10000;
    h3 = (0xffff - h3 + Math.floor(h2 / 0x10000)) % 0x10000;
    h2 %= 0x10000;
  }
  let r = h3 % n;
  r = (r * 65536 + h2) % n;
  r = (r * 65536 + h1) % n;
  return (r * 65536 + h0) % n;
}
