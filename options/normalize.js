// A run's options, checked and completed as options/table.js says: pure, so it is unit-tested
// without spawning anything. One normalizer per subject, in this order (the order their problems
// are printed in); every problem is collected (not just the first); the CLI prints them all and
// exits 2.
import { randomSeed } from '../util/random.js';
import { QUICK } from './defaults.js';
import { givenValues, optionReaders } from './given.js';
import { parseScenarioFlags } from './scenario.js';
import { chosenStores, targetOptions, unmeasuredProblems } from './targets.js';
import { loadOptions, parseWorkers, workerInsertProblems } from './load.js';
import { outputOptions } from './output.js';
import { parseWorkloadFlags, valueOptions } from './workload.js';
import { appSideOptions, startedAppOptions } from './app-side.js';
import { runReportOptions } from './run-report.js';
import { parsePartFlags, partRunOptions } from './parts.js';
import { resultSettings } from './result-settings.js';

/**
 * A run's options from a plain object whose names are the long flags' in camelCase
 * ({ concurrency: [5, 10], requests: 200, stores: ['memory'], direct: true, warmup: 0 }), or the
 * command line's text for each (cli/options.js). Returns { command, help, options, problems, notices }
 * (notices: an old name used, said in one line each): the
 * options driver/run.js takes (frozen) and every problem, in the command line's words. command is 'run',
 * 'parts' (--parts N: the run split over N drivers), 'scenario' (a scenario was named) or 'list'
 * (workload: 'list').
 */
export function normalizeOptions(object = {}, env = process.env) {
  const problems = [];
  const notices = [];
  const values = givenValues(object, problems, notices);
  const help = values.help === true;
  const scenario = parseScenarioFlags(values, problems);
  if (scenario) return { command: 'scenario', help, options: Object.freeze(scenario), problems, notices };

  const read = optionReaders(values, problems);
  const targets = targetOptions(read, values, problems);
  const load = loadOptions(read, values, problems, targets);
  const { stores, keys } = chosenStores(values, problems, targets);
  const output = outputOptions(read, values, problems);
  const seed = read.single('seed') ?? randomSeed();
  const workload = parseWorkloadFlags(read, values, problems, { keys, seed });
  // --workload list runs nothing: the other options' problems do not matter.
  if (workload.list) return { command: 'list', help, options: Object.freeze({}), problems: [], notices };
  const workers = parseWorkers(values.threads, problems);
  const appSide = appSideOptions(values, problems, { ...targets, stores, workload: workload.options });
  const shape = valueOptions(read, values, problems, { ...targets, probe: load.probe, workload: workload.options });
  problems.push(...workerInsertProblems(workers, workload.options.workload));
  const quickKeys = values.quick === true && !targets.urls.length && !workload.options.keySpace;

  const options = {
    ...targets,
    ...load,
    stores,
    keys: keys ?? (quickKeys ? QUICK.keys : undefined),
    ...output,
    ...shape,
    ...workload.options,
    // One seed for the run: the order's shuffles and, with a key space, the workload's.
    seed,
    workers,
    ...appSide,
    ...startedAppOptions(read, values, problems, { ...targets, env }),
    ...runReportOptions(values, problems),
    ...parsePartFlags(values, problems, { seedGiven: values.seed !== undefined }),
  };
  problems.push(...unmeasuredProblems(options));
  const command = options.parts ? 'parts' : 'run';
  const runOptions = partRunOptions(options, problems);
  // The Result's settings, made once from the options, when they can run.
  const settings = problems.length ? {} : { settings: resultSettings(runOptions, env) };
  return { command, help, options: Object.freeze({ ...runOptions, ...settings }), problems, notices };
}
