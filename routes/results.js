// The results area: where the parts of a split run on Cloud Foundry (npm run load:cf) leave their
// results for the caller, since a task has no disk it can read and its log is a limited buffer. Kept in
// this process's memory, never in a store; behind the write protection, since only the holder of the
// write token may fill the app's memory, and bounded (the oldest dropped first to make room).
import { StorebenchError } from '../util/errors.js';
import { readBody, closeAfterAnswer } from './body.js';
import { writeGuard } from './write-guard.js';
import { defaults } from '../config/settings.js';
import { BYTES_TYPE, bodyAnswer, emptyAnswer } from './answers.js';

const RESULTS_PREFIX = '/_results';
const MAX_RESULT_SIZE = 8 * 1024 * 1024;
const MAX_RESULTS_TOTAL = 64 * 1024 * 1024;
const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/;
const PART = /^[1-9]\d{0,3}$/;

/** The results area's routes: { path, put, get }, each handler (req, res, params) -> an answer. */
export function resultsRoutes({
  token, listensOnLoopback, bodyIdleTimeoutMs = defaults.bodyIdleTimeoutMs,
  maxResultSize = MAX_RESULT_SIZE, maxTotalSize = MAX_RESULTS_TOTAL,
} = {}) {
  const guard = writeGuard({ token, listensOnLoopback });
  const kept = new Map(); // "run/part" -> Buffer, in the order put (a Map iterates in insertion order)
  let total = 0;

  // Guarded, with the id checked, before anything is read.
  const checked = (req, res, { run, part }) => {
    try {
      guard(req, res);
      if (!RUN_ID.test(run) || !PART.test(part)) {
        throw new StorebenchError(
          'a results id is /_results/<run>/<part>: run 1 to 64 of A-Z a-z 0-9 _ -, part a number from 1',
          { code: 'INVALID_RESULT_ID' },
        );
      }
    } catch (error) {
      closeAfterAnswer(req, res);
      throw error;
    }
    return `${run}/${part}`;
  };
  const tooLarge = (bytes) => new StorebenchError(
    `a result is at most ${maxResultSize} bytes, not ${bytes}`,
    { code: 'RESULT_TOO_LARGE', limit: maxResultSize },
  );

  const keep = (id, bytes) => {
    if (kept.has(id)) total -= kept.get(id).length;
    kept.delete(id);
    for (const [oldest, value] of kept) {
      if (total + bytes.length <= maxTotalSize) break;
      kept.delete(oldest);
      total -= value.length;
    }
    kept.set(id, bytes);
    total += bytes.length;
  };

  return {
    path: `${RESULTS_PREFIX}/:run/:part`,
    put: async (req, res, params) => {
      const id = checked(req, res, params);
      try {
        keep(id, await readBody(req, res, maxResultSize, tooLarge, { idleMs: bodyIdleTimeoutMs }));
      } catch (error) {
        closeAfterAnswer(req, res);
        throw error;
      }
      return emptyAnswer(204);
    },
    get: (req, res, params) => {
      const id = checked(req, res, params);
      const bytes = kept.get(id);
      if (!bytes) throw new StorebenchError(`no result ${id} here (yet)`, { code: 'RESULT_NOT_FOUND' });
      return bodyAnswer(200, BYTES_TYPE, bytes, { 'Cache-Control': 'no-store' });
    },
  };
}
