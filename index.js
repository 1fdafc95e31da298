// storebench as a library (`import { run, report, compare, merge } from 'storebench'`): the
// calls behind `node test`, `node test report`, `compare` and `merge`, returning values and
// printing nothing. The target app's factory is `storebench/app`. docs/api.md shows each call.
import { normalizeOptions } from './options/normalize.js';
import { resultError, runBenchmark } from './driver/run.js';
import { codeOptionProblems } from './options/code.js';
import { parseThresholds } from './config/thresholds.js';
import { fromJson, readResultsSync, toJson } from './result/format.js';
import { renderRun } from './report/run-text.js';
import { renderScenario } from './report/scenario.js';
import { htmlReport } from './report/html.js';
import { buildCsv } from './report/csv.js';
import { renderThresholds, thresholdsError } from './report/assert.js';
import { checkThresholds } from './result/threshold-check.js';
import { renderRunComparison } from './report/compare-runs.js';
import { compareRuns } from './result/run-comparison.js';
import { mergeResults } from './result/merge.js';
import { renderMachineRows } from './report/machine-rows.js';
import { ResultsFormatError, UsageError } from './util/errors.js';

export { normalizeOptions };
export {
  StorebenchError, UsageError, RunError, ResultsFormatError, MergeError, ThresholdError, VerifyError, ERROR_CODES,
} from './util/errors.js';
export { WARNING_CODES } from './result/warnings.js';
export { RESULTS_FORMAT } from './result/format.js';

/**
 * Runs a benchmark and resolves to its Result (docs/results-format.md). `options` are the long
 * flags of `node test` in camelCase: `{ stores: ['memory'], direct: true, concurrency: [5],
 * requests: 200 }`. Rejects with a UsageError (code USAGE, `problems`: every one, in the
 * command line's words) before any load, or a RunError when there is nothing it could run.
 * `onProgress(event)` sees the run's events as they happen (driver/run.js lists them); an abort
 * of `signal` stops the run and resolves with the finished steps and `interrupted: true`.
 * `env`: the environment the run reads its settings from and gives the servers it starts, in
 * place of process.env (a study keeping its own servers across runs passes theirs).
 */
export async function run(options = {}, { signal, onProgress, env = process.env } = {}) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    const given = Array.isArray(options) ? 'an array' : String(options);
    throw new UsageError(`run() takes an object of options, not ${given}`);
  }
  const { command, options: normalized, problems } = normalizeOptions(options, env);
  const all = [...codeOptionProblems(options, command), ...(command === 'scenario' ? [] : problems)];
  if (all.length) throw new UsageError(all);
  return runBenchmark(normalized, { signal, onProgress, env });
}

/**
 * The same run as an async iterator of its events: each progress event as it happens (as
 * `onProgress` sees them), then `{ type: 'done', result }`. A bad option throws from the first
 * step of the loop, as run() rejects. Leaving the loop early (break, return, a throw) aborts
 * the run and waits for it to stop; an abort of `signal` ends it as run()'s does.
 */
export async function * runEvents(options = {}, { signal } = {}) {
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (signal?.aborted) abort();
  signal?.addEventListener('abort', abort, { once: true });
  const queue = [];
  let wake = null;
  const wakeUp = () => {
    wake?.();
    wake = null;
  };
  let outcome = null; // { result } or { error }, once run() settles
  const onProgress = (event) => {
    queue.push(event);
    wakeUp();
  };
  const running = run(options, { signal: controller.signal, onProgress })
    .then((result) => { outcome = { result }; }, (error) => { outcome = { error }; })
    .finally(wakeUp);
  try {
    for (;;) {
      while (queue.length) yield queue.shift();
      if (outcome) break;
      await new Promise((resolve) => { wake = resolve; });
    }
    if (outcome.error) throw outcome.error;
    yield { type: 'done', result: outcome.result };
  } finally {
    if (!outcome) {
      abort();
      await running;
    }
    signal?.removeEventListener('abort', abort);
  }
}

/**
 * The failure a finished Result stands for, or null: the error (RunError, VerifyError) the
 * command line would exit 1 with: the embedded app died, a store named in `stores` could not
 * be swept, no request of a named target's step succeeded, written values read back different.
 */
export const failure = (result) => resultError(load(result));

// A Result from a results file's path or a Result object, as the file would read back: every
// renderer starts from that form, whether the run just finished or was saved long ago.
function load(input) {
  if (typeof input === 'string') return readResultsSync(input);
  let text;
  try {
    text = toJson(input);
  } catch (error) {
    throw new ResultsFormatError(error.message);
  }
  return fromJson(text);
}

const thresholdsOf = (assert, result) => {
  const given = assert === undefined ? result.settings.assert : [].concat(assert);
  const { thresholds, problems } = parseThresholds(given);
  if (problems.length) throw new UsageError(problems);
  return thresholds;
};

const FORMATS = ['text', 'html', 'csv', 'json'];

/**
 * A Result (or a results file's path) as text, as `node test report` prints it ('text'), as
 * one HTML page ('html'), as the --csv file ('csv') or the --json file ('json'). `assert`:
 * thresholds whose table the text and page show instead of the run's own. `verbose`: the text
 * with every line under each table and the comparison's row per store and level (--verbose).
 */
export function report(input, { format = 'text', assert, verbose = false } = {}) {
  if (!FORMATS.includes(format)) throw new UsageError(`format must be ${FORMATS.join(', ')}, not "${format}"`);
  const result = load(input);
  if (format === 'json') return `${toJson(result)}\n`;
  if (format === 'csv') return buildCsv(result.steps, result);
  const thresholds = thresholdsOf(assert, result);
  if (format === 'html') return htmlReport(result, { thresholds });
  const { system, settings, steps } = result;
  const engine = { engine: settings.engine, choice: settings.engineChoice };
  if (result.scenario) return renderScenario(result.scenario, { system, ...engine, steps });
  return renderRun(result, { thresholds, verbose }) + (result.merged ? `\n${renderMachineRows(result)}` : '');
}

/**
 * Checks thresholds (`assert`, as --assert takes them: 'p99<5ms', 'memory:rps>=1000'; default:
 * the run's own) against a Result or a results file: `{ pass, rows, text, error }`, where
 * `rows` holds one entry per threshold and store, `text` the table the run prints, and `error`
 * the ThresholdError the command line exits 3 with (null when every threshold held).
 */
export function check(input, assert) {
  const result = load(input);
  const rows = checkThresholds(result, thresholdsOf(assert, result));
  return { pass: rows.every((row) => row.pass), rows, text: renderThresholds(rows), error: thresholdsError(rows) };
}

/**
 * Compares two runs (Results or results files), as `node test compare A B` does: the
 * comparison object (`rows`, `regressions`, `onlyA`, `onlyB`, `settings`...) with a
 * `render()` that returns the text the command prints. `failOnRegression` (a percentage)
 * marks an rps fallen or a p99 risen by more as a regression; `ignoreBusy` excuses those
 * whose step in B carried a machine warning.
 */
export function compare(a, b, { failOnRegression = null, ignoreBusy = false } = {}) {
  const [runA, runB] = [load(a), load(b)];
  const comparison = compareRuns(runA, runB, { failOnRegression, ignoreBusy });
  const names = { nameA: typeof a === 'string' ? a : 'A', nameB: typeof b === 'string' ? b : 'B' };
  // Not enumerable: the comparison stays plain data for JSON.stringify.
  const render = () => renderRunComparison(comparison, { a: runA, b: runB, ...names });
  Object.defineProperty(comparison, 'render', { value: render });
  return comparison;
}

/**
 * Adds up runs that drivers on several machines made at once against one target (docs/merge.md):
 * the merged Result. `inputs`: results files or Results, two or more; a Result may come as
 * `{ file, result }`, named `file` where the merge names it (node test merge --from-logs: the
 * log it was found in). Throws MergeError when they do not measure the same thing.
 */
export function merge(inputs) {
  const named = (input) => input !== null && typeof input === 'object' && 'file' in input && 'result' in input;
  const entries = [...inputs].map((input, index) => (named(input)
    ? { file: input.file, result: load(input.result) }
    : { file: typeof input === 'string' ? input : `results[${index}]`, result: load(input) }));
  return mergeResults(entries);
}
