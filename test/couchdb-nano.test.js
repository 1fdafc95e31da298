import { after, before } from 'node:test';
import * as couchdbNano from '../stores/couchdb-nano.js';
import { startCouchServer } from '../stores/embedded/couchdb.js';
import { storeConformance } from './helpers/store-conformance.js';

// nano against the embedded CouchDB-compatible server, over HTTP.
let server;
before(async () => { server = await startCouchServer(); });
after(() => server?.stop());

storeConformance(couchdbNano, async () => ({ couchdb: { url: server.url, source: 'test', database: 'conformance' } }), { jsonOnly: true });
