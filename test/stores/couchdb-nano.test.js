import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as couchdbNano from '../../stores/couchdb-nano.js';
import { startCouchServer } from '../../embedded/couchdb.js';
import { storeConformance } from '../helpers/store-conformance.js';

// nano against the embedded CouchDB-compatible server, over HTTP.
let server;
before(async () => { server = await startCouchServer(); });
after(() => server?.stop());

storeConformance(
  couchdbNano,
  async () => ({ couchdb: { url: server.url, source: 'test' } }),
  { settings: { couchdbDatabase: 'conformance' } },
);

test('with a Cloudant IAM API key, couchdb-nano refuses to open and says why', async () => {
  await assert.rejects(
    couchdbNano.open({ couchdb: { url: server.url, source: 'test', apikey: 'not-a-real-key' } }),
    /nano cannot use a Cloudant IAM API key/,
  );
});
