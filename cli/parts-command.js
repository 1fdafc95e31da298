// node test --parts N --local: the parts run (cli/local-parts.js), then printed and written
// as node test merge prints and writes a merged run; --assert is checked on the merged run.
import { runLocalParts } from './local-parts.js';
import { parseThresholds } from '../config/thresholds.js';
import { thresholdsError } from '../report/assert.js';
import { checkThresholds } from '../result/threshold-check.js';
import { printMerged } from './report-commands.js';
import { checkOutputPaths } from './results-files.js';

/** Resolves to the merged Result; throws what the CLI turns into an exit code. */
export async function partsCommand(argv, options, { signal, stdout = process.stdout, stderr = process.stderr } = {}) {
  await checkOutputPaths(options);
  const { result } = await runLocalParts(argv, options, {
    signal,
    onStarted: ({ startAt, target }) => {
      const against = target ? ` against ${target}` : '';
      if (!options.quiet) stderr.write(`${options.parts} parts${against}, starting at ${startAt.toISOString()}\n`);
    },
  });
  await printMerged(result, options, { stdout, stderr });
  const missed = thresholdsError(checkThresholds(result, parseThresholds(options.assert).thresholds));
  if (missed) throw missed;
  return result;
}
