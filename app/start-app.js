// The app, running: its settings resolved (config/precedence.js), its stores opened, the
// Express app listening, and a graceful close.
import { createServer } from 'node:http';
import { createApp } from './create-app.js';
import { openStores } from '../stores/index.js';
import { resolveSettings } from '../config/precedence.js';
import { settings as declared } from '../config/settings.js';
import { UsageError } from '../util/errors.js';

const SHUTDOWN_GRACE_MS = 8000;

/**
 * Opens the stores, builds the app, listens. Every setting not passed here comes from env,
 * Cloud Foundry or its default (config/settings.js): port, host, stores, embedded, logRequests
 * for the app; maxValueSize, maxBulkSize, writeToken for its write routes; store URLs, cloudantApikey, postgresPoolSize, ... for the stores.
 *
 * @param {object} [options]  explicit settings by key, e.g. { port: 0, stores: ['memory'], redisUrl }
 * @param {object} [options.env]  the environment (default process.env)
 * @param {(line: string) => void} [options.log]
 * @returns {Promise<{ url, port, server, stores, close }>}  rejects with a UsageError
 *   listing every malformed setting. close() stops accepting, lets in-flight requests finish
 *   (up to a grace period), closes the stores and stops every server the embedded default started.
 */
export async function startApp({ env = process.env, log = () => {}, ...options } = {}) {
  const unknown = Object.keys(options).filter((key) => !declared[key]);
  if (unknown.length) throw new TypeError(`startApp: unknown option ${unknown.join(', ')} (settings are named in config/settings.js)`);
  const { settings, problems } = resolveSettings({ options, env }, ['app', 'writes']);
  if (problems.length) throw new UsageError(problems);

  const stores = await openStores({ names: settings.stores, env, options, embedded: settings.embedded });
  const { maxValueSize, maxBulkSize, writeToken: token } = settings;
  const server = createServer(createApp(stores, { log, logRequests: settings.logRequests, writes: { maxValueSize, maxBulkSize, token } }));
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.port, settings.host, resolve);
  }).catch(async (error) => {
    await stores.close();
    throw error;
  });
  server.keepAliveTimeout = 65_000; // longer than common load balancers' idle timeouts
  const address = server.address();
  const { host } = settings;
  const shownHost = !host || host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${address.port}`;

  let closing;
  const close = () => (closing ??= (async () => {
    const drained = new Promise((resolve) => server.close(resolve));
    server.closeIdleConnections();
    // A keep-alive connection whose request was in flight goes idle when it is answered;
    // close it then, or it would hold the exit until the grace period ends.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    const forced = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
    await drained;
    clearInterval(sweep);
    clearTimeout(forced);
    await stores.close();
  })());
  return { url, port: address.port, server, stores, close };
}
