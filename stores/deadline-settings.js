// The two deadlines, by the same rule as every setting: an explicit option, then the
// environment variable, then the default below.
//
//   open (connect + seed one store): past it the app listens without that store, which is
//     unavailable (OPEN_TIMEOUT) and retried in the background.
//   operation (one get/set/delete/ping): past it the request gets 503 STORE_TIMEOUT and
//     /stores shows the store down until its server answers again.
//
// The operation deadline bounds every request's latency, so on a store slow enough under
// load to pass it the driver counts 503s instead of slow answers: raise it to benchmark
// such a store at high concurrency.

export const DEADLINE_DEFAULTS = Object.freeze({ openTimeoutMs: 5000, opTimeoutMs: 2000 });
export const DEADLINE_ENV = Object.freeze({ openTimeoutMs: 'STOREBENCH_OPEN_TIMEOUT_MS', opTimeoutMs: 'STOREBENCH_OP_TIMEOUT_MS' });
// Ten minutes: long enough for any real server, and far below setTimeout's 2^31-1 ms overflow.
export const DEADLINE_MAX_MS = 600_000;

/**
 * { openTimeoutMs, opTimeoutMs } from options, else env, else the defaults. Throws a
 * TypeError naming every bad value (a whole number of ms from 1 to DEADLINE_MAX_MS).
 */
export function deadlineSettings({ env = process.env, ...options } = {}) {
  const settings = {};
  const problems = [];
  for (const [field, variable] of Object.entries(DEADLINE_ENV)) {
    const [source, raw] = options[field] != null ? [field, options[field]] : env[variable] != null && env[variable] !== '' ? [variable, env[variable]] : [null, DEADLINE_DEFAULTS[field]];
    const text = String(raw).trim();
    const value = Number(text);
    if (!/^\d+$/.test(text) || value < 1 || value > DEADLINE_MAX_MS) {
      problems.push(`${source} must be a whole number of milliseconds from 1 to ${DEADLINE_MAX_MS}, not "${raw}"`);
    }
    settings[field] = value;
  }
  if (problems.length) throw new TypeError(problems.join('; '));
  return settings;
}
