// The report flags of node test (--html, --repeat, --assert) and its two report
// commands' flags (node test report FILE [--html OUT] [--assert EXPR], node test compare A B
// [--fail-on-regression PCT]): pure, like options.js, which appends these to its own.
import { parseFlags } from '../util/flags.js';
import { flagSpec } from '../util/flag-table.js';
import { parseThresholds } from '../config/thresholds.js';
import { htmlProblem, strings } from '../options/run-report.js';

const REGRESSION_LIMIT = 1000; // percent

// Each command's flags (util/flag-table.js): what is parsed is what each says it takes.
const HELP = { flag: 'help', short: 'h', help: 'show this help' };
const REPORT_FLAGS = [
  { flag: 'html', arg: 'OUT', help: 'write the page instead of printing the tables' },
  { flag: 'assert', arg: 'EXPR', multiple: true, help: 'check these thresholds instead of the run\'s own (exit 3)' },
  { flag: 'verbose', help: 'every line under each table, and the comparison\'s row per store and level' },
  HELP,
];
const COMPARE_FLAGS = [
  { flag: 'fail-on-regression', arg: 'PCT', help: 'exit 3 when an rps falls or a p99 rises by more than PCT %' },
  { flag: 'ignore-busy', help: 'do not fail on a step whose machine was busy (CPU_STEAL, BUSY_MACHINE)' },
  HELP,
];
const MERGE_FLAGS = [
  { flag: 'json', arg: 'OUT', help: 'write the merged run as JSON' },
  { flag: 'csv', arg: 'OUT', help: 'write the merged run as CSV' },
  { flag: 'html', arg: 'OUT', help: 'write the merged run\'s page' },
  { flag: 'from-logs', arg: 'LOG', multiple: true, help: 'results printed between marker lines on a log' },
  HELP,
];
const percent = (text) => (/^\d+(\.\d+)?$|^\.\d+$/.test(text) ? Number(text) : null);

export const REPORT_COMMANDS_USAGE = `       node test report FILE.json [--html OUT] [--assert EXPR]... [--verbose]
       node test compare [A.json B.json] [--fail-on-regression PCT [--ignore-busy]]
       node test runs: the runs kept in storebench-results/, one line each
       node test merge A.json B.json... [--from-logs LOG]... [--json OUT] [--csv OUT] [--html OUT]
       node test k8s <driver flags> --parts N [--image IMAGE]: a Kubernetes Job of N parts`;

export const REPORT_COMMANDS_HELP =
  `node test report prints the tables of a run saved with --json FILE (or kept in storebench-results/),
as that run printed them (--verbose: with every line under each table; with --html OUT: writes the
page instead; --assert checks these thresholds instead of the run's).
node test compare shows, for each step both runs have, rps, mean, p50 and p99 of both and the
change in %, "within noise" when the repeats' ranges overlap; with no files, the last two runs kept
in storebench-results/ (node test runs lists them); --fail-on-regression PCT exits 3
when an rps falls or a p99 rises by more than PCT %, naming the CPU_STEAL and BUSY_MACHINE
warnings of B's step beside each; --ignore-busy does not fail on those (they still show).
node test merge adds up runs that drivers on several machines made at the same time against
one target (docs/merge.md): per step, histograms added and counts and rps summed, each
machine's row kept beside the total; files whose target, workload or settings differ are
refused (exit 2). --json/--csv/--html write the merged run.`;

/** node test report FILE.json [--html OUT] [--assert EXPR]... [--verbose]: argv after "report". */
export function parseReportArguments(argv) {
  const { values, positionals, problems } = parseFlags(argv, flagSpec(REPORT_FLAGS), { positionals: 1 });
  const [file] = positionals;
  const help = values.help === true;
  if (file === undefined && !help) problems.push('report needs the FILE.json a run wrote with --json');
  const html = typeof values.html === 'string' ? values.html : undefined;
  const htmlWhy = htmlProblem(html);
  if (htmlWhy) problems.push(htmlWhy);
  const assert = strings(values.assert);
  problems.push(...parseThresholds(assert).problems);
  if (values.verbose === true && html !== undefined) {
    problems.push('--verbose is for the text: the page (--html) has it all');
  }
  return { command: 'report', help, options: { file, html, assert, verbose: values.verbose === true }, problems };
}

/**
 * node test compare [A.json B.json] [--fail-on-regression PCT [--ignore-busy]]: argv after
 * "compare"; no files: the last two saved runs.
 */
export function parseCompareArguments(argv) {
  const { values, positionals, problems } = parseFlags(argv, flagSpec(COMPARE_FLAGS), { positionals: 2 });
  const help = values.help === true;
  if (positionals.length === 1 && !help) {
    problems.push('compare needs two results files (node test compare A.json B.json), or none for the last two ' +
      'runs kept in storebench-results/');
  }
  let failOnRegression = null;
  const raw = values['fail-on-regression'];
  if (typeof raw === 'string') {
    failOnRegression = percent(raw);
    if (failOnRegression === null || failOnRegression > REGRESSION_LIMIT) {
      problems.push(`--fail-on-regression must be a percentage from 0 to ${REGRESSION_LIMIT} (e.g. 10), not "${raw}"`);
      failOnRegression = null;
    }
  }
  const ignoreBusy = values['ignore-busy'] === true;
  if (ignoreBusy && typeof raw !== 'string') {
    problems.push('--ignore-busy goes with --fail-on-regression PCT: it says which regressions do not fail');
  }
  const [a, b] = positionals;
  return { command: 'compare', help, options: { a, b, failOnRegression, ignoreBusy }, problems };
}

/** node test runs: argv after "runs" (only --help). */
export function parseRunsArguments(argv) {
  const { values, problems } = parseFlags(argv, flagSpec([HELP]));
  return { command: 'runs', help: values.help === true, options: {}, problems };
}

// The most files node test merge takes: far more machines than one target needs.
const MERGE_FILES_LIMIT = 1000;

/** node test merge FILE... [--json OUT] [--csv OUT] [--html OUT]: argv after "merge". */
export function parseMergeArguments(argv) {
  const spec = flagSpec(MERGE_FLAGS);
  const { values, positionals: files, problems } = parseFlags(argv, spec, { positionals: MERGE_FILES_LIMIT });
  const help = values.help === true;
  // --from-logs FILE: results printed between marker lines on a log (kubectl logs; docs/merge.md).
  const fromLogs = [].concat(values['from-logs'] ?? []).filter((file) => typeof file === 'string');
  if (files.length < 2 && !fromLogs.length && !help) {
    problems.push('merge needs two or more results files: node test merge A.json B.json... (or --from-logs FILE)');
  }
  const out = (name) => (typeof values[name] === 'string' ? values[name] : undefined);
  const [json, csv, html] = [out('json'), out('csv'), out('html')];
  const htmlWhy = htmlProblem(html);
  if (htmlWhy) problems.push(htmlWhy);
  if (csv === '-') problems.push('--csv needs a file name ("-" is only for --json)');
  for (const [flag, file] of [['--json', json], ['--csv', csv], ['--html', html]]) {
    if (file !== undefined && files.includes(file)) {
      problems.push(`${flag} ${file} is one of the files to merge: it would be overwritten`);
    }
  }
  return { command: 'merge', help, options: { files, json, csv, html, fromLogs }, problems };
}
