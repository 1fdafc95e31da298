// What each request does, from a run's options (options/table/workload.js): --workload, its key
// space (--records, --value-size, --distribution, --no-load, --no-verify), and how values are
// stored (--value-shape) and probed (--probe-size). The parsers of --workload, --value-size and
// --distribution return { value } or { problem }; the rest push their problems.
import {
  APP_MAX_VALUE_BYTES, DISTRIBUTIONS, HOTSPOT_DEFAULT, MIXED, OPERATIONS, VALUE_SHAPES, WORKLOADS,
} from '../config/workloads.js';
import { byteSize, SettingValueError } from '../config/setting-values.js';
import { formatBytes } from '../util/bytes.js';
import { OPTION_NAMED, defaultOf } from './table.js';
import { shown } from './values.js';

const UNITS = { '': 1, b: 1, k: 1024, kb: 1024, m: 1024 * 1024, mb: 1024 * 1024 };

/** "100", "10KB", "1MB" (K = 1024) -> bytes, or null. */
function parseSize(text) {
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

/**
 * The workload's flags: { list: true } for --workload list, else { options }: { workload,
 * keySpace, records, valueSize, distribution, seed, load, verify }. `keys`: --keys as given.
 */
export function parseWorkloadFlags({ text, single }, values, problems, { keys, seed }) {
  const name = text('workload');
  if (name === 'list') return { list: true };
  // Without --workload: the seeded read of key1..key3, as the original ran.
  let workload = { name: 'read', mix: [{ operation: 'read', share: 1 }], distribution: 'uniform', load: true };
  if (name !== undefined) {
    const parsed = parseWorkload(name);
    if (parsed.problem) problems.push(parsed.problem);
    else workload = parsed.value;
  }
  const records = single('records');
  // The seeded read of key1..key3 is today's run; any other workload, or --records, is a key space.
  const keySpace = (name !== undefined && name !== 'read') || values.records !== undefined;
  const given = ['valueSize', 'distribution'].filter((option) => values[option] !== undefined)
    .concat(['noLoad', 'noVerify'].filter((option) => values[option] === true));
  if (!keySpace) {
    for (const option of given) {
      problems.push(`--${OPTION_NAMED.get(option).flag} applies to a key space: ` +
        'add --records N (or a --workload other than read)');
    }
  } else if (keys) {
    problems.push('--keys picks among the seeded keys; a workload over --records picks its own keys');
  }
  let valueSize = { min: defaultOf('valueSize'), max: defaultOf('valueSize') };
  if (values.valueSize !== undefined) {
    const parsed = parseValueSize(values.valueSize);
    if (parsed.problem) problems.push(parsed.problem);
    else valueSize = parsed.value;
  }
  const distribution = distributionOf(text('distribution'), workload, problems);
  return {
    options: {
      workload,
      keySpace,
      records: keySpace ? records ?? defaultOf('records') : undefined,
      valueSize: keySpace ? valueSize : undefined,
      distribution: keySpace ? distribution : null,
      seed: keySpace ? seed : undefined,
      load: keySpace && workload.load && values.noLoad !== true,
      verify: keySpace && values.noVerify !== true,
    },
  };
}

// --distribution given (text, or undefined), else the workload's own; null for a workload that
// picks no existing key (insert). Problems pushed.
function distributionOf(given, workload, problems) {
  let distribution = workload.distribution ? { name: workload.distribution } : null;
  if (given !== undefined) {
    const parsed = parseDistribution(given);
    if (parsed.problem) {
      problems.push(parsed.problem);
    } else if (!distribution) {
      const inserts = OPERATIONS.insert.about.replace('writes a new key', 'writes new keys');
      problems.push(`--distribution does not apply to ${workload.name}: it ${inserts}`);
    } else {
      distribution = parsed.value;
    }
  }
  if (distribution?.name === 'hotspot' && distribution.hotFraction === undefined) {
    distribution = parseDistribution('hotspot').value;
  }
  return distribution;
}

/** { valueShape, probeSize? }: how the run's values are stored and the probe's own value. */
export function valueOptions({ text }, values, problems, { direct, probe, workload }) {
  const { keySpace } = workload;
  const valueShape = parseValueShape(text('valueShape'), { direct, keySpace, workload: workload.workload }, problems);
  const probeSize = parseProbeSize(values.probeSize, { probe, direct, keySpace }, problems);
  return { valueShape, ...(probeSize === undefined ? {} : { probeSize }) };
}

// --value-shape bytes|hash: 'bytes' when not given; problems pushed. Direct mode only: the
// app's routes store the bytes a request carries, so over HTTP there is no shape to choose.
function parseValueShape(raw, { direct, keySpace, workload }, problems) {
  if (raw === undefined) return defaultOf('valueShape');
  if (!VALUE_SHAPES.includes(raw)) {
    problems.push(`--value-shape must be ${VALUE_SHAPES.join(' or ')}, not "${raw}"`);
    return defaultOf('valueShape');
  }
  if (raw !== 'bytes' && !direct) {
    problems.push(`--value-shape ${raw} needs --direct: over HTTP the app stores the bytes each request carries`);
  } else if (raw !== 'bytes' && keySpace === false) {
    problems.push(`--value-shape ${raw} applies to a key space: add --records N (or a --workload other than read)`);
  } else if (raw !== 'bytes' && workload?.mix.some(({ operation }) => operation === 'append')) {
    problems.push(`--value-shape ${raw}: ${workload.name} appends, and a hash has nothing to append to`);
  }
  return raw;
}

// --probe-size SIZE: the value of the probe's own key, which it has only in direct mode with a
// key-space workload (a study's probing client read values of the load's size).
function parseProbeSize(raw, { probe, direct, keySpace }, problems) {
  if (raw === undefined) return undefined;
  if (!probe || !direct || !keySpace) {
    problems.push('--probe-size goes with --probe, --direct and a key-space --workload (the probe\'s own key)');
    return undefined;
  }
  try {
    return byteSize(raw);
  } catch (error) {
    if (!(error instanceof SettingValueError)) throw error;
    problems.push(`--probe-size ${error.message}, not "${raw}"`);
    return undefined;
  }
}
