// The write routes (PUT, DELETE, append, bulk POST), each behind write-guard.js. Everything that can
// be refused is refused before the body is read, and a body is never read past its limit. Bodies
// are bytes: no parsing, whatever the Content-Type.
import { Router } from 'express';
import { BodyTooLargeError, InvalidKeyError, UnsupportedMediaTypeError, ValueTooLargeError } from '../util/errors.js';
import { RECORDS_MEDIA_TYPE, parseRecords } from '../util/records.js';
import { keyProblem } from '../stores/keys.js';
import { defaults } from '../config/settings.js';
import { closeAfterAnswer, readBody } from './body.js';
import { writeGuard } from './write-guard.js';
import { setServerTiming } from './server-timing.js';

export function writeRoutes(stores, {
  maxValueSize = defaults.maxValueSize, maxBulkSize = defaults.maxBulkSize, token,
  bodyIdleTimeoutMs = defaults.bodyIdleTimeoutMs, listensOnLoopback,
} = {}) {
  const router = Router();
  const body = (req, limit, tooLarge) => readBody(req, limit, tooLarge, { idleMs: bodyIdleTimeoutMs });
  const guard = writeGuard({ token, listensOnLoopback });
  const valueTooLarge = (bytes, where = 'the value') =>
    new ValueTooLargeError(`${where} is ${bytes} bytes, over the limit of ${maxValueSize} ` +
      '(--max-value-size, STOREBENCH_MAX_VALUE_SIZE)', { limit: maxValueSize });
  const bulkTooLarge = (bytes) =>
    new BodyTooLargeError(`the bulk-load body is ${bytes} bytes, over the limit of ${maxBulkSize} ` +
      '(STOREBENCH_MAX_BULK_SIZE); send the records in several requests');

  const refused = (req, res, next, error) => {
    closeAfterAnswer(req, res);
    // The append resource of a store without append allows no method at all (RFC 9110 15.5.6).
    if (error?.code === 'APPEND_UNSUPPORTED') res.set('Allow', '');
    // Several app processes, each with its own in-process store: its keys can still be read.
    if (error?.code === 'PER_WORKER_STORE') res.set('Allow', req.params.key ? 'GET, HEAD' : '');
    next(error);
  };
  const guarded = (req, res, next) => guard(req, res, (error) => (error ? refused(req, res, next, error) : next()));
  const handle = (work) => async (req, res, next) => {
    try {
      await work(req, res);
    } catch (error) {
      setServerTiming(res, req.timing);
      refused(req, res, next, error);
    }
  };

  router.put('/:store/:key', guarded, handle(async (req, res) => {
    const { store, key } = req.params;
    stores.prepare(store, key, 'set');
    await stores.write(store, key, await body(req, maxValueSize, valueTooLarge), req.timing);
    setServerTiming(res, req.timing);
    res.status(204).end();
  }));

  router.delete('/:store/:key', guarded, handle(async (req, res) => {
    await stores.remove(req.params.store, req.params.key, req.timing);
    setServerTiming(res, req.timing);
    res.status(204).end();
  }));

  router.post('/:store/:key/append', guarded, handle(async (req, res) => {
    const { store, key } = req.params;
    stores.prepare(store, key, 'append');
    await stores.append(store, key, await body(req, maxValueSize, valueTooLarge), req.timing);
    setServerTiming(res, req.timing);
    res.status(204).end();
  }));

  router.post('/:store', guarded, handle(async (req, res) => {
    const { store } = req.params;
    stores.prepare(store, undefined, 'setMany');
    const type = req.headers['content-type']?.split(';')[0].trim().toLowerCase();
    if (type !== RECORDS_MEDIA_TYPE) throw new UnsupportedMediaTypeError(RECORDS_MEDIA_TYPE, type);
    const records = parseRecords(await body(req, maxBulkSize, bulkTooLarge));
    records.forEach(([key, bytes], i) => {
      const problem = keyProblem(key);
      if (problem) throw new InvalidKeyError(`record ${i + 1}: ${problem}`, store);
      if (bytes.length > maxValueSize) throw valueTooLarge(bytes.length, `record ${i + 1}'s value`);
    });
    const written = await stores.writeMany(store, records, req.timing);
    setServerTiming(res, req.timing);
    res.json({ written });
  }));

  return router;
}
