// The one place errors become responses: {"error", "code", "store"} with the typed error's status;
// anything untyped is a 500 whose details stay in the log. What a client does never reaches the log.
import { StorebenchError } from '../util/errors.js';
import { redactText } from '../util/redact.js';
import { ClientGone } from './body.js';

export function notFound(req, res) {
  res.status(404).json({ error: `no route for ${req.method} ${req.path}`, code: 'NO_ROUTE' });
}

export function errorHandler(log) {
  // Express recognises an error handler by its four parameters.
  return (error, req, res, next) => {
    if (error instanceof ClientGone) return;
    // Express's own errors (a path that does not decode) are the client's: 400 BAD_REQUEST,
    // whatever status they carry, so status and code always agree.
    const typed = error instanceof StorebenchError;
    const clientError = !typed && Number.isInteger(error.status) && error.status >= 400 && error.status < 500;
    if (!typed && !clientError) log(`error on ${req.method} ${req.path}: ${redactText(error.stack ?? String(error))}`);
    // An answer already begun cannot be replaced: cutting the connection is what tells the client.
    if (res.headersSent) return void res.destroy();
    if (typed) {
      // What the client sent is echoed as sent; only credentials inside a URL are masked.
      const body = { error: redactText(error.message), code: error.code };
      if (error.store) body.store = error.store;
      if (error.key) body.key = error.key;
      res.status(error.status).json(body);
      return;
    }
    res.status(clientError ? 400 : 500).json(clientError
      ? { error: redactText(error.message), code: 'BAD_REQUEST' }
      : { error: 'internal error', code: 'INTERNAL' });
  };
}
