// node test: sweep concurrency against the storebench app (or any URLs) and print honest rps and
// latency tables. main resolves to the exit code.
import { optionsOf, parseArguments, usage } from './options.js';
import { check, failure as runFailureOf, run } from '../index.js';
import { CLI_ONLY } from '../options/code.js';
import { createLiveReport } from './live-report.js';
import { checkOutputPaths } from './results-files.js';
import { compareCommand, mergeCommand, reportCommand, runsCommand } from './report-commands.js';
import { renderWorkloadList } from './workload-list.js';
import { scenarioCommand } from './scenario-command.js';
import { partsCommand } from './parts-command.js';
import { ERROR_CODES, UsageError } from '../util/errors.js';
import { exitOnUncaught, reportFailure } from '../util/cli.js';
import { startRunMetrics, METRICS_LINGER_MS } from '../driver/run-metrics.js';

const NAME = 'node test';
// One line per problem (a stack only with STOREBENCH_DEBUG=1); returns its exit code.
const failure = (error) => reportFailure(NAME, error);
const REPORT_COMMANDS = { report: reportCommand, compare: compareCommand, merge: mergeCommand, runs: runsCommand };
const libraryOptions = (argv) =>
  Object.fromEntries(Object.entries(optionsOf(argv).options).filter(([name]) => !(name in CLI_ONLY)));

/** node test with `argv` (without node and the script): resolves to the exit code. */
export async function main(argv) {
  exitOnUncaught(NAME);
  const { command, help, options, problems, notices = [] } = parseArguments(argv);
  if (help) {
    console.log(usage);
    return 0;
  }
  if (problems.length) return failure(new UsageError(problems));
  for (const notice of notices) process.stderr.write(`note: ${notice}\n`);

  if (command === 'k8s') {
    const { jobManifest, toYaml } = await import('./k8s-job.js');
    process.stdout.write(toYaml(jobManifest(options)));
    return 0;
  }

  if (command === 'list') {
    process.stdout.write(`${renderWorkloadList()}\n`);
    return 0;
  }

  if (REPORT_COMMANDS[command]) {
    try {
      await REPORT_COMMANDS[command](options);
      return 0;
    } catch (error) {
      return failure(error);
    }
  }

  // Before any load: a results file that cannot be written is found now, not after the sweep.
  try {
    await checkOutputPaths(options);
  } catch (error) {
    return failure(error);
  }

  // First Ctrl-C: finish cleanly (print what is done, write the files, stop the app). Second: now.
  const controller = new AbortController();
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(ERROR_CODES.INTERRUPTED.exit);
    process.stderr.write('\ninterrupted: writing the steps finished so far (Ctrl-C again to quit at once)\n');
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  try {
    return await runCommand(command, argv, options, controller.signal);
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}

async function runCommand(command, argv, options, signal) {
  if (command === 'parts') {
    try {
      await partsCommand(argv, options, { signal });
      return 0;
    } catch (error) {
      return failure(error);
    }
  }

  if (command === 'scenario') {
    try {
      const result = await scenarioCommand(options, { signal });
      return result?.interrupted ? ERROR_CODES.INTERRUPTED.exit : 0;
    } catch (error) {
      return failure(error);
    }
  }

  const live = createLiveReport({ options });
  let code = 0;
  let metrics = null;
  try {
    metrics = options.metricsPort === undefined ? null : await startRunMetrics(options.metricsPort);
    if (metrics) process.stderr.write(`metrics: ${metrics.url}\n`);
    const onProgress = (event) => {
      metrics?.onProgress(event);
      live.onProgress(event);
    };
    const result = await run(libraryOptions(argv), { signal, onProgress });
    if (metrics) {
      metrics.onResult(result);
      await metrics.lastScrape(METRICS_LINGER_MS);
    }
    const failures = [];
    const runFailure = runFailureOf(result);
    try {
      await live.finish(result, { failed: Boolean(runFailure) });
    } catch (error) {
      failures.push(error);
    }
    if (runFailure) failures.push(runFailure);
    // A missed threshold exits 3, unless the run failed in a way that exits otherwise.
    const missed = check(result, options.assert).error;
    if (missed && !failures.length && !result.interrupted) failures.push(missed);
    for (const error of failures) code = failure(error);
    if (!failures.length && result.interrupted) code = ERROR_CODES.INTERRUPTED.exit;
  } catch (error) {
    code = failure(error);
  } finally {
    live.close();
    await metrics?.close();
  }
  return code;
}
