// --part I/N and --start-at: one run split over N drivers that start together. Pure functions:
// part I's share of the load, the key space and the seeds.
import { splitEvenly, splitInProportion } from './split.js';
import { createRandom } from '../util/random.js';

// The random stream a part's seed is drawn from (clear of the workload's streams 1 + 16n, 2 + 16n, 7).
const PART_SEED_STREAM = 11;
const MAX_SEED = 2 ** 32 - 1;
export const MAX_PARTS = 1000;
// --start-at +SECS: at most a day ahead.
export const MAX_START_AHEAD_SECONDS = 86_400;

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

/** Part I's clients of a concurrency level (10 over 4 parts: 3, 3, 2, 2). */
export const concurrencyShare = (concurrency, { index, count }) => splitEvenly(concurrency, count)[index - 1];
export const rpsShare = (rps, { count }) => rps / count;

/** Part I's requests of -n: in proportion to its clients, so the parts end together. */
export function requestsShare(requests, { concurrency, rps }, part) {
  if (rps) return splitEvenly(requests, part.count)[part.index - 1];
  return splitInProportion(requests, splitEvenly(concurrency, part.count))[part.index - 1];
}

/** The loads part `part` runs, each with `runLoad`, the run's level merge matches steps by. */
export function partLoads({ concurrency, rps, requests }, part) {
  const levels = rps ? rps.map((rate) => ({ rps: rate })) : concurrency.map((c) => ({ concurrency: c }));
  return levels.map((level) => ({
    ...(level.rps ? { rps: rpsShare(level.rps, part) } : { concurrency: concurrencyShare(level.concurrency, part) }),
    ...(requests ? { maxRequests: requestsShare(requests, level, part) } : {}),
    runLoad: level.rps ?? level.concurrency,
  }));
}

/**
 * Part I's key space (YCSB's insertstart/insertcount): inserts take records + (I - 1) + k*N,
 * so no two parts load or insert one key.
 */
export function keySlice(records, { index, count }) {
  return {
    loadFrom: Math.floor((records * (index - 1)) / count),
    loadTo: Math.floor((records * index) / count),
    insertFrom: records + index - 1,
    insertStep: count,
  };
}

export function partProblems({ concurrency, rps, requests }, part) {
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
export const sharedWrites = (mix) => mix.some(({ operation }) => !['read', 'insert'].includes(operation));
