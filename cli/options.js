// node test's command line: argv -> the object normalizeOptions (options/normalize.js) takes, and
// the report/compare/merge/k8s subcommands' parsers; the usage text is in run-usage.js.
import { parseFlags } from '../util/flags.js';
import { normalizeOptions } from '../options/normalize.js';
import { RUN_FLAGS as spec, camelCase } from '../options/table.js';
import {
  parseCompareArguments, parseMergeArguments, parseReportArguments, parseRunsArguments,
} from './report-options.js';
import { parseK8sArguments } from './k8s-job.js';

export { usage } from './run-usage.js';

/**
 * Parses argv: { command, help, options, problems }. A run's flags become what normalizeOptions
 * takes, so a run from code and one from the command line are checked by the same rules.
 */
export function parseArguments(argv, env = process.env) {
  if (argv[0] === 'report') return parseReportArguments(argv.slice(1));
  if (argv[0] === 'compare') return parseCompareArguments(argv.slice(1));
  if (argv[0] === 'merge') return parseMergeArguments(argv.slice(1));
  if (argv[0] === 'runs') return parseRunsArguments(argv.slice(1));
  if (argv[0] === 'k8s') return { command: 'k8s', ...parseK8sArguments(argv.slice(1), { parseRun: parseArguments }) };
  const { options, problems } = optionsOf(argv);
  const normalized = normalizeOptions(options, env);
  return { ...normalized, problems: [...problems, ...normalized.problems] };
}

/** A run's flags as run() takes them, and the problems of the flags themselves. */
export function optionsOf(argv) {
  const { values, problems } = parseFlags(argv, spec);
  const given = Object.entries(values).filter(([name, value]) => spec[name] && fitsSpec(spec[name], value));
  return { options: Object.fromEntries(given.map(([name, value]) => [camelCase(name), value])), problems };
}

function fitsSpec(entry, value) {
  if (entry.type === 'boolean') return typeof value === 'boolean';
  return entry.multiple ? Array.isArray(value) : typeof value === 'string';
}
