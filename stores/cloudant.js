// Cloudant (or any CouchDB) through @ibm-cloud/cloudant, IBM's maintained SDK.
// Documents are read as a byte stream and sent on with only _id/_rev cut out, so a
// request costs no JSON.parse/stringify of a 270 KB document.
import { couchAuth } from './clients/couch-auth.js';
import { stripCouchFields } from './clients/couch-document.js';
import { revisionedWrites } from './clients/couch-revisions.js';
import { defaults } from '../config/settings.js';

export const name = 'cloudant';
export const description = 'Cloudant / CouchDB through @ibm-cloud/cloudant (the maintained SDK)';
export const needs = ['couchdb'];

const statusOf = (error) => error?.status ?? error?.code;

/** @param {{ couchdbDatabase?: string }} [settings]  the database (resolved: CLOUDANT_DB, default storebench) */
export async function open({ couchdb }, { couchdbDatabase = defaults.couchdbDatabase } = {}) {
  const { CloudantV1, BasicAuthenticator, IamAuthenticator } = await import('@ibm-cloud/cloudant');
  const { NoAuthAuthenticator } = await import('ibm-cloud-sdk-core');
  const { serviceUrl, auth } = couchAuth(couchdb);
  const authenticators = {
    iam: () => new IamAuthenticator({ apikey: auth.apikey, ...(auth.iamUrl ? { url: auth.iamUrl } : {}) }),
    basic: () => new BasicAuthenticator({ username: auth.username, password: auth.password }),
    none: () => new NoAuthAuthenticator(),
  };
  const authenticator = (authenticators[auth.type] ?? authenticators.none)();
  const client = new CloudantV1({ authenticator, serviceUrl });
  client.setEnableGzipCompression(false); // the payloads are mostly base64 JPEG: gzip buys little and costs CPU
  const db = couchdbDatabase;

  try {
    await client.putDatabase({ db });
  } catch (error) {
    if (statusOf(error) !== 412) throw error; // 412: it exists already
  }

  const writes = revisionedWrites({
    readRev: async (docId) => (await client.getDocument({ db, docId })).result._rev,
    put: (document) => client.putDocument({ db, docId: document._id, document }),
    remove: (docId, rev) => client.deleteDocument({ db, docId, rev }),
    statusOf,
  });

  return {
    async get(docId) {
      let response;
      try {
        response = await client.getDocumentAsStream({ db, docId });
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw error;
      }
      const chunks = [];
      for await (const chunk of response.result) chunks.push(chunk);
      return stripCouchFields(Buffer.concat(chunks));
    },
    ...writes,
    async ping() {
      await client.headDatabase({ db });
    },
    async close() {},
  };
}
