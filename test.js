#!/usr/bin/env node
// node test: the benchmark driver's command line. argv -> cli/test.js (flags, the subcommands, printing)
// -> the library (driver/, report/, result/) -> the exit code.
import './cli/test.js';
