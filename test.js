#!/usr/bin/env node
// node test: the benchmark driver's command line (the name the studies and the mission give it; the
// test suite is npm test, in test/). argv -> cli/test.js (flags, the subcommands, printing) -> the
// library (driver/, report/, result/) -> the exit code.
import { main } from './cli/test.js';

// process.exit, not exitCode: a step cut short by Ctrl-C leaves loadtest's own timers running,
// which would keep the process alive after the report is out.
process.exit(await main(process.argv.slice(2)));
