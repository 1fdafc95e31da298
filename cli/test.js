// node test: sweep concurrency against the storebench app (or any URLs) and print honest
// rps and latency tables; node test report FILE.json prints a saved run's tables again.
// The work is in driver/ (measuring) and report/ (printing and files); this file parses
// flags, connects the two and maps the outcome to an exit code.
import { parseArguments, usage } from '../cli/options.js';
import { resultError, runBenchmark } from '../driver/run.js';
import { createLiveReport } from '../report/live.js';
import { checkOutputPaths } from '../report/results.js';
import { compareCommand, mergeCommand, reportCommand } from '../report/commands.js';
import { checkThresholds, thresholdsError } from '../report/assert.js';
import { parseThresholds } from '../result/thresholds.js';
import { renderWorkloadList } from './workload-list.js';
import { scenarioCommand } from './scenario-command.js';
import { partsCommand } from './parts-command.js';
import { ERROR_CODES, UsageError } from '../util/errors.js';
import { exitOnUncaught, reportFailure } from '../util/cli.js';
import { startRunMetrics, METRICS_LINGER_MS } from '../driver/run-metrics.js';

const NAME = 'node test';
exitOnUncaught(NAME);
// One line per problem (a stack only with STOREBENCH_DEBUG=1), then its exit code.
const exitWith = (error) => process.exit(reportFailure(NAME, error));

const { command, help, options, problems } = parseArguments(process.argv.slice(2));
if (help) {
  console.log(usage);
  process.exit(0);
}
if (problems.length) exitWith(new UsageError(problems));

// node test k8s ...: an Indexed Job of the parts, printed (cli/k8s-job.js).
if (command === 'k8s') {
  const { jobManifest, toYaml } = await import('./k8s-job.js');
  process.stdout.write(toYaml(jobManifest(options)));
  process.exit(0);
}

if (command === 'list') {
  process.stdout.write(`${renderWorkloadList()}\n`);
  process.exit(0);
}

const REPORT_COMMANDS = { report: reportCommand, compare: compareCommand, merge: mergeCommand };
if (REPORT_COMMANDS[command]) {
  try {
    await REPORT_COMMANDS[command](options);
  } catch (error) {
    exitWith(error);
  }
  process.exit(0);
}

// Before any load: a results file that cannot be written is found now, not after the sweep.
try {
  await checkOutputPaths(options);
} catch (error) {
  exitWith(error);
}

// First Ctrl-C: finish cleanly (print what is done, write the files, stop the app). Second: now.
const controller = new AbortController();
process.on('SIGINT', () => {
  if (controller.signal.aborted) process.exit(ERROR_CODES.INTERRUPTED.exit);
  process.stderr.write('\ninterrupted: writing the steps finished so far (Ctrl-C again to quit at once)\n');
  controller.abort();
});

// node test --parts N --local: N driver processes, one start, merged.
if (command === 'parts') {
  try {
    await partsCommand(process.argv.slice(2), options, { signal: controller.signal });
    process.exit(0);
  } catch (error) {
    exitWith(error);
  }
}

// node test --scenario list | NAME
if (command === 'scenario') {
  try {
    const result = await scenarioCommand(options, { signal: controller.signal });
    process.exit(result?.interrupted ? ERROR_CODES.INTERRUPTED.exit : 0);
  } catch (error) {
    exitWith(error);
  }
}

const live = createLiveReport({ options });
let code = 0;
let metrics = null;
try {
  metrics = options.metricsPort === undefined ? null : await startRunMetrics(options.metricsPort);
  if (metrics) process.stderr.write(`metrics: ${metrics.url}\n`);
  const onProgress = metrics ? (event) => { metrics.onProgress(event); live.onProgress(event); } : live.onProgress;
  const result = await runBenchmark(options, { signal: controller.signal, onProgress });
  if (metrics) {
    metrics.onResult(result);
    await metrics.lastScrape(METRICS_LINGER_MS);
  }
  const failures = [];
  try {
    await live.finish(result);
  } catch (error) {
    failures.push(error);
  }
  const failure = resultError(result);
  if (failure) failures.push(failure);
  // --assert: a missed threshold exits 3 (its table is printed with the run's text), unless
  // the run failed in a way that exits otherwise.
  const missed = thresholdsError(checkThresholds(result, parseThresholds(options.assert).thresholds));
  if (missed && !failures.length && !result.interrupted) failures.push(missed);
  for (const error of failures) code = reportFailure(NAME, error);
  if (!failures.length && result.interrupted) code = ERROR_CODES.INTERRUPTED.exit;
} catch (error) {
  code = reportFailure(NAME, error);
} finally {
  live.close();
  await metrics?.close();
}
// Sockets loadtest left behind must not keep the process alive once the report is out.
process.exit(code);
