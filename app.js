#!/usr/bin/env node
// The benchmark target, run: flags -> startApp -> what it opened -> a graceful stop on
// SIGTERM/SIGINT, and the exit code. The app itself is in app/; imported, this file only
// exports its factory, so tests listen on port 0.
//
//   node app.js [--port N] [--host H] [--stores a,b] [--no-embedded] [--log]
import { parseAppArgs, usage } from './app/options.js';
import { listeningLine, startApp } from './app/start-app.js';
import { UsageError } from './util/errors.js';
import { isMain } from './util/is-main.js';
import { redactText } from './util/redact.js';

export { createApp } from './app/create-app.js';
export { startApp };

function usageFailure(problems) {
  for (const problem of problems) console.error(`app.js: ${problem}`);
  console.error('Run node app.js --help for usage.');
  process.exit(2);
}

/** "  redis            up (embedded: redis://127.0.0.1:35977)", or unavailable with the reason. */
function storeLine(store) {
  const where = Object.values(store.servers).join(', ');
  return `  ${store.name.padEnd(16)} ${store.status}${store.reason ? `: ${store.reason}` : where ? ` (${where})` : ''}`;
}

async function main() {
  const { help, options, problems } = parseAppArgs(process.argv.slice(2));
  if (help) return console.log(usage);
  if (problems.length) usageFailure(problems);

  // Each line is made of parts masked where they came from (a server's display URL, a reason):
  // masking the whole line again would rewrite a route in the request log.
  const log = (line) => console.log(line);
  let app;
  try {
    // Servers may take seconds to start (PostgreSQL, a Redis Cluster): say so, then each
    // server started here and each store as it is ready.
    console.log(`storebench app: opening stores${options.embedded === false ? '' : ' (and starting local servers for those with nothing configured)'}...`);
    const onServerReady = (server) => server.source === 'embedded' && log(`  ${server.service} server started here: ${server.display}`);
    app = await startApp({ ...options, log, onServerReady, onStoreOpened: (store) => log(storeLine(store)) });
  } catch (error) {
    if (error instanceof UsageError) usageFailure(error.problems);
    const reason = error.code === 'EADDRINUSE' ? `port ${error.port} is already in use (try --port 0 or PORT=...)` : redactText(error.message);
    console.error(`app.js: cannot start: ${reason}`);
    process.exit(1);
  }

  let stopping = false;
  const stop = (signal) => {
    // A repeated signal must not kill us mid-close: stores may still be flushing (redis+postgres).
    if (stopping) return console.log(`${signal}: already shutting down`);
    stopping = true;
    console.log(`${signal}: finishing in-flight requests, closing stores`);
    const deadline = setTimeout(() => process.exit(1), 10_000);
    deadline.unref();
    app.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // A driver that started us as a child and went away takes us with it.
  process.once('disconnect', () => stop('parent gone'));
  // Only now, with the handlers in place: a supervisor may signal as soon as it reads this.
  log(listeningLine(app));
  process.send?.({ event: 'listening', url: app.url, port: app.port });
}

if (isMain(import.meta.url)) await main();
