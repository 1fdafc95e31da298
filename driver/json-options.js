// Flag parsing for test-json.js (pure): every problem is collected, then the CLI exits 2.
import { parseFlags } from '../util/flags.js';

export const DEFAULT_ROUNDS = 31;

export const usage = `Usage: node test-json [options]

Times JSON.parse and JSON.stringify for each payload (key1..key3): median time per operation
over many batches after a warm-up, operations per second, and the payload size.

Options:
  --rounds N      timed batches per operation (default: ${DEFAULT_ROUNDS})
  --json FILE     write the results as JSON ("-": to stdout, the table to stderr)
  -h, --help      show this help`;

const spec = { rounds: { type: 'string' }, json: { type: 'string' }, help: { type: 'boolean', short: 'h' } };

export function parseJsonArguments(argv) {
  const { values, problems } = parseFlags(argv, spec);
  const roundsText = typeof values.rounds === 'string' ? values.rounds : undefined;
  if (roundsText !== undefined && !(/^\d+$/.test(roundsText) && Number(roundsText) > 0)) {
    problems.push(`--rounds must be a positive whole number, not "${roundsText}"`);
  }
  return {
    help: values.help === true,
    problems,
    options: { rounds: roundsText === undefined ? DEFAULT_ROUNDS : Number(roundsText), json: typeof values.json === 'string' ? values.json : undefined },
  };
}
