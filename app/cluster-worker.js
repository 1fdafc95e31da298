// One worker of app.js --workers N: the whole app, serving the connections the primary hands it (the
// primary owns the listener). It starts no server; whatever it must agree on with the other workers
// goes through the primary.
import { startApp } from './start-app.js';
import { messenger } from './cluster-messages.js';
import { redactText } from '../util/redact.js';

// For waits that end when the other workers get there: no deadline of their own.
const UNTIL_ANSWERED = { timeout: 0 };

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
  let address = null;
  let listenerClosed;
  const primaryClosedListener = new Promise((resolve) => { listenerClosed = resolve; });
  primary.handle('listening', ({ bound }) => { address = bound; });
  primary.handle('listener-closed', () => listenerClosed());
  primary.handle('seed-deleted', ({ store, key }) => stores?.markSeedDeleted(store, key));
  primary.handle('metrics-json', () => registry?.getMetricsAsJSON() ?? []);
  const worker = {
    workers,
    services,
    async opening(store) {
      const { first } = await primary.ask('opening', { store }, UNTIL_ANSWERED);
      return { first, done: (ok) => first && primary.tell('opened', { store, ok }) };
    },
    deletingSeed: (store, key) => primary.ask('deleting-seed', { store, key }),
    metricsOfAll: {
      adopt: (own) => { registry = own; },
      text: () => primary.ask('metrics'),
    },
    // Told after every connection the primary handed out: messages on one channel arrive in order.
    drain: { closeListener: () => primaryClosedListener },
    serve: (server) => {
      process.on('message', (message, socket) => {
        if (message?.storebench !== 'connection') return;
        // A handed-off socket skips the server's accept, where http.Server sets noDelay.
        if (socket) {
          socket.setNoDelay(true);
          server.emit('connection', socket);
        }
        primary.tell('accepted');
      });
      // The address it is reached at is the primary's listener's (routes/write-guard.js reads it).
      server.address = () => address;
      // Node starts checking connections against the headers and request deadlines on 'listening'
      // (http.Server's setupConnectionsTracking): a server fed its connections must say so itself.
      server.emit('listening');
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
