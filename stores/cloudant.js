// Cloudant (or any CouchDB) through @ibm-cloud/cloudant, IBM's maintained SDK. Documents are read as a
// byte stream with only _id/_rev cut out: no JSON.parse/stringify of a 270 KB document.
import { couchAuth, fetchIamToken } from './clients/couch-auth.js';
import { stripCouchFields } from './clients/couch-document.js';
import { revisionedWrites } from './clients/couch-revisions.js';
import { docIdOf, fromDocument } from './clients/couch-values.js';
import { withRateLimitRetry } from './clients/couch-rate-retry.js';
import { defaults } from '../config/settings.js';

export const name = 'cloudant';
export const description = 'Cloudant / CouchDB through @ibm-cloud/cloudant (the maintained SDK)';
export const pipelining = {
  pipelines: false,
  reason: 'an HTTP/1.1 client: one request at a time on each connection, so N calls at once take N connections',
};
export const needs = ['couchdb'];
export const writes = { append: false, bulk: 'native', hash: false };

const statusOf = (error) => error?.status ?? error?.code;

export async function open({ couchdb }, {
  couchdbDatabase = defaults.couchdbDatabase, cloudantIamUrl = defaults.cloudantIamUrl, opTimeoutMs,
} = {}) {
  const { CloudantV1, BasicAuthenticator, IamAuthenticator } = await import('@ibm-cloud/cloudant');
  const { NoAuthAuthenticator } = await import('ibm-cloud-sdk-core');
  const { serviceUrl, auth } = couchAuth(couchdb);
  const iamUrl = auth.iamUrl ?? cloudantIamUrl;
  const authenticators = {
    iam: () => new IamAuthenticator({ apikey: auth.apikey, url: iamUrl }),
    basic: () => new BasicAuthenticator({ username: auth.username, password: auth.password }),
    none: () => new NoAuthAuthenticator(),
  };
  const authenticator = (authenticators[auth.type] ?? authenticators.none)();
  // Fetched here so that a failure says it was IAM; the client reuses it.
  if (auth.type === 'iam') await fetchIamToken(authenticator.tokenManager, iamUrl);
  const client = new CloudantV1({ authenticator, serviceUrl });
  client.setEnableGzipCompression(false); // the payloads are mostly base64 JPEG: gzip buys little and costs CPU
  const db = couchdbDatabase;

  try {
    await client.putDatabase({ db });
  } catch (error) {
    if (statusOf(error) !== 412) throw error; // 412: it exists already
  }

  const revisioned = revisionedWrites({
    readRev: async (docId) => (await client.getDocument({ db, docId })).result._rev,
    put: async (document) => (await client.putDocument({ db, docId: document._id, document })).result.rev,
    remove: (docId, rev) => client.deleteDocument({ db, docId, rev }),
    fetchRevs: async (keys) => (await client.postAllDocs({ db, keys })).result.rows,
    bulk: async (docs) => (await client.postBulkDocs({ db, bulkDocs: { docs } })).result,
    statusOf,
  }, { opTimeoutMs });

  return withRateLimitRetry({
    async get(key) {
      let response;
      try {
        response = await client.getDocumentAsStream({ db, docId: docIdOf(key) });
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw error;
      }
      const chunks = [];
      for await (const chunk of response.result) chunks.push(chunk);
      return fromDocument(stripCouchFields(Buffer.concat(chunks)));
    },
    ...revisioned,
    async ping() {
      await client.headDatabase({ db });
    },
    async close() {},
  }, statusOf);
}
