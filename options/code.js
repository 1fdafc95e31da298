// The flags of `node test` that run() (index.js) refuses: they write a file, print, serve or
// start processes, which the library leaves to its caller. docs/api.md lists them; index.d.ts's
// RunOptions holds every other flag (test/unit/run-options-types.test.js keeps the two apart).

// Each name and why run() has no use for it, as the problem names it.
export const CLI_ONLY = Object.freeze({
  json: 'run() writes no file: it resolves to the Result (report(result, { format: \'json\' }) gives the file\'s text)',
  csv: 'run() writes no file: report(result, { format: \'csv\' }) gives the CSV text',
  html: 'run() writes no file: report(result, { format: \'html\' }) gives the page',
  hdrLog: 'run() writes no file: each step of the Result carries its latency histogram (step.histogram)',
  metricsPort: 'run() serves nothing: the onProgress hook sees each finished step',
  quiet: 'run() prints nothing: progress comes to the onProgress hook',
  verbose: 'run() prints nothing: report(result, { verbose: true }) gives the full text',
  noSave: 'run() writes no file: it resolves to the Result, which the caller keeps',
  help: 'is the command line\'s (docs/api.md describes run())',
  scenario: 'is the command line\'s (node test --scenario NAME); run() runs one sweep',
  scale: 'goes with --scenario, which is the command line\'s',
  cloudantPlan: 'goes with --scenario, which is the command line\'s',
  clientRtt: 'goes with --scenario, which is the command line\'s',
  clientBandwidth: 'goes with --scenario, which is the command line\'s',
  counter: 'goes with --scenario, which is the command line\'s',
  verdicts: 'goes with --scenario, which is the command line\'s',
  parts: 'is the command line\'s (node test --parts N --local starts the parts as processes); ' +
    'run() runs one part with part and startAt',
  local: 'goes with --parts, which is the command line\'s',
});

// The commands normalizeOptions names that run() answers: a run, or a problem for the others.
const RUN_COMMANDS = new Set(['run', 'list', 'scenario']);

/**
 * Every problem run() has with `options` beyond normalizeOptions' own: the CLI-only names
 * given, and a command it cannot do (one added to normalizeOptions later is refused, not
 * quietly run as one sweep).
 */
export function codeOptionProblems(options, command) {
  const given = Object.keys(CLI_ONLY).filter((name) => options[name] !== undefined);
  const problems = given.map((name) => `${name}: ${CLI_ONLY[name]}`);
  if (command === 'list') {
    problems.push('workload "list" lists the workloads (node test --workload list): run() needs one to run');
  }
  if (!RUN_COMMANDS.has(command) && !given.length) problems.push(`run() cannot do the command line's "${command}"`);
  return problems;
}
