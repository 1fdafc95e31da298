// The flags of one run split over several drivers: --part I/N and --start-at TIME (a part), and
// --parts N --local (this machine starts the N parts itself, cli/local-parts.js).
import { MAX_PARTS, parsePart, parseStartAt, partProblems, partSeed, sharedWrites } from '../driver/parts.js';
import { positiveInteger } from './values.js';

// How far ahead the local parts start when no --start-at is given.
export const LOCAL_LEAD_SECONDS = 10;

/**
 * { part, startAt, startAfterSeconds, parts, local } from the flags (each null/false when not given); problems
 * pushed. `seedGiven`: whether --seed was (a part needs the run's seed).
 */
export function parsePartFlags(values, problems, { seedGiven, now = Date.now() } = {}) {
  const text = (name) => (typeof values[name] === 'string' ? values[name] : undefined);
  let part = null;
  if (text('part') !== undefined) {
    const parsed = parsePart(text('part'));
    if (parsed.problem) problems.push(parsed.problem);
    else part = parsed.value;
    if (!seedGiven) {
      problems.push('--part needs --seed N, the same for every part: the parts draw their order and seeds from it');
    }
  }
  let startAt = null;
  // +SECS: a launcher counts it from when it launches the parts, not from when it read the flag.
  let startAfterSeconds = null;
  if (text('startAt') !== undefined) {
    const parsed = parseStartAt(text('startAt'), now);
    if (parsed.problem) problems.push(parsed.problem);
    else startAt = parsed.value;
    if (!parsed.problem && text('startAt').startsWith('+')) {
      startAfterSeconds = (startAt.getTime() - now) / 1000;
    }
  }
  let parts = null;
  if (values.parts !== undefined) {
    parts = positiveInteger(values.parts);
    if (parts === null || parts > MAX_PARTS) {
      problems.push(`--parts must be a whole number from 1 to ${MAX_PARTS}, not "${values.parts}"`);
      parts = null;
    }
    if (part) problems.push('use either --part I/N (this driver is one part) or --parts N (start them all)');
  }
  const local = values.local === true;
  if (local && values.parts === undefined) {
    problems.push('--local goes with --parts N: it starts the N parts on this machine');
  }
  if (values.parts !== undefined && !local) {
    problems.push('--parts N needs where to run them: --local (or npm run load:cf, node test k8s)');
  }
  return { part, startAt, startAfterSeconds, parts, local };
}

/**
 * The run's options as part `part` runs them: the run's seed kept for the order (the same in
 * every part), the part's own seed for its keys and values, the slice of the key space, and
 * no read-back of values another part may have overwritten. Problems of the split pushed.
 */
export function partRunOptions(options, problems, onNotice = () => {}) {
  if (!options.part) return options;
  const { concurrency, rps, requests } = options;
  problems.push(...partProblems({ concurrency, rps, requests }, options.part));
  const next = { ...options, orderSeed: options.seed, seed: partSeed(options.seed, options.part.index) };
  if (options.keySpace && options.verify && options.part.count > 1 && sharedWrites(options.workload.mix)) {
    next.verify = false;
    onNotice('written values are not read back: other parts may write the same keys');
  }
  return next;
}
