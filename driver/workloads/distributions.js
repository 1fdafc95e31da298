// Key distributions, as YCSB's generators define them (core/src/main/java/site/ycsb/generator):
// each picks a record number in [0, n) per request from a seeded random source.
// zipfian is YCSB's scrambled one: drawn over 10^10 items, hashed (FNV-1a 64) and folded onto n,
// so popular records are spread out and the skew over n is milder (docs/workloads.md).
import { fnv64Mod } from '../../util/random.js';
import { HOTSPOT_DEFAULT } from '../../config/workloads.js';

export const ZIPFIAN_CONSTANT = 0.99;
// YCSB's ScrambledZipfianGenerator draws over this many items, with this zeta(10^10, 0.99).
export const SCRAMBLED_ITEM_COUNT = 10_000_000_000;
export const SCRAMBLED_ZETAN = 26.46902820178302;

/** zeta(n, theta) = sum of 1 / i^theta for i = 1..n; from `start` items whose sum is `initial`, incrementally. */
export function zeta(n, theta, start = 0, initial = 0) {
  let sum = initial;
  for (let i = start + 1; i <= n; i += 1) sum += 1 / i ** theta;
  return sum;
}

/**
 * A Zipfian generator over [0, items), as YCSB's ZipfianGenerator. `next(count)` may grow the
 * item count: zeta then grows incrementally, as YCSB does for `latest`.
 */
export function createZipfian({ items, theta = ZIPFIAN_CONSTANT, zetan, random }) {
  const alpha = 1 / (1 - theta);
  const zeta2 = zeta(2, theta);
  const half = 1 + 0.5 ** theta;
  let count = items;
  let zetaN = zetan ?? zeta(items, theta);
  let eta = (1 - (2 / count) ** (1 - theta)) / (1 - zeta2 / zetaN);
  const resize = (n) => {
    zetaN = n > count ? zeta(n, theta, count, zetaN) : zeta(n, theta);
    count = n;
    eta = (1 - (2 / count) ** (1 - theta)) / (1 - zeta2 / zetaN);
  };
  return {
    next(n = count) {
      if (n !== count) resize(n);
      const u = random.random();
      const uz = u * zetaN;
      if (uz < 1) return 0;
      if (uz < half) return 1;
      return Math.floor(count * (eta * u - eta + 1) ** alpha);
    },
    get zetan() {
      return zetaN;
    },
  };
}

/** A key chooser over `records` records: { next() }. `keyCount()` serves `latest`. */
export function createKeyChooser(
  { name, hotFraction = HOTSPOT_DEFAULT.hotFraction, hotShare = HOTSPOT_DEFAULT.hotShare },
  { records, random, keyCount = () => records },
) {
  switch (name) {
    case 'uniform':
      return { next: () => random.below(records) };
    case 'zipfian': {
      const zipfian = createZipfian({ items: SCRAMBLED_ITEM_COUNT, zetan: SCRAMBLED_ZETAN, random });
      return { next: () => fnv64Mod(zipfian.next(), records) };
    }
    case 'latest': {
      const zipfian = createZipfian({ items: Math.max(keyCount(), 2), random });
      return {
        next() {
          const count = keyCount();
          if (count < 2) return 0;
          return count - 1 - Math.min(zipfian.next(count), count - 1);
        },
      };
    }
    case 'hotspot': {
      const hot = Math.floor(records * hotFraction);
      const cold = records - hot;
      const inHot = () => hot > 0 && (cold === 0 || random.random() < hotShare);
      return { next: () => (inHot() ? random.below(hot) : hot + random.below(cold)) };
    }
    case 'sequential': {
      let position = 0;
      return {
        next() {
          const record = position;
          position = position + 1 === records ? 0 : position + 1;
          return record;
        },
      };
    }
    default:
      throw new TypeError(`unknown distribution ${name}`);
  }
}
