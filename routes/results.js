// The results area: where the parts of a split run on Cloud Foundry (npm run load:cf) leave their
// results for the caller, since a task has no disk it can read and its log is a limited buffer. Kept in
// this process's memory, never in a store; behind the write protection, since only the holder of the
// write token may fill the app's memory, and bounded (the oldest dropped first to make room).
import { Router } from 'express';
import { StorebenchError } from '../util/errors.js';
import { readBody, closeAfterAnswer } from './body.js';
import { writeGuard } from './write-guard.js';
import { defaults } from '../config/settings.js';

export const RESULTS_PREFIX = '/_results';
export const MAX_RESULT_SIZE = 8 * 1024 * 1024;
export const MAX_RESULTS_TOTAL = 64 * 1024 * 1024;
const RUN_ID = /^[A-Za-z0-9_-]{1,64}$/;
const PART = /^[1-9]\d{0,3}$/;

export function resultsRoutes({
  token, listensOnLoopback, bodyIdleTimeoutMs = defaults.bodyIdleTimeoutMs,
  maxResultSize = MAX_RESULT_SIZE, maxTotalSize = MAX_RESULTS_TOTAL,
} = {}) {
  const router = Router();
  const guard = writeGuard({ token, listensOnLoopback });
  const kept = new Map(); // "run/part" -> Buffer, in the order put (a Map iterates in insertion order)
  let total = 0;

  const checkId = (req, res, next) => {
    const { run, part } = req.params;
    if (RUN_ID.test(run) && PART.test(part)) return next();
    closeAfterAnswer(req, res);
    next(new StorebenchError(
      'a results id is /_results/<run>/<part>: run 1 to 64 of A-Z a-z 0-9 _ -, part a number from 1',
      { code: 'INVALID_RESULT_ID' },
    ));
  };
  const guarded = (req, res, next) => guard(req, res, (error) => {
    if (error) closeAfterAnswer(req, res);
    next(error);
  });
  const tooLarge = (bytes) => new StorebenchError(
    `a result is at most ${maxResultSize} bytes, not ${bytes}`,
    { code: 'RESULT_TOO_LARGE', limit: maxResultSize },
  );

  router.put(`${RESULTS_PREFIX}/:run/:part`, guarded, checkId, async (req, res, next) => {
    try {
      const bytes = await readBody(req, maxResultSize, tooLarge, { idleMs: bodyIdleTimeoutMs });
      const id = `${req.params.run}/${req.params.part}`;
      if (kept.has(id)) total -= kept.get(id).length;
      kept.delete(id);
      for (const [oldest, value] of kept) {
        if (total + bytes.length <= maxTotalSize) break;
        kept.delete(oldest);
        total -= value.length;
      }
      kept.set(id, bytes);
      total += bytes.length;
      res.status(204).end();
    } catch (error) {
      closeAfterAnswer(req, res);
      next(error);
    }
  });

  router.get(`${RESULTS_PREFIX}/:run/:part`, guarded, checkId, (req, res, next) => {
    const bytes = kept.get(`${req.params.run}/${req.params.part}`);
    const id = `${req.params.run}/${req.params.part}`;
    if (!bytes) return next(new StorebenchError(`no result ${id} here (yet)`, { code: 'RESULT_NOT_FOUND' }));
    res.set('Cache-Control', 'no-store').type('application/octet-stream').send(bytes);
  });

  return router;
}
