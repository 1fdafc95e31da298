// The flags of one run split over several drivers: --part I/N and --start-at TIME (a part), and
// --parts N --local (this machine starts the N parts itself, cli/local-parts.js); each part's
// seed and the problems of the split (driver/parts.js shares the load out).
import { createRandom } from '../util/random.js';
import { positiveInteger } from './values.js';

// The random stream a part's seed is drawn from (clear of the workload's streams 1 + 16n, 2 + 16n, 7).
const PART_SEED_STREAM = 11;
const MAX_SEED = 2 ** 32 - 1;
export const MAX_PARTS = 1000;
// --start-at +SECS: at most a day ahead.
const MAX_START_AHEAD_SECONDS = 86_400;

/** "I/N" -> { index: I, count: N } (1 <= I <= N <= MAX_PARTS), or { problem }. */
export function parsePart(text) {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  const index = match ? Number(match[1]) : NaN;
  const count = match ? Number(match[2]) : NaN;
  if (!match || count < 1 || count > MAX_PARTS || index < 1 || index > count) {
    return { problem: `--part must be I/N with 1 <= I <= N <= ${MAX_PARTS} (part 2 of 4: --part 2/4), not "${text}"` };
  }
  return { value: { index, count } };
}

/** --start-at: an ISO 8601 time with a zone, or +SECS from `now`. { value: Date } or { problem }. */
export function parseStartAt(text, now = Date.now()) {
  const relative = /^\+(\d+(?:\.\d+)?)s?$/.exec(text);
  if (relative) {
    const seconds = Number(relative[1]);
    if (seconds > MAX_START_AHEAD_SECONDS) return { problem: `--start-at ${text} is more than a day ahead` };
    return { value: new Date(now + seconds * 1000) };
  }
  // A time without a zone would be read in each machine's own zone: refused.
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(text) || Number.isNaN(Date.parse(text))) {
    return {
      problem: `--start-at must be an ISO time with its zone (2025-06-01T12:00:00Z) or +SECS (+30s), not "${text}"`,
    };
  }
  return { value: new Date(Date.parse(text)) };
}

/** Part I's own seed, drawn from the run's: the same run seed and part give the same seed. */
export function partSeed(runSeed, index) {
  const random = createRandom(runSeed, PART_SEED_STREAM);
  let seed = 0;
  for (let i = 0; i < index; i += 1) seed = Math.floor(random.random() * (MAX_SEED + 1));
  return seed;
}

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

function partProblems({ concurrency, rps, requests }, part) {
  if (!part || part.count === 1) return [];
  const problems = [];
  if (!rps) {
    const small = concurrency.filter((c) => c < part.count);
    if (small.length) {
      problems.push(`-c ${small.join(',')} cannot be split into ${part.count} parts: ` +
        'each part needs at least one client');
    }
  }
  if (requests && requests < part.count * (rps ? 1 : Math.max(...concurrency))) {
    problems.push(`-n ${requests} cannot be split into ${part.count} parts: ` +
      'each part needs at least one request per client');
  }
  return problems;
}

/** Operations whose read-back two parts would confuse (loads and inserts have disjoint keys). */
const sharedWrites = (mix) => mix.some(({ operation }) => !['read', 'insert'].includes(operation));
