// The top level of a command-line entry point: a known failure prints one line per problem with its
// exit code; a bug one redacted line and exit 1. No stack trace unless STOREBENCH_DEBUG=1.
import { StorebenchError, UsageError, exitCodeOf } from './errors.js';
import { redactText } from './redact.js';
import { printable } from './printable.js';

export function reportFailure(name, error, { stderr = process.stderr, env = process.env } = {}) {
  // A message may quote what a target sent (its reasons, its body): printable, one line each.
  const line = (text) => stderr.write(`${name}: ${printable(redactText(text))}\n`);
  if (error instanceof UsageError) {
    for (const problem of error.problems) line(problem);
    stderr.write(`Run ${name} --help for usage.\n`);
  } else if (error instanceof StorebenchError) {
    for (const text of error.message.split('\n')) line(text);
  } else {
    const message = String(error?.message ?? error).split('\n')[0];
    line(`unexpected error: ${message}${env.STOREBENCH_DEBUG ? '' : ' (STOREBENCH_DEBUG=1 shows where)'}`);
    if (env.STOREBENCH_DEBUG && error?.stack) {
      stderr.write(`${redactText(error.stack).split('\n').map(printable).join('\n')}\n`);
    }
  }
  return exitCodeOf(error);
}

export function exitOnUncaught(name) {
  const die = (error) => {
    process.exitCode = reportFailure(name, error);
    process.exit();
  };
  process.on('uncaughtException', die);
  process.on('unhandledRejection', die);
}
