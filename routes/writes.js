// The write routes (PUT, DELETE, append, bulk POST), each behind write-guard.js. Everything that can
// be refused is refused before the body is read, and a body is never read past its limit. Bodies
// are bytes: no parsing, whatever the Content-Type.
import { BodyTooLargeError, InvalidKeyError, UnsupportedMediaTypeError, ValueTooLargeError } from '../util/errors.js';
import { RECORDS_MEDIA_TYPE, parseRecords } from '../util/records.js';
import { keyProblem } from '../stores/keys.js';
import { defaults } from '../config/settings.js';
import { closeAfterAnswer, readBody } from './body.js';
import { writeGuard } from './write-guard.js';
import { setServerTiming, timingOf } from './server-timing-header.js';
import { emptyAnswer, jsonAnswer } from './answers.js';

/** The write routes: { put, remove, append, bulk }, each (req, res, params) -> an answer. */
export function writeRoutes(stores, {
  maxValueSize = defaults.maxValueSize, maxBulkSize = defaults.maxBulkSize, token,
  bodyIdleTimeoutMs = defaults.bodyIdleTimeoutMs, listensOnLoopback,
} = {}) {
  const body = (req, res, limit, tooLarge) => readBody(req, res, limit, tooLarge, { idleMs: bodyIdleTimeoutMs });
  const guard = writeGuard({ token, listensOnLoopback });
  const valueTooLarge = (bytes, where = 'the value') =>
    new ValueTooLargeError(`${where} is ${bytes} bytes, over the limit of ${maxValueSize} ` +
      '(--max-value-size, STOREBENCH_MAX_VALUE_SIZE)', { limit: maxValueSize });
  const bulkTooLarge = (bytes) =>
    new BodyTooLargeError(`the bulk-load body is ${bytes} bytes, over the limit of ${maxBulkSize} ` +
      '(STOREBENCH_MAX_BULK_SIZE); send the records in several requests');

  const refused = (req, res, params, error) => {
    closeAfterAnswer(req, res);
    // The append resource of a store without append allows no method at all (RFC 9110 15.5.6).
    if (error?.code === 'APPEND_UNSUPPORTED') res.setHeader('Allow', '');
    // Several app processes, each with its own in-process store: its keys can still be read.
    if (error?.code === 'PER_WORKER_STORE') res.setHeader('Allow', params.key ? 'GET, HEAD' : '');
    return error;
  };
  // A write: guarded, then work(req, res, params, timing); a refusal keeps the store's timing.
  const write = (work) => async (req, res, params) => {
    const timing = timingOf(req);
    try {
      guard(req, res);
      return await work(req, res, params, timing);
    } catch (error) {
      setServerTiming(res, timing);
      throw refused(req, res, params, error);
    }
  };
  const done = (res, timing) => {
    setServerTiming(res, timing);
    return emptyAnswer(204);
  };

  return {
    put: write(async (req, res, { store, key }, timing) => {
      stores.prepare(store, key, 'set');
      await stores.write(store, key, await body(req, res, maxValueSize, valueTooLarge), timing);
      return done(res, timing);
    }),
    remove: write(async (req, res, { store, key }, timing) => {
      await stores.remove(store, key, timing);
      return done(res, timing);
    }),
    append: write(async (req, res, { store, key }, timing) => {
      stores.prepare(store, key, 'append');
      await stores.append(store, key, await body(req, res, maxValueSize, valueTooLarge), timing);
      return done(res, timing);
    }),
    bulk: write(async (req, res, { store }, timing) => {
      stores.prepare(store, undefined, 'setMany');
      const type = req.headers['content-type']?.split(';')[0].trim().toLowerCase();
      if (type !== RECORDS_MEDIA_TYPE) throw new UnsupportedMediaTypeError(RECORDS_MEDIA_TYPE, type);
      const records = parseRecords(await body(req, res, maxBulkSize, bulkTooLarge));
      records.forEach(([key, bytes], i) => {
        const problem = keyProblem(key);
        if (problem) throw new InvalidKeyError(`record ${i + 1}: ${problem}`, store);
        if (bytes.length > maxValueSize) throw valueTooLarge(bytes.length, `record ${i + 1}'s value`);
      });
      const written = await stores.writeMany(store, records, timing);
      setServerTiming(res, timing);
      return jsonAnswer(200, { written });
    }),
  };
}
