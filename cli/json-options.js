// Flag parsing for test-json.js (pure): every problem is collected, then the CLI exits 2.
import { parseFlags } from '../util/flags.js';
import { flagLines, flagSpec } from '../util/flag-table.js';

const DEFAULT_ROUNDS = 31;
// Each round is a ~20 ms batch of each of 6 operations: 1,000 rounds take about 2 minutes.
const MAX_ROUNDS = 1000;

const maxRounds = MAX_ROUNDS.toLocaleString('en-US');

const FLAGS = [
  {
    flag: 'rounds',
    arg: 'N',
    help: `timed batches per operation, 1 to ${maxRounds} (default: ${DEFAULT_ROUNDS}; each batch takes about ` +
      '20 ms, so 1,000 rounds take about 2 minutes)',
  },
  { flag: 'json', arg: 'FILE', help: 'write the results as JSON ("-": to stdout, the table to stderr)' },
  { flag: 'help', short: 'h', help: 'show this help' },
];

export const usage = `Usage: node test-json [options]

Times JSON.parse and JSON.stringify for each payload (key1..key3): median time per operation
over many batches after a warm-up, operations per second, and the payload size.

Options:
${flagLines(FLAGS)}

Exit codes: 0 done, 1 an unexpected failure, 2 bad flags or a --json file that cannot be
written (checked before any timing).`;

const spec = flagSpec(FLAGS);

export function parseJsonArguments(argv) {
  const { values, problems } = parseFlags(argv, spec);
  const roundsText = typeof values.rounds === 'string' ? values.rounds : undefined;
  if (roundsText !== undefined && !(/^\d+$/.test(roundsText) && Number(roundsText) > 0)) {
    problems.push(`--rounds must be a positive whole number, not "${roundsText}"`);
  } else if (roundsText !== undefined && Number(roundsText) > MAX_ROUNDS) {
    problems.push(`--rounds must be at most ${MAX_ROUNDS.toLocaleString('en-US')}, not "${roundsText}"`);
  }
  return {
    help: values.help === true,
    problems,
    options: {
      rounds: roundsText === undefined ? DEFAULT_ROUNDS : Number(roundsText),
      json: typeof values.json === 'string' ? values.json : undefined,
    },
  };
}
