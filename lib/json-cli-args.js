// Flag parsing for test-json.js (pure).
import { parseArgs } from 'node:util';

export const usage = `Usage: node test-json [options]

Times JSON.parse and JSON.stringify for each payload (key1..key3): median time per operation
over many batches after a warm-up, operations per second, and the payload size.

Options:
  --rounds N      timed batches per operation (default: 31)
  --json FILE     write the results as JSON ("-": to stdout, the table to stderr)
  -h, --help      show this help`;

export function parseJsonArguments(argv) {
  const problems = [];
  let values = {};
  try {
    ({ values } = parseArgs({ args: argv, options: { rounds: { type: 'string' }, json: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }));
  } catch (error) {
    problems.push(error.message);
  }
  const rounds = values.rounds === undefined ? 31 : Number(values.rounds);
  if (values.rounds !== undefined && (!/^\d+$/.test(values.rounds) || rounds < 1)) problems.push(`--rounds must be a positive whole number, not "${values.rounds}"`);
  return { help: Boolean(values.help), problems, options: { rounds, json: values.json } };
}
