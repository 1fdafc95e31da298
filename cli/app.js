// node app.js: the app's command line, with a line per server and store, the listening line and
// a graceful stop on SIGTERM/SIGINT. main resolves to the exit code.
import { parseAppArgs, usage } from './app-options.js';
import { startApp } from '../app/start-app.js';
import { listeningLine } from '../app/listen.js';
import { UsageError } from '../util/errors.js';
import { redactText } from '../util/redact.js';

// How long a stop may take (in-flight requests, stores flushing) before the app exits 1 anyway.
const STOP_DEADLINE_MS = 10_000;

function usageFailure(problems) {
  for (const problem of problems) console.error(`app.js: ${problem}`);
  console.error('Run node app.js --help for usage.');
  return 2;
}

function storeLine(store) {
  const where = Object.values(store.servers).join(', ');
  const detail = store.reason ? `: ${store.reason}` : where ? ` (${where})` : '';
  return `  ${store.name.padEnd(16)} ${store.status}${detail}`;
}

/** Runs the app until a signal stops it: 0 clean stop, 1 failed start or unclean stop, 2 bad flags. */
export async function main(argv) {
  const { help, options, problems } = parseAppArgs(argv);
  if (help) {
    console.log(usage);
    return 0;
  }
  if (problems.length) return usageFailure(problems);

  // Each line is made of parts masked where they came from (a server's display URL, a reason):
  // masking the whole line again would rewrite a route in the request log.
  const log = (line) => console.log(line);
  let app;
  try {
    const starting = options.embedded === false
      ? ''
      : ' (and starting local servers for those with nothing configured)';
    console.log(`storebench app: opening stores${starting}...`);
    const onServerReady = (server) => {
      if (server.source === 'embedded') log(`  ${server.service} server started here: ${server.display}`);
    };
    app = await startApp({ ...options, log, onServerReady, onStoreOpened: (store) => log(storeLine(store)) });
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(error.problems);
    const reason = error.code === 'EADDRINUSE'
      ? `port ${error.port} is already in use (try --port 0 or PORT=...)`
      : redactText(error.message);
    console.error(`app.js: cannot start: ${reason}`);
    return 1;
  }

  return new Promise((resolve) => {
    let stopping = false;
    // failed: the app stops because part of it failed (a worker died), so it exits 1 however it closes.
    const stop = (signal, { failed = false } = {}) => {
      // A repeated signal must not kill us mid-close: stores may still be flushing (redis+postgres).
      if (stopping) return console.log(`${signal}: already shutting down`);
      stopping = true;
      console.log(`${signal}: finishing in-flight requests, closing stores`);
      const deadline = setTimeout(() => resolve(1), STOP_DEADLINE_MS);
      app.close().then(() => 0, (error) => {
        if (error?.message) console.error(`app.js: did not stop cleanly: ${redactText(error.message)}`);
        return 1;
      }).then((code) => {
        clearTimeout(deadline);
        resolve(failed ? 1 : code);
      });
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    // A driver that started us as a child and went away takes us with it.
    process.once('disconnect', () => stop('parent gone'));
    // --workers N: a worker that dies is not replaced (app/cluster-primary.js says why).
    app.lost?.then((line) => {
      console.error(`app.js: ${line}: stopping the app`);
      stop('worker lost', { failed: true });
    });
    // Only now, with the handlers in place: a supervisor may signal as soon as it reads this.
    const workers = app.workers > 1 ? ` (${app.workers} workers: pids ${app.pids.join(', ')})` : '';
    const { frameworks } = app;
    const named = frameworks.length > 1 || frameworks[0].framework !== 'express';
    for (const place of frameworks) log(`${listeningLine(place, named ? place.framework : undefined)}${workers}`);
    process.send?.({
      event: 'listening',
      url: app.url,
      port: app.port,
      workers: app.workers,
      pids: app.pids,
      frameworks: frameworks.map(({ framework, url, port }) => ({ framework, url, port })),
    });
  });
}
