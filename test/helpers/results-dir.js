// Where the driver keeps the runs the tests make (node test saves every sweep in
// ./storebench-results/ by default): one temporary folder per test process, removed when it
// exits, so a test run never writes into the repository.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let dir = null;

/** This process's folder for saved runs, made on first use. */
export function testResultsDir() {
  if (dir === null) {
    dir = mkdtempSync(join(tmpdir(), 'storebench-test-runs-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return dir;
}

/** `env` with STOREBENCH_RESULTS_DIR set to the test folder, unless it names one itself. */
export const withResultsDir = (env = process.env) => ({ STOREBENCH_RESULTS_DIR: testResultsDir(), ...env });
