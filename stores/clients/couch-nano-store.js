// The store methods over a nano-style CouchDB client: nano itself (couchdb-nano) and the
// nano 8 inside @cloudant/cloudant (cloudant-legacy) have the same calls. A document is read
// as raw bytes (request with dontParse) and sent on with only _id/_rev cut out.
import { stripCouchFields } from './couch-document.js';
import { revisionedWrites } from './couch-revisions.js';

const statusOf = (error) => error?.statusCode;

/** Creates the database db if missing; returns get/set/delete/ping/close over it. */
export async function nanoStyleStore(client, db) {
  try {
    await client.db.create(db);
  } catch (error) {
    if (statusOf(error) !== 412) throw error; // 412: it exists already
  }
  const documents = client.use(db);

  const writes = revisionedWrites({
    readRev: async (docId) => (await documents.get(docId))._rev,
    put: (document) => documents.insert(document),
    remove: (docId, rev) => documents.destroy(docId, rev),
    statusOf,
  });

  return {
    async get(docId) {
      let bytes;
      try {
        // encoding: null is for the request library under nano 8; nano 11 returns a Buffer as is.
        bytes = await client.request({ db, doc: docId, dontParse: true, encoding: null });
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw error;
      }
      return stripCouchFields(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes));
    },
    ...writes,
    async ping() {
      await client.db.get(db);
    },
    // Both clients talk plain HTTP with no pooled state of their own to release.
    async close() {},
  };
}
