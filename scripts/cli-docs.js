// docs/cli.md: node test's full reference, made from options/table.js (npm run docs:cli writes it;
// test/unit/options-table.test.js checks that it is up to date).
import { writeFile } from 'node:fs/promises';
import { OPTIONS, SECTIONS } from '../options/table.js';
import { optionLabel } from '../cli/run-usage.js';
import { isMain } from '../util/is-main.js';

export const CLI_DOC = new URL('../docs/cli.md', import.meta.url);

// What the first argument names instead of a run, and the run with no target named.
const COMMANDS = [
  {
    label: '*(neither `--url` nor `--target`)*',
    doc: '**Embedded default**: start `app.js --port 0` as a child process, sweep every store that is up x ' +
      'its keys, stop it.',
  },
  {
    label: '`report FILE.json`',
    doc: 'As the first argument: print the tables of a run saved with `--json FILE` (header, each URL\'s ' +
      'table, the skipped stores, the comparison, the thresholds), exactly as that run printed them, ' +
      'and run nothing. `--html OUT` writes the page instead; `--assert EXPR` checks these thresholds ' +
      'instead of the run\'s own (exit 3 when one is missed).',
  },
  {
    label: '`k8s ... --parts N`',
    doc: 'As the first argument: print a Kubernetes Indexed Job whose pods are the N parts ' +
      '(`JOB_COMPLETION_INDEX` → `--part`), one `--start-at` (default `+120s`), `--image`, `--cpu`, ' +
      '`--memory`; results come back on the pods\' logs: `node test merge --from-logs FILE`.',
  },
  {
    label: '`merge A.json B.json...`',
    doc: 'As the first argument: add up runs that drivers on several machines made at the same time ' +
      'against one target. Per step, histograms added, counts summed, rps over the machines\' ' +
      'load-weighted mean wallSeconds, each machine\'s row (its `system.hostname`) printed beside the ' +
      'total; `--json`, `--csv`, `--html OUT` write the merged run (`merged` names the files). Files ' +
      'whose target, workload, settings or steps differ are refused, naming the field (exit **2**), as ' +
      'are one run given twice and `--direct` runs that did not all reach one shared server; steps ' +
      'whose time windows do not overlap get a `NO_OVERLAP` warning. See [docs/merge.md](merge.md) ' +
      'for Kubernetes Jobs and `cf run-task`.',
  },
  {
    label: '`compare A.json B.json`',
    doc: 'As the first argument: for each step both runs have (same store, key and load level), rps, mean, ' +
      'p50 and p99 of A and B and the change in %, marked *within noise* when the repeats\' ranges ' +
      'overlap; steps only one run has are listed. `--fail-on-regression PCT` exits **3** when an rps ' +
      'fell or a p99 rose by more than PCT %, naming beside each regression the ' +
      '`CPU_STEAL`/`BUSY_MACHINE` warnings its step carried in B; `--ignore-busy` does not fail on ' +
      'those (they are still shown, as not counted). Why a busy machine does not excuse a regression by ' +
      'default: [docs/measurement.md](measurement.md#a-busy-machine-in-node-test-compare). A file ' +
      'compared with itself (or a copy) is said to be one run: `identical runs`.',
  },
];

// What bad flags, unreachable targets and missed thresholds do.
const OUTCOMES = [
  'A -c or --rps list holds at most 100 values. Bad flags are all reported at once and exit **2**',
  '(`node test: -c/--concurrency: "x" is not a positive whole number`, `node test: --timeout must',
  'be at most 600,000 ms, not "3000000000"`); so do `--stores`/`--keys` names the target does not',
  'have, and a `--json`/`--csv` file that cannot be written (`node test: --json README.md/out.json:',
  'README.md is a file, not a folder`), found before any load. A target that cannot be reached, a',
  '`/stores` that is not JSON, or an app that will not start print one line and exit **1**; so does',
  'an embedded app that dies mid-sweep, after printing and writing the steps finished until then,',
  'and a store named with `--stores` that could not be swept, after the other stores were swept,',
  'printed and written (`node test: redis is unavailable, so it was not swept: no REDIS_URL and no',
  'redis-server on PATH; ...`), and a store whose written values read back different from what it',
  'acknowledged, after every table (`node test: redis: 3 of 1000 written values read back different',
  'from what it acknowledged (listed under its table)`; memcached, which may evict, only warns).',
  'Bad workload flags exit **2** before any request, one line each (`node test: --workload',
  'mixed:120/5: R and W are whole percentages of reads and updates adding up to 100, as in',
  'mixed:95/5`). A store that refuses writes (`401`, `403`, `405`, `413`) shows them as errors by kind. ' +
    'No failure prints a stack trace: an unexpected one is a single line',
  '(`STOREBENCH_DEBUG=1` adds the stack). `node test report` exits **1** when it cannot read the',
  'file and **2** when the file is not JSON, not a results file, or of another format version, with',
  'one line saying which. **Ctrl-C** stops the load, prints the tables of the finished steps, writes',
  'the `--json` file with `"interrupted": true` and the `--csv` file with `true` in its last column,',
  '`interrupted`, stops the app and exits **130**.',
  'A run whose `--assert` thresholds were missed prints and writes everything, then exits **3**',
  '(one line per missed threshold); so does `node test compare --fail-on-regression` with a',
  'regression. Every code: [docs/errors.md](errors.md).',
  'Credentials in a `--target`/`--url` URL are sent as basic auth and shown as `***` everywhere.',
].join('\n');

const cell = (text) => text.replaceAll('|', '\\|');
const heading = (title) => title.replace(/ \(docs\/.*$/, '').replace(/:$/, '');
const shownDefault = (option) => {
  if (option.docDefault !== undefined) return option.docDefault;
  if (option.default === undefined) return '';
  return `\`${[].concat(option.default).join(',')}\``;
};
const capitalized = (text) => text[0].toUpperCase() + text.slice(1);
const meaning = (option) => option.doc ?? capitalized(`${option.help.join(' ')}.`.replace(/\.\.$/, '.'));
const row = (...cells) => `| ${cells.map(cell).join(' | ')} |`.replaceAll('|  |', '| |');
const optionLabelDoc = (option) => optionLabel(option).replace(/^(-\w), (--\S+)(.*)$/, '`$1`, `$2$3`')
  .replace(/^(--[^`]*)$/, '`$1`');

/** docs/cli.md's text. */
export function cliDoc() {
  const sections = Object.entries(SECTIONS).map(([id, { title }]) => [
    `### ${heading(title)}`,
    '',
    '| flag | default | meaning |',
    '| --- | --- | --- |',
    ...OPTIONS.filter((option) => option.section === id)
      .map((option) => row(optionLabelDoc(option), shownDefault(option), meaning(option))),
  ].join('\n'));
  return [
    '# node test: the command line',
    '',
    '<!-- Made from options/table.js by npm run docs:cli: edit the table, not this file. -->',
    '',
    '`node test [options]` sweeps the stores (or any URLs); the first argument may instead name a',
    'command. `node test --help` prints the same options in short.',
    '',
    '## Commands',
    '',
    '| command | | meaning |',
    '| --- | --- | --- |',
    ...COMMANDS.map(({ label, doc }) => row(label, '', doc)),
    '',
    '## Options',
    '',
    sections.join('\n\n'),
    '',
    '## Problems and exit codes',
    '',
    OUTCOMES,
    '',
  ].join('\n');
}

if (isMain(import.meta.url)) await writeFile(CLI_DOC, cliDoc());
