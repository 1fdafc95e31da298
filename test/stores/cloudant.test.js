import { after, before } from 'node:test';
import * as cloudant from '../../stores/cloudant.js';
import { startCouchServer } from '../../embedded/couchdb.js';
import { storeConformance } from '../helpers/store-conformance.js';

// The real Cloudant SDK against the embedded CouchDB-compatible server, over HTTP.
let server;
before(async () => { server = await startCouchServer(); });
after(() => server?.stop());

storeConformance(
  cloudant,
  async () => ({ couchdb: { url: server.url, source: 'test' } }),
  { settings: { couchdbDatabase: 'conformance' } },
);
