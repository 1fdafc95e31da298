// The one place errors become answers: {"error", "code", "store"} with the typed error's status;
// anything untyped is a 500 whose details stay in the log. What a client does never reaches the log.
import { StorebenchError } from '../util/errors.js';
import { redactText } from '../util/redact.js';
import { ClientGone } from './body.js';
import { jsonAnswer, pathOf } from './answers.js';

export const notFoundAnswer = (req) =>
  jsonAnswer(404, { error: `no route for ${req.method} ${pathOf(req)}`, code: 'NO_ROUTE' });

/**
 * The answer to `error` thrown while serving req, or null when nothing is to be sent (the client
 * left). `log` gets the details of an error that is not the client's.
 */
export function errorAnswer(error, req, log) {
  if (error instanceof ClientGone) return null;
  // A framework's own errors (a path that does not decode) are the client's: 400 BAD_REQUEST,
  // whatever status they carry, so status and code always agree.
  const typed = error instanceof StorebenchError;
  const status = error?.status ?? error?.statusCode;
  const clientError = !typed && Number.isInteger(status) && status >= 400 && status < 500;
  if (!typed && !clientError) {
    log(`error on ${req.method} ${pathOf(req)}: ${redactText(error?.stack ?? String(error))}`);
  }
  if (typed) {
    // What the client sent is echoed as sent; only credentials inside a URL are masked.
    const body = { error: redactText(error.message), code: error.code };
    if (error.store) body.store = error.store;
    if (error.key) body.key = error.key;
    return jsonAnswer(error.status, body);
  }
  return clientError
    ? jsonAnswer(400, { error: redactText(error.message), code: 'BAD_REQUEST' })
    : jsonAnswer(500, { error: 'internal error', code: 'INTERNAL' });
}
