#!/usr/bin/env node
// node test: sweep concurrency against the storebench app (or any URLs) and print honest
// rps and latency tables; node test report FILE.json prints a saved run's tables again.
// The work is in driver/ (measuring) and report/ (printing and files); this file parses
// flags, connects the two and maps the outcome to an exit code.
import { parseArguments, usage } from './driver/options.js';
import { resultError, runBenchmark } from './driver/run.js';
import { createLiveReport } from './report/live.js';
import { readResults } from './report/format.js';
import { renderRun } from './report/run-text.js';
import { ERROR_CODES, StorebenchError, UsageError, exitCodeOf } from './util/errors.js';
import { redactText } from './util/redact.js';

const { command, help, options, problems } = parseArguments(process.argv.slice(2));
if (help) {
  console.log(usage);
  process.exit(0);
}
const usageFailure = (list) => {
  for (const problem of list) console.error(`node test: ${problem}`);
  console.error('Run node test --help for usage.');
  process.exit(ERROR_CODES.USAGE.exit);
};
if (problems.length) usageFailure(problems);
// One line for a known failure (a stack only for a bug), and its exit code.
const fail = (error) => {
  if (error instanceof UsageError) usageFailure(error.problems);
  console.error(`node test: ${redactText(error instanceof StorebenchError ? error.message : error.stack)}`);
  process.exitCode = exitCodeOf(error);
};

if (command === 'report') {
  try {
    process.stdout.write(renderRun(await readResults(options.file)));
  } catch (error) {
    fail(error);
  }
  process.exit(process.exitCode ?? 0);
}

// First Ctrl-C: finish cleanly (print what is done, write the files, stop the app). Second: now.
const controller = new AbortController();
process.on('SIGINT', () => {
  if (controller.signal.aborted) process.exit(ERROR_CODES.INTERRUPTED.exit);
  process.stderr.write('\ninterrupted: writing the steps finished so far (Ctrl-C again to quit at once)\n');
  controller.abort();
});

const live = createLiveReport({ options });
try {
  const result = await runBenchmark(options, { signal: controller.signal, onProgress: live.onProgress });
  await live.finish(result);
  const failure = resultError(result);
  if (failure) fail(failure);
  else process.exitCode = result.interrupted ? ERROR_CODES.INTERRUPTED.exit : 0;
} catch (error) {
  fail(error);
} finally {
  live.close();
}
// Sockets loadtest left behind must not keep the process alive once the report is out.
process.exit(process.exitCode);
