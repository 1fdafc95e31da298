// The targets of perf:accuracy's 20 ms server and perf:direct's pipelining, judged from rounds
// of figures measured side by side: each round's ratio first (both sides met the same moment of
// a noisy machine), then the median over the rounds. Pure, so a test can judge recorded figures.
import { median } from '../util/stats.js';

/** An engine against wrk on a server answering every request after a 20 ms timer (issue 37). */
export const TIMER_TARGETS = Object.freeze({ meanWithin: 0.03, cpuMicros: 300 });

/** --pipeline 16 against --pipeline 1 and against the bare client's own pipelined rate (issue 37). */
export const PIPELINE_TARGETS = Object.freeze({ overUnpipelined: 3, ofBareClient: 0.7 });

/**
 * The median over rounds of pick(round[name]) / pick(round[reference]); rounds missing either
 * are left out. null when none has both.
 * @param {Array<Object<string, object>>} rounds  each round's figures by client name
 */
export function medianRatio(rounds, name, reference, pick) {
  const ratios = rounds
    .filter((round) => round[name] && round[reference])
    .map((round) => pick(round[name]) / pick(round[reference]));
  return ratios.length ? median(ratios) : null;
}

const medianOf = (rounds, name, pick) => {
  const values = rounds.filter((round) => round[name]).map((round) => pick(round[name]));
  return values.length ? median(values) : null;
};

/**
 * An engine on the 20 ms server: its mean latency over wrk's (within 3%), and its CPU µs per
 * response (at most 300). Each round: `{ wrk: { meanMs }, [engine]: { meanMs, cpuUs } }`.
 */
export function timerVerdict(rounds, engine, targets = TIMER_TARGETS) {
  const meanRatio = medianRatio(rounds, engine, 'wrk', (figures) => figures.meanMs);
  const cpuUs = medianOf(rounds, engine, (figures) => figures.cpuUs);
  const meanMet = meanRatio !== null && Math.abs(meanRatio - 1) <= targets.meanWithin;
  const cpuMet = cpuUs !== null && cpuUs <= targets.cpuMicros;
  return { meanRatio, cpuUs, meanMet, cpuMet, met: meanMet && cpuMet };
}

/**
 * The driver's --pipeline N against its --pipeline 1 (at least 3x) and against the bare client's
 * pipelined rate (at least 0.7 of it), in each round the fastest of `bareWays` (the client's own
 * best). Each round: `{ p1: { rps }, pN: { rps }, [way]: { rps } }`.
 */
export function pipelineVerdict(rounds, bareWays, targets = PIPELINE_TARGETS) {
  const withBest = rounds.map((round) => ({
    ...round,
    bare: bareWays.map((way) => round[way]).filter(Boolean).sort((a, b) => b.rps - a.rps)[0],
  }));
  const overUnpipelined = medianRatio(withBest, 'pN', 'p1', (figures) => figures.rps);
  const ofBareClient = medianRatio(withBest, 'pN', 'bare', (figures) => figures.rps);
  const overMet = overUnpipelined !== null && overUnpipelined >= targets.overUnpipelined;
  const bareMet = ofBareClient !== null && ofBareClient >= targets.ofBareClient;
  return { overUnpipelined, ofBareClient, overMet, bareMet, met: overMet && bareMet };
}
