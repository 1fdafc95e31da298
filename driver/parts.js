// --part I/N: one run split over N drivers that start together. Pure functions: part I's share
// of the load and of the key space (options/parts.js reads the flags and draws its seed).
import { splitEvenly, splitInProportion } from './split.js';

/** Part I's clients of a concurrency level (10 over 4 parts: 3, 3, 2, 2). */
const concurrencyShare = (concurrency, { index, count }) => splitEvenly(concurrency, count)[index - 1];
const rpsShare = (rps, { count }) => rps / count;

/** Part I's requests of -n: in proportion to its clients, so the parts end together. */
function requestsShare(requests, { concurrency, rps }, part) {
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
