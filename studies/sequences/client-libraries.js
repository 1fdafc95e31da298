// The client-libraries study's five scripts (two Node.js Kyoto Tycoon clients) as lists of store
// operations with the study's key and value sizes (pure data).
import { createRandom } from '../../util/random.js';

/** The study's sizes (bytes) and repetitions, as published. */
export const STUDY = Object.freeze({
  appendBytes: 33,
  smallSetBytes: 320,
  smallGetBytes: 462, // 14 appends of 33 B: what an appended key holds after 14 rounds
  largeValueBytes: 320_000,
  bigValueBytes: 320_000_000,
  iterations: Object.freeze({
    serial_put_large: 144,
    serial_put_big: 2,
    get_random: 14_400,
    get_random_large: 144,
    get_random_big: 1,
  }),
});

export const SCRIPT_NAMES = Object.freeze(Object.keys(STUDY.iterations));

// How many distinct keys get_random picks from, for each of its two reads.
export const GET_POOL = 144;
// An appended key takes this many appends before the next key is used (14 x 33 B = 462 B).
export const APPENDS_PER_KEY = 14;

function fixedKey(prefix, n, length) {
  const digits = String(n);
  if (prefix.length + digits.length > length) {
    throw new RangeError(`key ${prefix}${digits} is longer than ${length} characters`);
  }
  return prefix + digits.padStart(length - prefix.length, '0');
}

export const keys = Object.freeze({
  appendA: (script, n) => fixedKey(`kt:${script}a:`, n, 14), // 14 B
  appendB: (script, n) => `kt:${script}b:${n}`, // at most 14 B
  small: (script, n) => fixedKey(`kt:${script}s:`, n, 40), // 40 B
  large: (n) => fixedKey('kt:l:', n, 32), // 32 B
  big: (n) => fixedKey('kt:g:', n, 32), // 32 B
  appended: (n) => fixedKey('kt:r:', n, 14), // get_random's 14 B keys
  smallRead: (n) => fixedKey('kt:q:', n, 40), // get_random's 40 B keys
});

function putRound(script, i, valueKey, valueBytes) {
  const appendKey = Math.floor(i / APPENDS_PER_KEY);
  return [
    { op: 'append', key: keys.appendA(script, appendKey), size: STUDY.appendBytes },
    { op: 'append', key: keys.appendB(script, appendKey), size: STUDY.appendBytes },
    { op: 'set', key: keys.small(script, i), size: STUDY.smallSetBytes },
    { op: 'set', key: valueKey, size: valueBytes },
  ];
}

/**
 * The scripts at a scale: { prepare, scripts: [{ name, ops }], keys }. `prepare` (untimed)
 * writes the keys get_random reads.
 */
export function planScripts({ iterations = {}, bigValueBytes = STUDY.bigValueBytes, seed = 1 } = {}) {
  const n = { ...STUDY.iterations, ...iterations };
  for (const [name, count] of Object.entries(n)) {
    if (!Number.isSafeInteger(count) || count < 1) {
      throw new RangeError(`${name}: iterations must be a whole number of at least 1, not ${count}`);
    }
  }
  const random = createRandom(seed, 7);
  const times = (count, round) => Array.from({ length: count }, (_, i) => round(i)).flat();

  const putLarge = times(n.serial_put_large, (i) => putRound('L', i, keys.large(i), STUDY.largeValueBytes));
  const putBig = times(n.serial_put_big, (i) => putRound('B', i, keys.big(i), bigValueBytes));
  const prepare = times(GET_POOL, (j) => [
    { op: 'set', key: keys.appended(j), size: STUDY.smallGetBytes },
    { op: 'set', key: keys.smallRead(j), size: STUDY.smallSetBytes },
  ]);
  const getRandom = times(n.get_random, () => [
    { op: 'get', key: keys.appended(random.below(GET_POOL)), size: STUDY.smallGetBytes },
    { op: 'get', key: keys.smallRead(random.below(GET_POOL)), size: STUDY.smallSetBytes },
  ]);
  // The large and big reads pick among the values the put scripts wrote (so those run first).
  const getLarge = times(n.get_random_large, () => [
    { op: 'get', key: keys.large(random.below(n.serial_put_large)), size: STUDY.largeValueBytes },
  ]);
  const getBig = times(n.get_random_big, () => [
    { op: 'get', key: keys.big(random.below(n.serial_put_big)), size: bigValueBytes },
  ]);

  const scripts = [
    { name: 'serial_put_large', ops: putLarge },
    { name: 'serial_put_big', ops: putBig },
    { name: 'get_random', ops: getRandom },
    { name: 'get_random_large', ops: getLarge },
    { name: 'get_random_big', ops: getBig },
  ];
  const written = new Set([...putLarge, ...putBig, ...prepare].map((op) => op.key));
  return { prepare, scripts, keys: [...written] };
}
