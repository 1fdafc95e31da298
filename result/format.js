// Results files in and out through fields.js: fromJson(toJson(result)) deep-equals result, so
// every report can start from a saved file.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { ResultsFormatError, RunError } from '../util/errors.js';
import { RESULT_FIELDS, RESULTS_FORMAT } from './fields.js';
import { copyRecord } from './shape.js';

export { RESULTS_FORMAT };

// Older files' steps lack timestamps and warning codes.
const FIRST_FORMAT = 'storebench-driver/1';
const RESULTS_PREFIX = 'storebench-results/';
const versionOf = (format) => (format.startsWith(RESULTS_PREFIX) ? Number(format.slice(RESULTS_PREFIX.length)) : NaN);

export function toJson(result) {
  const fail = (problem) => {
    throw new TypeError(`not a Result: ${problem}`);
  };
  return JSON.stringify(copyRecord(result, RESULT_FIELDS, '', fail), null, 2);
}

// Where JSON.parse stopped, or null at the text's end. "Unexpected token" messages quote the text
// instead of an offset: there it is the longest prefix that still reads as unfinished JSON.
function stopOffset(text, error) {
  const offsetIn = (message, length) => {
    const at = /at position (\d+)/.exec(message);
    if (at) return Number(at[1]) >= length ? null : Number(at[1]);
    return /end of JSON input/.test(message) ? null : undefined;
  };
  const known = offsetIn(error.message, text.length);
  if (known !== undefined) return known;
  const endsEarly = (length) => {
    try {
      JSON.parse(text.slice(0, length));
      return true;
    } catch (prefixError) {
      return offsetIn(prefixError.message, length) === null;
    }
  };
  let [good, bad] = [0, text.length];
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    if (endsEarly(middle)) good = middle;
    else bad = middle;
  }
  return bad - 1;
}

// "not JSON (...)" without any of the file's text: a wrong file (say /etc/passwd or a .env)
// can hold secrets, and the parser's own message quotes the text around the problem.
function notJson(text, error) {
  const offset = stopOffset(text, error);
  if (offset === null) return 'not JSON (the text ends before the JSON does)';
  const before = text.slice(0, offset).split('\n');
  return `not JSON (it stops being JSON at line ${before.length}, column ${before.at(-1).length + 1})`;
}

/** Reads a results file's text (or parsed JSON) into a Result; throws ResultsFormatError (exit 2). */
export function fromJson(input) {
  let parsed = input;
  if (typeof input === 'string') {
    try {
      parsed = JSON.parse(input);
    } catch (error) {
      throw new ResultsFormatError(notJson(input, error));
    }
  }
  const format = parsed?.format;
  if (format === undefined || format === null) {
    throw new ResultsFormatError('not a storebench results file (it has no "format")');
  }
  if (typeof format !== 'string') {
    // A number or boolean is shown; an object or array is only named (it could be anything).
    const shown = typeof format === 'object' ? (Array.isArray(format) ? 'an array' : 'an object') : String(format);
    throw new ResultsFormatError(`not a storebench results file (its format is ${shown}, not ${RESULTS_FORMAT})`);
  }
  if (format !== RESULTS_FORMAT) {
    const version = versionOf(format);
    if (format === FIRST_FORMAT || version < versionOf(RESULTS_FORMAT)) {
      throw new ResultsFormatError(`written in the older format ${format}; this storebench reads ${RESULTS_FORMAT} ` +
        '(run the benchmark again to get one)');
    }
    if (version > versionOf(RESULTS_FORMAT)) {
      throw new ResultsFormatError(`written in the newer format ${format}; this storebench reads ${RESULTS_FORMAT}`);
    }
    throw new ResultsFormatError(
      `not a storebench results file (its format is ${JSON.stringify(format)}, not ${RESULTS_FORMAT})`);
  }
  const fail = (problem) => {
    throw new ResultsFormatError(`not a valid ${RESULTS_FORMAT} file: ${problem}`);
  };
  return copyRecord(parsed, RESULT_FIELDS, '', fail);
}

const READ_PROBLEMS = { ENOENT: 'no such file', EACCES: 'permission denied', EISDIR: 'it is a folder, not a file' };

/** Reads a results file: RunError (exit 1) unreadable, ResultsFormatError (exit 2) not a Result. */
export async function readResults(file) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw cannotRead(file, error);
  }
  return fromFileText(file, text);
}

export function readResultsSync(file) {
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw cannotRead(file, error);
  }
  return fromFileText(file, text);
}

const cannotRead = (file, error) =>
  new RunError(`cannot read ${file}: ${READ_PROBLEMS[error.code] ?? error.code ?? error.message}`, error);

function fromFileText(file, text) {
  try {
    return fromJson(text);
  } catch (error) {
    if (error instanceof ResultsFormatError) throw new ResultsFormatError(`${file}: ${error.message}`);
    throw error;
  }
}
