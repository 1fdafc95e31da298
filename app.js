// The benchmark target: config -> stores -> Express app -> listen, and a graceful stop.
//
//   node app.js [--port N] [--host H] [--stores a,b] [--no-embedded] [--log]
//
// Run directly it listens and stops cleanly on SIGTERM/SIGINT; imported, it exports the
// app factory, so tests listen on port 0.
import express from 'express';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { openStores, storeNames, unknownStoreProblems } from './stores/index.js';
import { settings } from './config/settings.js';
import { pageRoutes } from './routes/page.js';
import { statusRoutes } from './routes/status.js';
import { dataRoutes } from './routes/data.js';
import { notFound, errorHandler } from './routes/errors.js';
import { isMain } from './util/is-main.js';
import { redactText } from './util/redact.js';
import { cloudFoundryApp } from './config/cf-env.js';

const SHUTDOWN_GRACE_MS = 8000;

/** The Express app serving stores. Pure: it does not listen. */
export function createApp(stores, { log = () => {}, logRequests = false } = {}) {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag'); // hashing every 270 KB body would be benchmarked along with the store
  if (logRequests) app.use(requestLogger(log));
  app.use(pageRoutes(stores));
  app.use(statusRoutes(stores));
  app.use(dataRoutes(stores));
  app.use(notFound);
  app.use(errorHandler(log));
  return app;
}

function requestLogger(log) {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      log(`${req.method} ${req.originalUrl} ${res.statusCode} ${ms.toFixed(2)} ms`);
    });
    next();
  };
}

/**
 * Opens the stores, builds the app, listens. Resolves to { url, port, server, stores, close }.
 * close() stops accepting, lets in-flight requests finish (up to a grace period), closes the
 * stores and stops every server the embedded default started.
 */
export async function startApp({ port = 0, host, names, env = process.env, embedded = true, log = () => {}, logRequests = false } = {}) {
  const stores = await openStores({ names, env, embedded });
  const app = createApp(stores, { log, logRequests });
  const server = createServer(app);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  }).catch(async (error) => {
    await stores.close();
    throw error;
  });
  server.keepAliveTimeout = 65_000; // longer than common load balancers' idle timeouts
  const address = server.address();
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

const usage = `Usage: node app.js [options]

Serves GET /<store>/<key> for the benchmark driver, plus / (index page), /stores and /healthz.

Options:
  --port N         port to listen on (default: $PORT, else Cloud Foundry's, else 3000; 0 picks a free one)
  --host H         address to bind (default: $HOST, else all interfaces; 0.0.0.0 on Cloud Foundry)
  --stores LIST    comma-separated stores to open (default: all: ${storeNames.join(', ')})
  --no-embedded    never start local servers; stores without a configured URL are unavailable
  --log            log every request (off by default: logging distorts benchmarks; or STOREBENCH_LOG=1)
  -h, --help       show this help

Configuration: ${Object.values(settings).filter((setting) => ['service', 'store'].includes(setting.scope)).flatMap((setting) => setting.env).join(', ')},
or services bound on Cloud Foundry (VCAP_SERVICES). See README.md.`;

export function parseAppArgs(argv, env = process.env) {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      stores: { type: 'string' },
      'no-embedded': { type: 'boolean' },
      log: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  const problems = [];
  const cloudFoundry = cloudFoundryApp(env); // null off Cloud Foundry: nothing changes there
  const portText = values.port ?? (cloudFoundry ? String(cloudFoundry.port) : env.PORT ?? '3000');
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535) problems.push(`--port must be a whole number from 0 to 65535, not "${portText}"`);
  const names = values.stores?.split(',').map((name) => name.trim()).filter(Boolean);
  problems.push(...unknownStoreProblems(names));
  return {
    help: Boolean(values.help),
    problems,
    options: {
      port,
      // The platform's router reaches the container over IPv4.
      host: values.host ?? env.HOST ?? (cloudFoundry ? '0.0.0.0' : undefined),
      names,
      embedded: !values['no-embedded'],
      logRequests: Boolean(values.log) || /^(1|true|yes)$/i.test(env.STOREBENCH_LOG ?? ''),
    },
  };
}

async function main() {
  let parsed;
  try {
    parsed = parseAppArgs(process.argv.slice(2));
  } catch (error) {
    parsed = { problems: [error.message] };
  }
  if (parsed.help) return console.log(usage);
  if (parsed.problems.length) {
    for (const problem of parsed.problems) console.error(`app.js: ${problem}`);
    console.error('Run node app.js --help for usage.');
    process.exit(2);
  }
  const log = (line) => console.log(line);
  let app;
  try {
    app = await startApp({ ...parsed.options, log });
  } catch (error) {
    const reason = error.code === 'EADDRINUSE' ? `port ${parsed.options.port} is already in use (try --port 0 or PORT=...)` : redactText(error.message);
    console.error(`app.js: cannot start: ${reason}`);
    process.exit(1);
  }
  for (const store of await app.stores.status()) {
    const where = Object.values(store.servers).join(', ');
    console.log(`  ${store.name.padEnd(16)} ${store.status}${store.reason ? `: ${store.reason}` : where ? ` (${where})` : ''}`);
  }
  console.log(`storebench app listening on ${app.url}`);
  process.send?.({ event: 'listening', url: app.url, port: app.port });

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
}

if (isMain(import.meta.url)) await main();
