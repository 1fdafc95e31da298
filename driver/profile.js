// node test --profile: the app's own profiler (routes/profile.js), asked around a step run again
// just for it, so the figures people compare are never the profiled ones. Each taking resolves to
// the profiles of every app process; result/profile-parts.js says where their time went.
import { httpRequest } from './http-request.js';
import { joinUrl } from './targets.js';
import { UsageError, RunError } from '../util/errors.js';
import { redactUrl } from '../util/redact.js';

// Samples every 250 µs: 4,000 a second of a busy process, at a cost measured in docs/measurement.md.
export const PROFILE_INTERVAL_US = 250;
const PROFILE_TIMEOUT_MS = 60_000;

const refusals = {
  PROFILING_OFF: (at) => `--profile: the app at ${at} was not started with profiling allowed: start it with ` +
    'node app.js --allow-profiling (STOREBENCH_ALLOW_PROFILING=1); nothing was profiled',
  WRITES_DISABLED: (at) => `--profile: the app at ${at} takes profile requests only from loopback or with its ` +
    'write token, and it has none (STOREBENCH_WRITE_TOKEN); nothing was profiled',
  WRITE_TOKEN_REQUIRED: (at) => `--profile: the app at ${at} takes profile requests only with its write token: ` +
    'give --token (or STOREBENCH_WRITE_TOKEN); nothing was profiled',
  WRITE_TOKEN_INVALID: (at) => `--profile: the app at ${at} refused the write token given (--token, ` +
    'STOREBENCH_WRITE_TOKEN); nothing was profiled',
};

/**
 * The profiler of the app at baseUrl: start() resolves to its processes, [{ pid, role }], then
 * stop() to [{ pid, role, root, profile }].
 */
export function appProfiler(baseUrl, { token = null } = {}) {
  const at = redactUrl(baseUrl);
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  const call = async (action, query = '') => {
    const url = `${joinUrl(baseUrl, `_profile/${action}`)}${query}`;
    const { status, body } = await httpRequest(url, { method: 'POST', headers, timeoutMs: PROFILE_TIMEOUT_MS });
    let answer = null;
    try {
      answer = JSON.parse(body);
    } catch {}
    if (status === 200 && Array.isArray(answer?.processes)) return answer.processes;
    const refusal = refusals[answer?.code];
    if (refusal) throw new UsageError(refusal(at));
    if (status === 404) {
      throw new UsageError(`--profile: the app at ${at} has no profiler (POST /_profile/${action} answered 404: ` +
        'an app older than --profile, or not a storebench app); nothing was profiled');
    }
    throw new RunError(`--profile: the app at ${at} answered POST /_profile/${action} with HTTP ${status}` +
      `${answer?.error ? `: ${answer.error}` : ''}`);
  };
  return {
    start: () => call('start', `?intervalUs=${PROFILE_INTERVAL_US}`),
    stop: () => call('stop'),
    /** Before any load: refused here (a UsageError), nothing is profiled and no step runs. */
    async check() {
      await call('start', `?intervalUs=${PROFILE_INTERVAL_US}`);
      await call('stop');
    },
  };
}
