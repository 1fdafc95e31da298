// The embedded CouchDB-compatible server: express-pouchdb over in-memory PouchDB, run as a
// child process so its event loop never competes with the app's. It listens on a free
// loopback port, reports the port to the parent over IPC, and exits when the parent goes.
'use strict';
const http = require('node:http');
const PouchDB = require('pouchdb-core')
  .plugin(require('pouchdb-adapter-memory'))
  .plugin(require('pouchdb-mapreduce'))
  .plugin(require('pouchdb-replication'))
  .defaults({ adapter: 'memory' });
const expressPouchDB = require('express-pouchdb');

const app = expressPouchDB(PouchDB, {
  mode: 'minimumForPouchDB',
  inMemoryConfig: true, // never write config or logs into the working directory
  logPath: require('node:os').devNull,
});
const server = http.createServer(app);
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.COUCH_PORT || 0), '127.0.0.1', () => {
  const { port } = server.address();
  if (process.send) process.send({ event: 'listening', port });
  else console.log(`embedded CouchDB-compatible server on http://127.0.0.1:${port}`);
});
// The parent closing the IPC channel (exit, crash, kill -9) ends us: no orphans.
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
