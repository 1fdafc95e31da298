// node test merge of one run's parts: 1..N all there, none twice, and how far apart they started.
import { MergeError } from '../util/errors.js';
import { WARNING_CODES } from './warnings.js';

// Parts started further apart than this get START_SKEW: a step of 2 s loses a few % of its
// overlap at 100 ms.
const START_TOLERANCE_MS = 100;

const partName = ({ index, count }) => `part ${index} of ${count}`;

/** Refuses a mix of parts and whole runs, of splits, or a part twice or missing; true for parts. */
export function checkParts(inputs) {
  const parts = inputs.map(({ result }) => result.settings.part ?? null);
  if (parts.every((part) => !part)) return false;
  const whole = inputs.find(({ result }) => !result.settings.part);
  if (whole) throw new MergeError(`cannot merge ${whole.file} with parts of a split run: it ran without --part`);
  const count = parts[0].count;
  const other = inputs.find(({ result }) => result.settings.part.count !== count);
  if (other) {
    throw new MergeError(`cannot merge ${inputs[0].file} and ${other.file}: ` +
      `one is ${partName(parts[0])}, the other ${partName(other.result.settings.part)}`);
  }
  const byIndex = new Map();
  for (const { file, result } of inputs) {
    const { index } = result.settings.part;
    if (byIndex.has(index)) {
      throw new MergeError(
        `cannot merge: ${partName(result.settings.part)} is there twice (${byIndex.get(index)} and ${file})`);
    }
    byIndex.set(index, file);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !byIndex.has(index));
  if (missing.length) {
    const many = missing.length > 1;
    throw new MergeError(`cannot merge: part${many ? 's' : ''} ${missing.join(', ')} of ${count} ` +
      `${many ? 'are' : 'is'} missing (the merged figures would be short of ${many ? 'their' : 'its'} load)`);
  }
  return true;
}

/** The parts' starts for the merged Result's `start`, with START_SKEW; null without a barrier. */
export function mergeStarts(inputs, { toleranceMs = START_TOLERANCE_MS } = {}) {
  const starts = inputs.filter(({ result }) => result.start);
  if (!starts.length) return null;
  const parts = starts.map(({ file, result }) => ({ file, hostname: result.system.hostname, ...result.start }));
  const began = parts.map((part) => Date.parse(part.began));
  const spreadMs = Math.max(...began) - Math.min(...began);
  const offsets = parts.map((part) => part.clock?.offsetMs).filter((offset) => Number.isFinite(offset));
  // Known only when every part read the target's clock: the target is the common reference.
  const clockSpreadMs = offsets.length === parts.length ? Math.max(...offsets) - Math.min(...offsets) : null;
  const clockUncertaintyMs = clockSpreadMs === null
    ? null
    : Math.max(...parts.map((part) => part.clock.uncertaintyMs)) * 2;
  const warnings = [];
  if (spreadMs > toleranceMs) {
    if (!WARNING_CODES.START_SKEW) throw new TypeError('unregistered warning code START_SKEW');
    const clocks = clockSpreadMs === null
      ? 'the parts\' clocks could not all be compared (no Date header from the target)'
      : `by the target's Date header their clocks were ${clockSpreadMs} ms apart ` +
        `(give or take ${clockUncertaintyMs} ms)`;
    warnings.push({
      code: 'START_SKEW',
      message: `the parts started ${spreadMs} ms apart by their own clocks (tolerance ${toleranceMs} ms); ${clocks}`,
      data: { spreadMs, toleranceMs, clockSpreadMs },
    });
  }
  return {
    at: parts[0].at,
    began: new Date(Math.min(...began)).toISOString(),
    spreadMs,
    toleranceMs,
    clockSpreadMs,
    clockUncertaintyMs,
    parts,
    warnings,
  };
}
