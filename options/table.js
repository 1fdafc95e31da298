// The options of `node test`, one entry each: the flag and its short form, its type (a string
// flag's value name, `arg`), whether it repeats (`multiple`) or takes a comma-separated list
// (`list`), its bounds and default, the Result's `settings` key it becomes (null: none), and its
// --help lines. The argv spec (RUN_FLAGS), the usage text (cli/run-usage.js), docs/cli.md
// (scripts/cli-docs.js) and index.d.ts's RunOptions (test/unit/options-table.test.js) come from it.
// The entries are written by subject in table/, and listed here in --help's order.
import { TARGET_OPTIONS } from './table/targets.js';
import { LOAD_OPTIONS } from './table/load.js';
import { WORKLOAD_OPTIONS } from './table/workload.js';
import { OUTPUT_OPTIONS } from './table/output.js';
import { PARTS_OPTIONS } from './table/parts.js';
import { SCENARIO_OPTIONS } from './table/scenarios.js';

/** The --help sections, in order: a title, and lines after the section's options. */
export const SECTIONS = Object.freeze({
  targets: { title: 'Targets:' },
  storeNetwork: { title: 'Network between the stores and their servers (docs/configuration.md#network-emulation):' },
  load: { title: 'Load:' },
  workload: { title: 'Workload (docs/workloads.md):' },
  output: { title: 'Output:' },
  reports: { title: 'Reports:' },
  parts: { title: 'Several drivers, one run (docs/merge.md):' },
  scenarios: {
    title: 'Scenarios (docs/scenarios.md): the published studies, re-run here beside their figures',
    after: [
      '  --store-rtt MS, --store-jitter MS, --store-bandwidth SIZE',
      '                         the network between the app and its stores (STORE=value items too), for',
      '                         the scenarios over HTTP and in direct mode but cluster-vs-document.',
      '                         Default: none',
    ],
  },
});

// `label`: the usage line's own words where they are not the flag's (null: shown in another's).
// `note`: lines after the option's own, at the section's indent. A number's `parse` reads it, as
// code's number or the command line's text (null: not one), `what` names what it takes and `unit`
// follows its bounds in a problem. `number`: code may give this string option as a number too. `doc` and `docDefault`:
// docs/cli.md's fuller words (the help lines stand in where there are none).
const ENTRIES = [
  ...TARGET_OPTIONS, ...LOAD_OPTIONS, ...WORKLOAD_OPTIONS, ...OUTPUT_OPTIONS, ...PARTS_OPTIONS, ...SCENARIO_OPTIONS,
];

export const OPTIONS = Object.freeze(ENTRIES.map((entry) => Object.freeze(entry)));

export const camelCase = (flag) => flag.replace(/-([a-z])/g, (_, letter) => letter.toUpperCase());

/** The option named by its long flag in camelCase, as run() takes it ({ warmupMax: 5 }); an alias too. */
export const OPTION_NAMED = new Map(OPTIONS.flatMap((option) => [
  [camelCase(option.flag), option], ...(option.alias ? [[camelCase(option.alias), option]] : []),
]));

/** Whether code may give the option as a number (index.d.ts: `number | string`). */
export const takesNumber = (option) => Boolean(option.parse || option.number);

/** The default of the option named (camelCase), as the table gives it. */
export const defaultOf = (name) => OPTION_NAMED.get(name).default;

/** node:util parseArgs' spec of the run's flags, an old name (alias) beside its flag. */
export const RUN_FLAGS = Object.freeze(Object.fromEntries(OPTIONS.flatMap(({ flag, alias, short, type, multiple }) => {
  const spec = { type, ...(short ? { short } : {}), ...(multiple ? { multiple } : {}) };
  return [[flag, spec], ...(alias ? [[alias, { type, ...(multiple ? { multiple } : {}) }]] : [])];
})));

/** The parseArgs spec of the flags named. */
export const flagSpec = (...flags) => Object.fromEntries(flags.map((flag) => [flag, RUN_FLAGS[flag]]));
