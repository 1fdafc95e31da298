// node test report and node test compare: saved runs in, text or a page out. Each resolves
// when done and throws what the CLI turns into an exit code (test.js): ThresholdError (3) for
// a missed threshold or a regression, ResultsFormatError (2), RunError (1), OutputPathError (2).
import { readResults } from './format.js';
import { checkOutputPaths } from './results.js';
import { renderRun } from './run-text.js';
import { writeHtmlReport } from './html.js';
import { checkThresholds, thresholdsError } from './assert.js';
import { compareRuns, regressionError, renderRunComparison } from './compare-runs.js';
import { parseThresholds } from '../driver/thresholds.js';
import { renderScenario } from './scenario.js';

/**
 * node test report FILE [--html OUT] [--assert EXPR]...: the run's tables on stdout, or the page
 * written to OUT. Thresholds: those given, else the run's own; a missed one throws (exit 3),
 * after the tables or the page are out.
 */
export async function reportCommand({ file, html, assert = [] }, { stdout = process.stdout, stderr = process.stderr } = {}) {
  const result = await readResults(file);
  const thresholds = assert.length ? parseThresholds(assert).thresholds : parseThresholds(result.settings.assert).thresholds;
  if (html) {
    await checkOutputPaths({ html });
    await writeHtmlReport(html, result, { thresholds });
    stderr.write(`wrote ${html}: ${result.steps.length} step(s) as a page\n`);
  } else if (result.scenario) {
    stdout.write(renderScenario(result.scenario, { system: result.system })); // issue 13: a --scenario run prints as it did
  } else {
    stdout.write(renderRun(result, { thresholds }));
  }
  const failed = thresholdsError(checkThresholds(result, thresholds));
  if (failed) throw failed;
}

/** node test compare A B [--fail-on-regression PCT]: the comparison on stdout; a regression throws (exit 3). */
export async function compareCommand({ a, b, failOnRegression = null }, { stdout = process.stdout } = {}) {
  const [runA, runB] = [await readResults(a), await readResults(b)];
  const comparison = compareRuns(runA, runB, { failOnRegression });
  stdout.write(renderRunComparison(comparison, { a: runA, b: runB, nameA: a, nameB: b }));
  const failed = regressionError(comparison);
  if (failed) throw failed;
  return comparison;
}
