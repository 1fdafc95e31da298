// --workload, --value-size and --distribution parsed: each returns { value } or { problem }.
import { APP_MAX_VALUE_BYTES, DISTRIBUTIONS, HOTSPOT_DEFAULT, MIXED, WORKLOADS } from '../config/workloads.js';
import { formatBytes } from '../util/bytes.js';
import { shown } from './values.js';

const UNITS = { '': 1, b: 1, k: 1024, kb: 1024, m: 1024 * 1024, mb: 1024 * 1024 };

/** "100", "10KB", "1MB" (K = 1024) -> bytes, or null. */
export function parseSize(text) {
  const match = /^(\d+)\s*([a-z]*)$/i.exec(text.trim());
  if (!match || !(match[2].toLowerCase() in UNITS)) return null;
  return Number(match[1]) * UNITS[match[2].toLowerCase()];
}

/** --value-size: a size or a range MIN-MAX (drawn per request), 1 byte to the app's limit. */
export function parseValueSize(value) {
  const bad = {
    problem: '--value-size must be a size in bytes such as 100, 10KB or 1MB, ' +
      `or a range such as 100-1000, not "${value}"`,
  };
  // A number from code is one size in bytes; text is a size or a range.
  const sizes = typeof value === 'number'
    ? [Number.isInteger(value) && value >= 0 ? value : null]
    : splitRange(value);
  if (!sizes) return bad;
  const [min, max = min] = sizes;
  if (min === null || max === null) return bad;
  if (min < 1) return { problem: `--value-size must be at least 1 byte, not "${value}"` };
  if (min > max) return { problem: `--value-size ${value}: the smaller size comes first (MIN-MAX)` };
  if (max > APP_MAX_VALUE_BYTES) {
    const limit = `${formatBytes(APP_MAX_VALUE_BYTES)} (${shown(APP_MAX_VALUE_BYTES)} bytes)`;
    return { problem: `--value-size ${value} is more than the app accepts in one value: at most ${limit}` };
  }
  return { value: { min, max } };
}

// "100-1000" or "10KB": each size in bytes (null where one is not a size), or null for no range.
function splitRange(text) {
  const parts = text.split('-');
  if (parts.length > 2 || parts.some((part) => !part.trim())) return null;
  return parts.map(parseSize);
}

/** --distribution: a name, or hotspot:H/O (H% of the records take O% of the requests). */
export function parseDistribution(text) {
  const hotspot = /^hotspot:(\d+)\/(\d+)$/.exec(text);
  if (hotspot) {
    const [hot, share] = [Number(hotspot[1]), Number(hotspot[2])];
    if (hot < 1 || hot > 99 || share < 1 || share > 99) {
      return { problem: `--distribution ${text}: H and O are whole percentages from 1 to 99 (hotspot:20/80)` };
    }
    return { value: { name: 'hotspot', hotFraction: hot / 100, hotShare: share / 100 } };
  }
  if (!Object.hasOwn(DISTRIBUTIONS, text)) {
    return { problem: `--distribution: no distribution "${text}" (known: ${Object.keys(DISTRIBUTIONS).join(', ')})` };
  }
  return { value: text === 'hotspot' ? { name: text, ...HOTSPOT_DEFAULT } : { name: text } };
}

export function distributionName(distribution) {
  if (!distribution) return null;
  if (distribution.name !== 'hotspot') return distribution.name;
  return `hotspot:${Math.round(distribution.hotFraction * 100)}/${Math.round(distribution.hotShare * 100)}`;
}

const mixOf = (shares) => Object.entries(shares).filter(([, share]) => share > 0)
  .map(([operation, share]) => ({ operation, share }));

/** --workload: a name from config/workloads.js or mixed:R/W. */
export function parseWorkload(text) {
  const mixed = /^mixed:(.*)$/.exec(text);
  if (mixed) {
    const parts = /^(\d+)\/(\d+)$/.exec(mixed[1]);
    const [read, write] = parts ? [Number(parts[1]), Number(parts[2])] : [NaN, NaN];
    if (!parts || read > 100 || write > 100 || read + write !== 100) {
      return {
        problem: `--workload ${text}: ` +
          'R and W are whole percentages of reads and updates adding up to 100, as in mixed:95/5',
      };
    }
    const mix = mixOf({ read: read / 100, update: write / 100 });
    return { value: { name: text, mix, distribution: MIXED.distribution, load: MIXED.load } };
  }
  if (!Object.hasOwn(WORKLOADS, text)) {
    const known = [...Object.keys(WORKLOADS).filter((name) => !WORKLOADS[name].unsupported), MIXED.name].join(', ');
    return { problem: `--workload: no workload "${text}" (known: ${known}; --workload list describes them)` };
  }
  const definition = WORKLOADS[text];
  if (definition.unsupported) return { problem: `--workload ${text}: ${definition.unsupported}` };
  const { mix, distribution, load } = definition;
  return { value: { name: text, mix: mixOf(mix), distribution, load } };
}
