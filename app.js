#!/usr/bin/env node
// The benchmark target. Run: argv -> cli/app.js (flags, what it prints, the signals) -> the app
// (app/: startApp) -> the exit code. Imported, this file only exports the app's factory, so
// tests listen on port 0.
//
//   node app.js [--port N] [--host H] [--stores a,b] [--no-embedded] [--log]
import { main } from './cli/app.js';
import { isMain } from './util/is-main.js';

export { createApp } from './app/create-app.js';
export { startApp } from './app/start-app.js';

// process.exit, not exitCode: a stop past its deadline may still hold sockets open.
if (isMain(import.meta.url)) process.exit(await main(process.argv.slice(2)));
