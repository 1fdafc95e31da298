// Warnings that travel with a step's numbers when they deserve less trust: { code, message, data }.
import { CONFLICT_KIND } from './error-kinds.js';
import { WARNING_CODES } from './warnings.js';
import { failedStep } from './ranking.js';

const MIN_SAMPLES = 1000;
const MIN_SECONDS = 1;
const LITTLE_TOLERANCE = 0.1;
export const CPU_SATURATED_PERCENT = 90;
const OPEN_MODEL_MIN_RATIO = 0.95;
const SUGGEST_FAST = '; --engine fast sends the same load for a fraction of the CPU per request (docs/measurement.md)';

const ms = (value) => `${value.toFixed(2)} ms`;

function warning(code, message, data) {
  if (!WARNING_CODES[code]) throw new TypeError(`unregistered warning code ${code}`);
  return { code, message, data };
}

/** The requests a closed loop keeps in flight: concurrency x pipeline, or -n when fewer. */
export function activeClients({ concurrency, maxRequests }, pipeline = 1) {
  const inFlight = concurrency * pipeline;
  return maxRequests === null || maxRequests === undefined ? inFlight : Math.min(inFlight, maxRequests);
}

/** The warnings a step's own figures call for; `pipeline` counts in Little's law. */
export function honestyWarnings(step, { engine, pipeline = 1 } = {}) {
  const warnings = [];
  const { responses, wallSeconds, latency, rps, concurrency, model, cpuPercent, errors, targetRps } = step;
  // The slack: a step timed with -t 1 ends a hair before its deadline, and is not weak for it.
  if (responses < MIN_SAMPLES || wallSeconds < MIN_SECONDS * 0.98) {
    warnings.push(warning(
      'WEAK_SAMPLE',
      `statistically weak: ${responses} samples in ${wallSeconds.toFixed(2)} s ` +
        `(want at least ${MIN_SAMPLES} samples and ${MIN_SECONDS} s); ` +
        `p99 rests on ${Math.floor(responses / 100)} request(s)`,
      { responses, wallSeconds, minSamples: MIN_SAMPLES, minSeconds: MIN_SECONDS },
    ));
  }
  // Little's law: closed loop mean latency = concurrency / throughput. Disagreement means time
  // outside what we timed (client queueing, a stalled driver) or a too-short step.
  if (model === 'closed' && responses > 0 && rps > 0) {
    const expectedMs = (activeClients({ concurrency, maxRequests: step.maxRequests }, pipeline) / rps) * 1000;
    const apart = Math.abs(latency.meanMs - expectedMs) / expectedMs;
    if (apart > LITTLE_TOLERANCE) {
      const inFlight = pipeline > 1 ? 'concurrency x pipeline/rps' : 'concurrency/rps';
      warnings.push(warning(
        'LITTLES_LAW',
        `mean latency ${ms(latency.meanMs)} disagrees with ${inFlight} = ${ms(expectedMs)} ` +
          `by ${Math.round(apart * 100)}% (Little's law)`,
        { meanMs: latency.meanMs, expectedMs, apart, tolerance: LITTLE_TOLERANCE },
      ));
    }
  }
  if (model === 'open' && targetRps && rps < targetRps * OPEN_MODEL_MIN_RATIO) {
    warnings.push(warning(
      'OPEN_MODEL_SHORT',
      `achieved ${Math.round(rps)} rps of the ${targetRps} asked: the target (or the driver) cannot keep up`,
      { rps, targetRps, minRatio: OPEN_MODEL_MIN_RATIO },
    ));
  }
  // With --workers the check is per worker: their summed cpuPercent may pass 100% with none saturated.
  const busiest = step.workers?.length ? Math.max(...step.workers.map((worker) => worker.cpuPercent)) : cpuPercent;
  if (busiest >= CPU_SATURATED_PERCENT) {
    const who = step.workers?.length ? `the busiest of ${step.workers.length} worker threads` : 'the driver';
    warnings.push(warning(
      'DRIVER_CPU',
      `${who} used ${Math.round(busiest)}% of a CPU core: the client may be the bottleneck, not the server` +
        (engine === 'loadtest' ? SUGGEST_FAST : ''),
      { cpuPercent: busiest, threshold: CPU_SATURATED_PERCENT },
    ));
  }
  if (errors.total > 0) {
    // Error responses are among the responses already; timeouts and connection errors are not.
    const unanswered = Object.entries(errors.byKind).filter(([kind]) => !kind.startsWith('http '));
    const total = responses + unanswered.reduce((sum, [, n]) => sum + n, 0);
    const conflicts = errors.byKind[CONFLICT_KIND] ?? 0;
    const ofThem = conflicts
      ? `; ${conflicts} of them write conflicts, 409: another writer of the key got in between; the store was up`
      : '';
    if (failedStep(step)) {
      warnings.push(warning(
        'STEP_FAILED',
        `no request succeeded: ${errorsText(errors)}`,
        { failed: errors.total, total },
      ));
    } else {
      warnings.push(warning(
        'REQUEST_ERRORS',
        `${errors.total} of ${total} requests failed (${errorsText(errors)}${ofThem}); ` +
          'rps and latency include the error responses (not timeouts or connection errors)',
        { failed: errors.total, total },
      ));
    }
  }
  return warnings;
}

/** A warm-up that never settled: the step after it may have measured a target still warming. */
export function warmupWarnings(warmup) {
  if (!warmup || warmup.steady) return [];
  const why = warmup.speeds.at(-1) === null
    ? 'its last window had no response'
    : `it was still getting faster after ${warmup.seconds.toFixed(1)} s (the cap, --warmup-max)`;
  return [warning(
    'NOT_STEADY',
    `the warm-up did not reach a steady state: ${why}; this step may have measured a target still warming up`,
    { seconds: warmup.seconds, windows: warmup.windows },
  )];
}

export const DRIFT_TOLERANCE = 0.1;

/** The control's warning: the first step measured again at the end moved by more than DRIFT_TOLERANCE. */
export function driftWarnings({ store, key, load, step, rpsBefore, rpsAfter, drift }) {
  if (!(Math.abs(drift) > DRIFT_TOLERANCE)) return [];
  const at = step?.model === 'open' ? `${load} rps` : `concurrency ${load}`;
  return [warning(
    'DRIFT',
    `the control (${store} ${key ?? ''} at ${at}, measured first and again last) ` +
      `moved from ${Math.round(rpsBefore)} to ${Math.round(rpsAfter)} rps (${signedPercent(drift)}): ` +
      'the machine changed during the run; ' +
      `differences within ${Math.round(Math.abs(drift) * 100)}% are ties in the comparison`,
    { rpsBefore, rpsAfter, drift, tolerance: DRIFT_TOLERANCE },
  )];
}

const signedPercent = (fraction) => `${fraction >= 0 ? '+' : '−'}${Math.abs(Math.round(fraction * 100))}%`;

export function errorsText({ byKind, samples = {} }) {
  return Object.entries(byKind)
    .map(([kind, n]) => (samples[kind] ? `${kind}: ${n} (${samples[kind]})` : `${kind}: ${n}`))
    .join(', ');
}

export function loadWarnings(load) {
  const missing = load.records - load.loaded;
  if (!missing) return [];
  const batches = load.errors.total ? ` (failed batches: ${errorsText(load.errors)})` : '';
  const refused = load.refused ? `; the app refused the load (HTTP ${load.refused}), so the rest was not sent` : '';
  return [warning(
    'LOAD_ERRORS',
    `${missing} of ${load.records} records were not loaded${batches}${refused}: ` +
      'reads of them may answer 404, and the verification leaves them out',
    { records: load.records, loaded: load.loaded, failedBatches: load.errors.total },
  )];
}

export function verificationWarnings(verification) {
  const warnings = [];
  const { sampled, mismatched, leftOut, promise } = verification;
  if (mismatched) {
    const what = `${mismatched} of ${sampled} written values read back different`;
    warnings.push(promise
      ? warning('WEAKER_PROMISE', `${what}; ${promise}, so this is reported, not failed`, { mismatched, sampled })
      : warning('VERIFY_MISMATCH', `${what}: the store lost or changed values it acknowledged`,
        { mismatched, sampled }));
  }
  const unchecked = leftOut.overlap + leftOut.failed + leftOut.unknownBase;
  if (unchecked) {
    const why = [
      leftOut.overlap && `${leftOut.overlap} had writes in flight at once, which may land in any order`,
      leftOut.failed &&
        `${leftOut.failed} had a write that failed without saying whether it landed (a timeout, a 5xx)`,
      leftOut.unknownBase &&
        `${leftOut.unknownBase} were appended to without a known value before (not loaded by this run)`,
    ].filter(Boolean).join('; ');
    const keys = unchecked === 1 ? 'key was' : 'keys were';
    warnings.push(warning('UNVERIFIED', `${unchecked} written ${keys} not checked: ${why}`, { ...leftOut }));
  }
  return warnings;
}
