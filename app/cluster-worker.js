// One worker of app.js --workers N: the whole app, serving the connections the primary hands it (the
// primary owns the listener). It starts no server; whatever it must agree on with the other workers
// goes through the primary.
import { startApp } from './start-app.js';
import { messenger } from './cluster-messages.js';
import { redactText } from '../util/redact.js';
import { StorebenchError } from '../util/errors.js';
import { createProfiler } from './profiler.js';

// For waits that end when the other workers get there: no deadline of their own.
const UNTIL_ANSWERED = { timeout: 0 };
// Every process's profile, a few MB in all, comes back through the primary.
const PROFILE_WAIT = { timeout: 60_000 };

// The primary's answer to a profile request, or the conflict it found, as the app answers one.
function conflicted(answer) {
  if (answer?.conflict) throw new StorebenchError(answer.conflict, { code: 'PROFILE_CONFLICT' });
  return answer?.processes;
}

// Runs this worker until the primary stops it; resolves to its exit code (0 clean, 1 otherwise).
export async function runWorker({ log = () => {} } = {}) {
  const primary = messenger(process);
  // The primary decides when every worker stops, together: a Ctrl-C reaches the whole process
  // group, and a worker gone at once would drop its in-flight requests.
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {});
  // Asked for, not waited for: a message sent before this process listens for it would be lost.
  const { env, options, services, workers } = await primary.ask('start', {}, UNTIL_ANSWERED);

  let stores;
  let registry;
  let addresses = {}; // framework -> the bound address of the primary's listener for it
  let listenerClosed;
  const primaryClosedListener = new Promise((resolve) => { listenerClosed = resolve; });
  primary.handle('listening', ({ bound }) => { addresses = bound; });
  primary.handle('listener-closed', () => listenerClosed());
  primary.handle('seed-deleted', ({ store, key }) => stores?.markSeedDeleted(store, key));
  primary.handle('metrics-json', () => registry?.getMetricsAsJSON() ?? []);
  // --allow-profiling: this worker's own part of a profile the primary takes of every process.
  const profiler = createProfiler({ role: 'worker' });
  primary.handle('profile-start-local', ({ intervalUs }) => profiler.start(intervalUs));
  primary.handle('profile-stop-local', () => profiler.stop());
  const worker = {
    workers,
    services,
    async opening(store) {
      const { first } = await primary.ask('opening', { store }, UNTIL_ANSWERED);
      return { first, done: (ok) => first && primary.tell('opened', { store, ok }) };
    },
    deletingSeed: (store, key) => primary.ask('deleting-seed', { store, key }),
    // A profile asked of this worker is of every process: the primary's and each worker's.
    profiling: {
      start: (intervalUs) => primary.ask('profile-start', { intervalUs }).then(conflicted),
      stop: () => primary.ask('profile-stop', {}, PROFILE_WAIT).then(conflicted),
    },
    metricsOfAll: {
      adopt: (own) => { registry = own; },
      text: () => primary.ask('metrics'),
    },
    // Told after every connection the primary handed out: messages on one channel arrive in order.
    drain: { closeListener: () => primaryClosedListener },
    // servers: framework -> its node:http server (app/start-app.js makes one for each).
    serve: (servers) => {
      process.on('message', (message, socket) => {
        if (message?.storebench !== 'connection') return;
        // A handed-off socket skips the server's accept, where http.Server sets noDelay.
        if (socket) {
          socket.setNoDelay(true);
          servers.get(message.framework)?.emit('connection', socket);
        }
        primary.tell('accepted');
      });
      for (const [framework, server] of servers) {
        // The address it is reached at is the primary's listener's (routes/write-guard.js reads it).
        server.address = () => addresses[framework] ?? null;
        // Node starts checking connections against the headers and request deadlines on 'listening'
        // (http.Server's setupConnectionsTracking): a server fed its connections must say so itself.
        server.emit('listening');
      }
      return {};
    },
    beforeListen: (opened) => {
      stores = opened;
      return primary.ask('ready', {}, UNTIL_ANSWERED);
    },
  };

  const stopAsked = new Promise((resolve) => primary.handle('stop', resolve));
  let app;
  try {
    app = await startApp({
      ...options,
      env,
      log,
      worker,
      onStoreOpened: (store) => primary.tell('store-opened', { store }),
    });
  } catch (error) {
    primary.tell('failed', { reason: redactText(error.message) });
    return 1;
  }
  primary.tell('serving');
  await stopAsked;
  return app.close().then(() => 0, (error) => {
    log(`app.js worker ${process.pid}: did not stop cleanly: ${redactText(error.message)}`);
    return 1;
  });
}
