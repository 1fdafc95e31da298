// node test --help: the run's usage text. Its options' lines come from options/table.js, written
// from the options' own limits and defaults, so the text cannot promise what the parser refuses.
import { OPTIONS, SECTIONS } from '../options/table.js';
import { REPORT_COMMANDS_HELP, REPORT_COMMANDS_USAGE } from './report-options.js';

const INDENT = ' '.repeat(25);

/** An option's label as --help shows it: `-c, --concurrency LIST`. */
export const optionLabel = (option) =>
  option.label ?? `${option.short ? `-${option.short}, ` : ''}--${option.flag}${option.arg ? ` ${option.arg}` : ''}`;

// A label longer than its column puts the help on the next line.
function optionLines(option) {
  const label = optionLabel(option);
  const [first, ...rest] = option.help;
  const head = label.length > 22 ? [`  ${label}`, INDENT + first] : [`  ${label.padEnd(22)} ${first}`];
  return [...head, ...rest.map((text) => INDENT + text), ...(option.note ?? []).map((text) => `  ${text}`)];
}

const sectionText = (id, { title, after = [] }) => [
  title,
  ...OPTIONS.filter((option) => option.section === id && option.label !== null).flatMap(optionLines),
  ...after,
].join('\n');

const OPTIONS_USAGE = Object.entries(SECTIONS).map(([id, section]) => sectionText(id, section)).join('\n\n');

export const usage = `Usage: node test [options]
${REPORT_COMMANDS_USAGE}

Sweeps concurrency against the storebench app (or any URLs) with loadtest and prints, per URL,
rps and latency measured per request with sub-millisecond precision, then a comparison and a
summary; it keeps the run in ./storebench-results/ (--no-save: not) and names the folder last.
${REPORT_COMMANDS_HELP}

With neither --url nor --target it starts app.js as a child process on a free port, sweeps every
store that is up x key1..key3, and stops it.

${OPTIONS_USAGE}

Exit codes: 0 done; 1 the run failed (target unreachable, bad /stores, app.js died, a store
named in --stores could not be swept or had a step with no success, a written value read back
different, a results file could not be written at the end) or the report's file cannot be
read; 2 bad flags, a --json/--csv file that cannot be written (checked before any load), a file
that is not a results file of this version, or files merge refuses (they differ in target,
workload or settings); 3 a --assert threshold was missed, or compare --fail-on-regression found
a regression; 130 interrupted (Ctrl-C: the finished steps are still printed and written).`;
