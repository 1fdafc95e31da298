// Typed errors, each with a stable code and the HTTP status the app answers with.
// Driver errors keep the cause they wrap, so nothing a client library said is lost.

export class StorebenchError extends Error {
  constructor(message, { code, status = 500, cause, ...details } = {}) {
    super(message, cause ? { cause } : undefined);
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    Object.assign(this, details);
  }
}

/** No store of that name is registered. */
export class UnknownStoreError extends StorebenchError {
  constructor(store) {
    super(`unknown store "${store}"`, { code: 'UNKNOWN_STORE', status: 404, store });
  }
}

/** The store answered, but holds no such key. */
export class KeyNotFoundError extends StorebenchError {
  constructor(store, key) {
    super(`key "${key}" not found in store "${store}"`, { code: 'KEY_NOT_FOUND', status: 404, store, key });
  }
}

/** The store could not be reached or failed; the app keeps serving the others. */
export class StoreUnavailableError extends StorebenchError {
  constructor(store, reason, cause) {
    super(`store "${store}" is unavailable: ${reason}`, {
      code: 'STORE_UNAVAILABLE',
      status: 503,
      store,
      reason,
      cause,
    });
  }
}

/** Bad command-line input: the CLI prints the message(s) and exits 2. */
export class UsageError extends StorebenchError {
  constructor(problems) {
    const list = [].concat(problems);
    super(list.join('\n'), { code: 'USAGE', status: 400, problems: list });
  }
}

/** A driver run that cannot go on (target unreachable, bad /stores listing): the CLI exits 1. */
export class RunError extends StorebenchError {
  constructor(message, cause) {
    super(message, { code: 'RUN_FAILED', status: 500, cause });
  }
}
