// node test-json: how long JSON.parse and JSON.stringify take for each payload (key1..key3),
// as the median of many timed batches after a warm-up.
import { payloads } from '../stores/payloads.js';
import { timeJson } from '../driver/json-timing.js';
import { renderJsonTimings } from '../report/json-table.js';
import { systemInfo } from '../util/system-info.js';
import { renderSystemLine } from '../report/system.js';
import { parseJsonArguments, usage } from './json-options.js';
import { checkOutputPaths } from './results-files.js';
import { RunError, UsageError } from '../util/errors.js';
import { exitOnUncaught, reportFailure } from '../util/cli.js';
import { writeFile } from 'node:fs/promises';

const NAME = 'node test-json';

/** node test-json with `argv` (without node and the script): resolves to the exit code. */
export async function main(argv) {
  exitOnUncaught(NAME);
  const { help, problems, options } = parseJsonArguments(argv);
  if (help) {
    console.log(usage);
    return 0;
  }
  if (problems.length) return reportFailure(NAME, new UsageError(problems));
  // Before any timing: a --json file that cannot be written is found now, not at the end.
  try {
    await checkOutputPaths({ json: options.json });
  } catch (error) {
    return reportFailure(NAME, error);
  }

  const out = options.json === '-' ? process.stderr : process.stdout;
  const system = systemInfo({ target: 'JSON.parse / JSON.stringify in this process' });
  out.write(`${renderSystemLine(system)}\n\n`);
  const results = timeJson(payloads, { rounds: options.rounds });
  out.write(`${renderJsonTimings(results)}\n`);
  const report = JSON.stringify({ format: 'storebench-json/1', system, results }, null, 2);
  if (options.json === '-') process.stdout.write(`${report}\n`);
  else if (options.json) {
    try {
      await writeFile(options.json, `${report}\n`);
    } catch (error) {
      return reportFailure(NAME, new RunError(`cannot write ${options.json}: ${error.code ?? error.message}`));
    }
  }
  return 0;
}
