// The store methods over a nano-style CouchDB client: nano itself (couchdb-nano) and the
// nano 8 inside @cloudant/cloudant (cloudant-legacy) have the same calls. A document is read
// as raw bytes (request with dontParse) and sent on with only _id/_rev cut out.
import { stripCouchFields } from './couch-document.js';

const isStatus = (error, status) => error?.statusCode === status;

/** Creates the database db if missing; returns get/set/delete/ping/close over it. */
export async function nanoStyleStore(client, db, { close = async () => {} } = {}) {
  try {
    await client.db.create(db);
  } catch (error) {
    if (!isStatus(error, 412)) throw error; // 412: it exists already
  }
  const documents = client.use(db);

  // Writes are rare (seeding): read the revision from the document, as stores/cloudant.js does.
  const currentRev = async (docId) => {
    try {
      return (await documents.get(docId))._rev;
    } catch (error) {
      if (isStatus(error, 404)) return undefined;
      throw error;
    }
  };

  return {
    async get(docId) {
      let bytes;
      try {
        // encoding: null is for the request library under nano 8; nano 11 returns a Buffer as is.
        bytes = await client.request({ db, doc: docId, dontParse: true, encoding: null });
      } catch (error) {
        if (isStatus(error, 404)) return null;
        throw error;
      }
      return stripCouchFields(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes));
    },
    async set(docId, bytes) {
      const body = JSON.parse(bytes);
      // Seeding twice must not fail: write over the current revision, retry once on a 409.
      for (let attempt = 0; ; attempt++) {
        const rev = await currentRev(docId);
        try {
          await documents.insert({ ...body, _id: docId, ...(rev ? { _rev: rev } : {}) });
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
        await documents.destroy(docId, rev);
      } catch (error) {
        if (!isStatus(error, 404)) throw error;
      }
    },
    async ping() {
      await client.db.get(db);
    },
    close,
  };
}
