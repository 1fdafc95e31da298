// POST /_profile/start and /_profile/stop: a CPU profile of every app process around a step, for
// node test --profile (driver/profile.js). Only on an app started with --allow-profiling, and then
// guarded as writes are (routes/write-guard.js): from loopback, or with the write token, since a
// profile names the app's code and costs it CPU while it is taken.
import { StorebenchError } from '../util/errors.js';
import { writeGuard } from './write-guard.js';
import { jsonAnswer } from './answers.js';

const PROFILE_PREFIX = '/_profile';
const INTERVAL = /[?&]intervalUs=(\d{1,5})(?:&|$)/;
const MIN_INTERVAL_US = 50;
const MAX_INTERVAL_US = 10_000;

/**
 * The profiler's routes. profiling: { start(intervalUs) -> [{ pid, role }], stop() -> [{ pid, role, root,
 * profile }] }
 * over every app process (app/profiler.js, or the primary's with --workers); allowed: the app's
 * --allow-profiling.
 */
export function profileRoutes(profiling, { allowed = false, token, listensOnLoopback } = {}) {
  const guard = writeGuard({ token, listensOnLoopback, what: 'profile requests' });
  const permitted = (req, res) => {
    if (!allowed) {
      throw new StorebenchError('profiling is off: start the app with --allow-profiling ' +
        '(STOREBENCH_ALLOW_PROFILING=1) to let node test --profile profile it', { code: 'PROFILING_OFF' });
    }
    guard(req, res);
  };
  return [
    {
      method: 'POST',
      path: `${PROFILE_PREFIX}/start`,
      handle: async (req, res) => {
        permitted(req, res);
        const asked = Number(INTERVAL.exec(req.url)?.[1] ?? 0);
        const intervalUs = asked ? Math.min(MAX_INTERVAL_US, Math.max(MIN_INTERVAL_US, asked)) : undefined;
        return jsonAnswer(200, { processes: await profiling.start(intervalUs) });
      },
    },
    {
      method: 'POST',
      path: `${PROFILE_PREFIX}/stop`,
      handle: async (req, res) => {
        permitted(req, res);
        return jsonAnswer(200, { processes: await profiling.stop() });
      },
    },
  ];
}
