// node test report, compare and merge: saved runs in, text or a page out. Each throws what
// test.js turns into an exit code.
import { writeFile } from 'node:fs/promises';
import { check, compare, merge, report } from '../index.js';
import { readResults } from '../result/format.js';
import { checkOutputPaths, writeResults } from './results-files.js';
import { renderRun } from '../report/run-text.js';
import { regressionError } from '../report/compare-runs.js';
import { renderMachineRows } from '../report/machine-rows.js';
import { readResultsFromLog } from '../result/logs.js';
import { listSavedRuns, resultsDir } from './saved-runs.js';
import { renderRunsList } from '../report/saved-runs.js';
import { shownPath } from './results-files.js';
import { UsageError } from '../util/errors.js';

/** node test report FILE: tables on stdout or the page; a missed threshold throws (exit 3) after them. */
export async function reportCommand(
  { file, html, assert = [], verbose = false },
  { stdout = process.stdout, stderr = process.stderr } = {},
) {
  const result = await readResults(file);
  const thresholds = assert.length ? assert : undefined;
  if (html) {
    await checkOutputPaths({ html });
    await writeFile(html, report(result, { format: 'html', assert: thresholds }));
    stderr.write(`wrote ${html}: ${result.steps.length} step(s) as a page\n`);
  } else {
    stdout.write(report(result, { assert: thresholds, verbose }));
  }
  const { error } = check(result, thresholds);
  if (error) throw error;
}

/**
 * node test compare A B [--fail-on-regression PCT [--ignore-busy]]: the comparison on stdout; a
 * regression throws (exit 3), unless --ignore-busy and B's step carried a machine warning.
 * Without A and B: the last two runs kept in storebench-results/ (UsageError when fewer).
 */
export async function compareCommand({ a, b, failOnRegression = null, ignoreBusy = false }, {
  stdout = process.stdout, env = process.env,
} = {}) {
  if (a === undefined) [a, b] = await lastTwoRuns(env);
  const comparison = compare(a, b, { failOnRegression, ignoreBusy });
  stdout.write(comparison.render());
  const failed = regressionError(comparison);
  if (failed) throw failed;
  return comparison;
}

async function lastTwoRuns(env) {
  const dir = resultsDir(env);
  const runs = await listSavedRuns(dir);
  if (runs.length < 2) {
    throw new UsageError(`compare needs two results files, or two runs kept in ${dir}/ (it holds ${runs.length}): ` +
      'node test compare A.json B.json');
  }
  return runs.slice(-2).map((run) => shownPath(run.file));
}

/** node test runs: the runs kept in storebench-results/ ($STOREBENCH_RESULTS_DIR), one line each, oldest first. */
export async function runsCommand(options, { stdout = process.stdout, env = process.env } = {}) {
  const dir = resultsDir(env);
  const runs = [];
  for (const { folder, file } of await listSavedRuns(dir)) {
    try {
      runs.push({ folder, result: await readResults(file) });
    } catch (error) {
      runs.push({ folder, result: null, problem: error.message });
    }
  }
  stdout.write(renderRunsList(runs, { dir, shown: shownPath }));
}

/** node test merge FILE...: the merged tables with every machine's row beside each step's total. */
export async function mergeCommand(
  { files, json, csv, html, fromLogs = [] },
  { stdout = process.stdout, stderr = process.stderr } = {},
) {
  await checkOutputPaths({ json, csv, html });
  const inputs = [];
  for (const file of files) inputs.push({ file, result: await readResults(file) });
  for (const log of fromLogs) inputs.push(...await readResultsFromLog(log));
  const result = merge(inputs);
  await printMerged(result, { json, csv, html }, { stdout, stderr });
  return result;
}

export async function printMerged(
  result,
  { json, csv, html },
  { stdout = process.stdout, stderr = process.stderr } = {},
) {
  const out = json === '-' ? stderr : stdout;
  out.write(renderRun(result));
  out.write(`\n${renderMachineRows(result)}`);
  const apart = result.steps.filter((step) => step.warnings.some((warning) => warning.code === 'NO_OVERLAP')).length;
  if (apart) {
    stderr.write(`warning: in ${apart} of ${result.steps.length} step(s) the drivers' time windows do not overlap ` +
      '(NO_OVERLAP): their rps do not add up to one load; check the machines\' clocks\n');
  }
  for (const warning of result.start?.warnings ?? []) stderr.write(`warning: ${warning.message} (${warning.code})\n`);
  await writeResults({ json, csv, html }, result, stdout);
}
