// The embedded CouchDB-compatible server: express-pouchdb over in-memory PouchDB, a child process so
// its event loop never competes with the app's. With COUCH_ADMIN_USER and COUCH_ADMIN_PASSWORD it
// requires credentials, as CouchDB 3 with require_valid_user does (express-pouchdb alone lets
// anonymous requests through).
'use strict';
const http = require('node:http');
const PouchDB = require('pouchdb-core')
  .plugin(require('pouchdb-adapter-memory'))
  .plugin(require('pouchdb-mapreduce'))
  .plugin(require('pouchdb-replication'))
  .defaults({ adapter: 'memory' });
const expressPouchDB = require('express-pouchdb');
const { withRateLimits } = require('./couch-rate-limit.cjs');

const { COUCH_ADMIN_USER: adminUser, COUCH_ADMIN_PASSWORD: adminPassword } = process.env;
const requireUser = Boolean(adminUser && adminPassword);

const app = expressPouchDB(PouchDB, {
  mode: 'minimumForPouchDB',
  // fullCouchDB's authentication alone, with the config and log machinery it needs
  ...(requireUser
    ? { overrideMode: { include: ['config-infrastructure', 'logging-infrastructure', 'routes/authentication'] } }
    : {}),
  inMemoryConfig: true, // never write config or logs into the working directory
  logPath: require('node:os').devNull,
});

// Basic credentials are required here; express-pouchdb then checks them (401 when wrong).
const hasBasicCredentials = (header = '') => {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
  return Boolean(match) && Buffer.from(match[1], 'base64').toString().includes(':');
};
const handler = requireUser
  ? (req, res) => {
      if (hasBasicCredentials(req.headers.authorization)) return app(req, res);
      res.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Basic realm="server"' });
      res.end(JSON.stringify({ error: 'unauthorized', reason: 'Authentication required.' }));
    }
  : app;

const listen = () => {
  const server = http.createServer(withRateLimits(handler, process.env.COUCH_RATE_PLAN));
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    if (process.send) process.send({ event: 'listening', port });
    else console.log(`embedded CouchDB-compatible server on http://127.0.0.1:${port}`);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
};

if (requireUser) app.couchConfig.set('admins', adminUser, adminPassword, listen);
else listen();
// The parent closing the IPC channel (exit, crash, kill -9) ends us: no orphans.
process.on('disconnect', () => process.exit(0));
