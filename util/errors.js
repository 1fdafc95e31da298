// Every error code storebench uses, declared once (as fastify's lib/errors.js does): what it
// means and where it ends, as the HTTP status the app answers with or the exit code a CLI
// ends with. docs/errors.md lists each one; test/unit/errors.test.js fails when one is
// missing there. Code decides by `code`, never by matching message text.

export const ERROR_CODES = Object.freeze({
  // The app's HTTP answers: {"error": "...", "code": "...", "store"?, "key"?}
  UNKNOWN_STORE: { status: 404, meaning: 'no store of that name is registered' },
  KEY_NOT_FOUND: { status: 404, meaning: 'the store answered, but holds no such key' },
  NO_ROUTE: { status: 404, meaning: 'no route for that method and path' },
  BAD_REQUEST: {
    status: 400,
    meaning: 'the request could not be read (malformed HTTP, a malformed percent-encoding in the path, say)',
  },
  INVALID_KEY: {
    status: 400,
    meaning: 'the key is outside the key alphabet (A-Z a-z 0-9 . _ : ~ -) or not 1 to 250 characters long; ' +
      'checked before any store is called',
  },
  BAD_RECORDS: {
    status: 400,
    meaning: 'a bulk-load body that is not a sequence of records (uint16 key length, key, uint32 value length, value)',
  },
  WRITE_TOKEN_REQUIRED: {
    status: 401,
    meaning: 'a write without Authorization: Bearer <token>, where writes need the token (STOREBENCH_WRITE_TOKEN)',
  },
  WRITE_TOKEN_INVALID: { status: 403, meaning: 'a write whose bearer token is not the app\'s STOREBENCH_WRITE_TOKEN' },
  PROFILING_OFF: {
    status: 403,
    meaning: 'POST /_profile/start or stop on an app started without --allow-profiling (STOREBENCH_ALLOW_PROFILING): ' +
      'the app profiles itself only when told it may',
  },
  WRITES_DISABLED: {
    status: 403,
    meaning: 'a write to an app that listens beyond loopback with no STOREBENCH_WRITE_TOKEN set: writes are off',
  },
  INVALID_RESULT_ID: {
    status: 400,
    meaning: 'a results-area path that is not /_results/<run>/<part> ' +
      '(run: 1 to 64 of A-Z a-z 0-9 _ -; part: a number from 1)',
  },
  RESULT_NOT_FOUND: {
    status: 404,
    meaning: 'GET /_results/<run>/<part>: no result was put there (yet), or it was dropped to make room, ' +
      'or it went to another instance',
  },
  METHOD_NOT_ALLOWED: {
    status: 405,
    meaning: 'the path exists, but not for that method (the Allow header lists those it takes); ' +
      'CONNECT: this is no proxy',
  },
  APPEND_UNSUPPORTED: {
    status: 405,
    meaning: 'the store cannot append natively; write the whole value with PUT instead',
  },
  PER_WORKER_STORE: {
    status: 405,
    meaning: 'a write to a store that keeps its data in the app\'s process (memory) while the app runs several ' +
      'worker processes (--workers): each has its own copy, so a value written through one would be missing from ' +
      'the others. Reads of its seeded keys work (every worker seeds its own); /stores says so as the store\'s ' +
      '`writesRefused`, and the driver leaves it out of workloads that write',
  },
  REQUEST_TIMEOUT: {
    status: 408,
    meaning: 'the request did not arrive in time: its headers within STOREBENCH_HEADERS_TIMEOUT_MS (default 10 s), ' +
      'all of it within STOREBENCH_REQUEST_TIMEOUT_MS (30 s), or a write\'s body paused longer than ' +
      'STOREBENCH_BODY_IDLE_TIMEOUT_MS (10 s); the connection is closed',
  },
  PROFILE_CONFLICT: {
    status: 409,
    meaning: 'POST /_profile/start while a profile is being taken, or /_profile/stop with none being taken',
  },
  WRITE_CONFLICT: {
    status: 409,
    meaning: 'other writers of the key kept the write from landing within 60% of the operation deadline (its turn ' +
      'behind this app\'s writes of the key did not come, or a CouchDB revision conflict persisted after retries); ' +
      'it never lands; the store is up: send it again',
  },
  VALUE_TOO_LARGE: {
    status: 413,
    meaning: 'a value over the app\'s limit (--max-value-size, STOREBENCH_MAX_VALUE_SIZE), ' +
      'or over what the store\'s server accepts',
  },
  BULK_TOO_LARGE: { status: 413, meaning: 'a bulk-load body over STOREBENCH_MAX_BULK_SIZE' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    meaning: 'a bulk-load body whose Content-Type is not application/vnd.storebench.records',
  },
  RESULT_TOO_LARGE: {
    status: 413,
    meaning: 'PUT /_results/<run>/<part>: a result over the results area\'s limit (8 MB)',
  },
  HEADERS_TOO_LARGE: { status: 431, meaning: 'the request headers are larger than the server accepts (16 KB)' },
  STORE_UNAVAILABLE: {
    status: 503,
    meaning: 'the store could not be opened, or its server failed; the app keeps serving the others',
  },
  STORE_TIMEOUT: {
    status: 503,
    meaning: 'the store did not answer within the operation deadline (STOREBENCH_OP_TIMEOUT_MS, default 2000 ms); it ' +
      'is down until its server answers again',
  },
  SHUTTING_DOWN: {
    status: 503,
    meaning: 'the request came on a connection that arrived after the app began shutting down (SIGTERM): held until ' +
      'the app closes its listener, then answered with Connection: close, nothing done; send it again once the app ' +
      'is back',
  },
  INTERNAL: { status: 500, meaning: 'an unexpected error; its details are in the app log, never in the answer' },
  // Why a store is unavailable: `reasonCode` beside `reason` in /stores
  NOT_CONFIGURED: {
    status: 503,
    meaning: 'no URL set and no bound service, and the embedded default is off (--no-embedded)',
  },
  NOT_INSTALLED: { status: 503, meaning: 'the embedded default needs a server program that is not on PATH' },
  START_FAILED: { status: 503, meaning: 'the embedded default found the server program, but it did not start' },
  BAD_BINDING: { status: 503, meaning: 'VCAP_SERVICES is broken, or the bound service has no usable credentials' },
  BAD_URL: {
    status: 503,
    meaning: 'the configured URL (an option or environment variable) cannot be used: it does not parse, has the ' +
      'wrong scheme or no host, or names a user without a password',
  },
  DELAY_UNSUPPORTED: {
    status: 503,
    meaning: 'a network is emulated (--store-rtt) and this store\'s connection cannot go through the delaying proxy: ' +
      'TLS, a Unix socket or a Redis Cluster',
  },
  OPEN_FAILED: {
    status: 503,
    meaning: 'the server was configured, but connecting or seeding failed (the app retries in the background; the ' +
      'driver\'s direct mode leaves the store out of its run)',
  },
  OPEN_TIMEOUT: {
    status: 503,
    meaning: 'connecting and seeding did not finish within the open deadline (STOREBENCH_OPEN_TIMEOUT_MS, default ' +
      '5000 ms); the app listens without the store and retries in the background; the driver\'s direct mode and ' +
      'scenarios leave it out of their run ("not used in this run")',
  },
  // The CLIs
  USAGE: { exit: 2, meaning: 'bad flags or arguments: every problem is printed, one line each, and nothing runs' },
  RUN_FAILED: { exit: 1, meaning: 'the run could not go on (target unreachable, bad /stores listing, app.js died)' },
  INTERRUPTED: { exit: 130, meaning: 'Ctrl-C: the finished steps are still printed and written' },
  BAD_RESULTS: {
    exit: 2,
    meaning: 'node test report: the file is not JSON, not a storebench results file, or of another format version',
  },
  BAD_OUTPUT: {
    exit: 2,
    meaning: '--json or --csv names a file that cannot be written (checked before any load): nothing runs',
  },
  // Reports: thresholds and run comparison
  ASSERTION_FAILED: {
    exit: 3,
    meaning: 'node test --assert: a threshold was missed (the table after the run says which); the ' +
      'results are still printed and written',
  },
  REGRESSION: {
    exit: 3,
    meaning: 'node test compare --fail-on-regression PCT: an rps fell or a p99 rose by more than PCT percent',
  },
  // The driver's workloads (docs/workloads.md)
  // Several machines
  MERGE_REFUSED: {
    exit: 2,
    meaning: 'node test merge: the files\' steps do not measure the same thing (a target, workload, setting or step ' +
      'differs, named in the line), they are one run given twice, or --direct runs did not reach one ' +
      'shared server: nothing is merged',
  },
  NOT_READY: {
    exit: 1,
    meaning: 'node test --start-at TIME: the driver finished preparing (target reachable, priming, load phase) only ' +
      'after TIME, so it would have started late: it stops instead of loading the target ' +
      'out of step with the other parts',
  },
  VERIFY_FAILED: {
    exit: 1,
    meaning: 'after a run that wrote, values read back from a store differ from what it acknowledged (a store that ' +
      'promises less, memcached, only warns)',
  },
});

export class StorebenchError extends Error {
  constructor(message, { code, status, cause, ...details } = {}) {
    super(message, cause ? { cause } : undefined);
    if (!ERROR_CODES[code]) throw new TypeError(`unregistered error code ${code}`);
    this.name = new.target.name;
    this.code = code;
    this.status = status ?? ERROR_CODES[code].status ?? 500;
    Object.assign(this, details);
  }
}

/** No store of that name is registered. */
export class UnknownStoreError extends StorebenchError {
  constructor(store) {
    super(`unknown store "${store}"`, { code: 'UNKNOWN_STORE', store });
  }
}

/** The store answered, but holds no such key. */
export class KeyNotFoundError extends StorebenchError {
  constructor(store, key) {
    super(`key "${key}" not found in store "${store}"`, { code: 'KEY_NOT_FOUND', store, key });
  }
}

/** The path exists, but not for this method. */
export class MethodNotAllowedError extends StorebenchError {
  constructor(method, path, allowed) {
    super(`${method} is not allowed on ${path} (allowed: ${allowed})`, { code: 'METHOD_NOT_ALLOWED' });
  }
}

/** The store could not be reached or failed; the app keeps serving the others. */
export class StoreUnavailableError extends StorebenchError {
  constructor(store, reason, cause) {
    super(`store "${store}" is unavailable: ${reason}`, { code: 'STORE_UNAVAILABLE', store, reason, cause });
  }
}

/** The store did not answer one operation (get, set, delete, ping) within the deadline. */
export class StoreTimeoutError extends StorebenchError {
  constructor(store, operation, timeoutMs) {
    super(`store "${store}" did not answer ${operation} within ${timeoutMs} ms`, {
      code: 'STORE_TIMEOUT',
      store,
      operation,
      timeoutMs,
    });
  }
}

/** A key outside the key alphabet or length (stores/keys.js): 400 before any store is called. */
export class InvalidKeyError extends StorebenchError {
  constructor(problem, store) {
    super(`invalid key: ${problem}`, { code: 'INVALID_KEY', ...(store ? { store } : {}) });
  }
}

/** A bulk-load body that does not parse as records. */
export class BadRecordsError extends StorebenchError {
  constructor(problem) {
    super(`not a records body: ${problem}`, { code: 'BAD_RECORDS' });
  }
}

/** The store has no native append. */
export class AppendUnsupportedError extends StorebenchError {
  constructor(store) {
    super(`store "${store}" cannot append natively; PUT the whole value instead`, {
      code: 'APPEND_UNSUPPORTED',
      store,
    });
  }
}

/** A write to an in-process store (memory) of an app running several worker processes. */
export class PerWorkerStoreError extends StorebenchError {
  constructor(store, reason) {
    super(`writes to ${store} are refused: ${reason}`, { code: 'PER_WORKER_STORE', store });
  }
}

/**
 * A value too large: over the app's limit (checked before any store sees it), or refused by
 * the store's server for its size (memcached's item limit, say). Not an outage.
 */
export class ValueTooLargeError extends StorebenchError {
  constructor(message, { store, limit, cause } = {}) {
    super(message, { code: 'VALUE_TOO_LARGE', cause, ...(store ? { store } : {}), ...(limit ? { limit } : {}) });
  }
}

/**
 * A write that lost to other writers of the same key every time it was retried (a CouchDB
 * revision conflict): 409, not an outage. The store answered; the write did not land.
 */
export class WriteConflictError extends StorebenchError {
  constructor(message, { store, cause } = {}) {
    super(message, { code: 'WRITE_CONFLICT', cause, ...(store ? { store } : {}) });
  }
}

/** A request body over a limit that is not a single value's: BULK_TOO_LARGE. */
export class BodyTooLargeError extends StorebenchError {
  constructor(message) {
    super(message, { code: 'BULK_TOO_LARGE' });
  }
}

/** A request that did not arrive in time: a write's body that paused too long (routes/body.js). */
export class RequestTimeoutError extends StorebenchError {
  constructor(message) {
    super(message, { code: 'REQUEST_TIMEOUT' });
  }
}

/** A bulk-load body of another media type. */
export class UnsupportedMediaTypeError extends StorebenchError {
  constructor(expected, given) {
    super(`Content-Type must be ${expected}${given ? `, not ${given}` : ''}`, { code: 'UNSUPPORTED_MEDIA_TYPE' });
  }
}

/**
 * A write refused by the write protection (routes/write-guard.js): code WRITE_TOKEN_REQUIRED
 * (401), WRITE_TOKEN_INVALID (403) or WRITES_DISABLED (403).
 */
export class WriteRefusedError extends StorebenchError {
  constructor(code, message) {
    super(message, { code });
  }
}

/**
 * Why a backing server cannot be had: code NOT_CONFIGURED, NOT_INSTALLED, START_FAILED,
 * BAD_BINDING or OPEN_TIMEOUT. Thrown by the embedded servers, config and the open deadline;
 * the store stays unavailable with it.
 */
export class ServerUnavailableError extends StorebenchError {
  constructor(code, message, cause) {
    super(message, { code, cause });
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
    super(message, { code: 'RUN_FAILED', cause });
  }
}

/** --start-at: ready only after the start instant (exit 1). */
export class NotReadyError extends StorebenchError {
  constructor(message) {
    super(message, { code: 'NOT_READY' });
  }
}

/** A results file that cannot be read back: not JSON, not a Result, or another format version (exit 2). */
export class ResultsFormatError extends StorebenchError {
  constructor(message) {
    super(message, { code: 'BAD_RESULTS' });
  }
}

/** A --json/--csv file that cannot be written, found before the run starts (exit 2). One problem per line. */
export class OutputPathError extends StorebenchError {
  constructor(problems) {
    const list = [].concat(problems);
    super(list.join('\n'), { code: 'BAD_OUTPUT', problems: list });
  }
}

/** A --assert threshold was missed, or compare --fail-on-regression found a regression (exit 3). */
export class ThresholdError extends StorebenchError {
  constructor(message, code = 'ASSERTION_FAILED') {
    super(message, { code });
  }
}

/** node test merge refused: the files' steps differ in the field the message names (exit 2). */
export class MergeError extends StorebenchError {
  constructor(message) {
    super(message, { code: 'MERGE_REFUSED' });
  }
}

/** Written values read back different from what a store acknowledged (exit 1). One line per store. */
export class VerifyError extends StorebenchError {
  constructor(message) {
    super(message, { code: 'VERIFY_FAILED' });
  }
}

/** The exit code a CLI ends with for error (1 for anything not a StorebenchError with one). */
export const exitCodeOf = (error) => ERROR_CODES[error?.code]?.exit ?? 1;
