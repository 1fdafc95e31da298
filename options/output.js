// Where a run's figures go, from its options (options/table/output.js): --json, --csv, -q,
// --verbose and --no-save (the reports' options are run-report.js's). Problems pushed.

/** { json, csv, quiet, verbose, save }. */
export function outputOptions({ text }, values, problems) {
  const json = text('json');
  const csv = text('csv');
  if (csv === '-') problems.push('--csv needs a file name ("-" is only for --json)');
  return { json, csv, quiet: Boolean(values.quiet), verbose: values.verbose === true, save: values.noSave !== true };
}
