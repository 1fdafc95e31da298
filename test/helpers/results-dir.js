// Where the driver keeps the runs the tests make (node test saves every sweep in
// ./storebench-results/ by default): one temporary folder per test process, removed when it
// exits, so a test run never writes into the repository.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let dir = null;

/** This process's folder for saved runs, made on first use. */
function testResultsDir() {
  if (dir === null) {
    dir = mkdtempSync(join(tmpdir(), 'storebench-test-runs-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return dir;
}

let runs = 0;

/**
 * `env` with STOREBENCH_RESULTS_DIR set to a new folder inside the test folder (so a run never
 * meets another test's runs as its last), unless it names one itself.
 */
export const withResultsDir = (env = process.env) =>
  ({ STOREBENCH_RESULTS_DIR: join(testResultsDir(), String(runs += 1)), ...env });

/** A run's text less the line naming the folder it was kept in (node test report prints none). */
export const withoutSavedLine = (text) =>
  text.replace(/saved(?: \(interrupted: the \d+ step\(s\) finished\))?: [^\n]*\n$/, '');
