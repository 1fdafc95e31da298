// Cloudant (or any CouchDB) through @ibm-cloud/cloudant, IBM's maintained SDK.
// Documents are read as a byte stream and sent on with only _id/_rev cut out, so a
// request costs no JSON.parse/stringify of a 270 KB document.
import { couchAuth } from './couch-auth.js';
import { stripCouchFields } from './couch-document.js';

export const name = 'cloudant';
export const description = 'Cloudant / CouchDB through @ibm-cloud/cloudant (the maintained SDK)';
export const needs = ['couchdb'];

const isStatus = (error, status) => error?.status === status || error?.code === status;

export async function open({ couchdb }) {
  const { CloudantV1, BasicAuthenticator, IamAuthenticator } = await import('@ibm-cloud/cloudant');
  const { NoAuthAuthenticator } = await import('ibm-cloud-sdk-core');
  const { serviceUrl, auth } = couchAuth(couchdb);
  const authenticator =
    auth.type === 'iam' ? new IamAuthenticator({ apikey: auth.apikey, ...(auth.iamUrl ? { url: auth.iamUrl } : {}) })
    : auth.type === 'basic' ? new BasicAuthenticator({ username: auth.username, password: auth.password })
    : new NoAuthAuthenticator();
  const client = new CloudantV1({ authenticator, serviceUrl });
  client.setEnableGzipCompression(false); // the payloads are mostly base64 JPEG: gzip buys little and costs CPU
  const db = couchdb.database ?? 'storebench';

  try {
    await client.putDatabase({ db });
  } catch (error) {
    if (!isStatus(error, 412)) throw error; // 412: it exists already
  }

  // Writes are rare (seeding), so read the revision from the document itself: a HEAD's
  // ETag carries it on CouchDB and Cloudant but not on every compatible server.
  const currentRev = async (docId) => {
    try {
      return (await client.getDocument({ db, docId })).result._rev;
    } catch (error) {
      if (isStatus(error, 404)) return undefined;
      throw error;
    }
  };

  return {
    async get(docId) {
      let response;
      try {
        response = await client.getDocumentAsStream({ db, docId });
      } catch (error) {
        if (isStatus(error, 404)) return null;
        throw error;
      }
      const chunks = [];
      for await (const chunk of response.result) chunks.push(chunk);
      return stripCouchFields(Buffer.concat(chunks));
    },
    async set(docId, bytes) {
      const body = JSON.parse(bytes);
      // Seeding twice must not fail: write over the current revision, and retry once if
      // another writer got in between (409).
      for (let attempt = 0; ; attempt++) {
        const rev = await currentRev(docId);
        try {
          await client.putDocument({ db, docId, document: { ...body, _id: docId, ...(rev ? { _rev: rev } : {}) } });
          return;
        } catch (error) {
          if (!isStatus(error, 409) || attempt > 0) throw error;
        }
      }
    },
    async delete(docId) {
      const rev = await currentRev(docId);
      if (!rev) return;
      try {
        await client.deleteDocument({ db, docId, rev });
      } catch (error) {
        if (!isStatus(error, 404)) throw error;
      }
    },
    async ping() {
      await client.headDatabase({ db });
    },
    async close() {},
  };
}
