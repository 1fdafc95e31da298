// node test: sweep concurrency against the storebench app (or any URLs) and print honest
// rps and latency tables. The work is in driver/ and report/; this file parses flags and maps exit codes.
import { parseArguments, usage } from './driver/options.js';
import { runDriver } from './driver/run.js';
import { RunError, UsageError } from './util/errors.js';
import { redactText } from './util/redact.js';

const { help, options, problems } = parseArguments(process.argv.slice(2));
if (help) {
  console.log(usage);
  process.exit(0);
}
const usageFailure = (list) => {
  for (const problem of list) console.error(`node test: ${problem}`);
  console.error('Run node test --help for usage.');
  process.exit(2);
};
if (problems.length) usageFailure(problems);

// First Ctrl-C: finish cleanly (print what is done, write the files, stop the app). Second: now.
const controller = new AbortController();
process.on('SIGINT', () => {
  if (controller.signal.aborted) process.exit(130);
  process.stderr.write('\ninterrupted: writing the steps finished so far (Ctrl-C again to quit at once)\n');
  controller.abort();
});

try {
  process.exitCode = await runDriver(options, { signal: controller.signal });
} catch (error) {
  if (error instanceof UsageError) usageFailure(error.problems);
  console.error(`node test: ${redactText(error instanceof RunError ? error.message : error.stack)}`);
  process.exitCode = 1;
}
// Sockets loadtest left behind must not keep the process alive once the report is out.
process.exit(process.exitCode);
