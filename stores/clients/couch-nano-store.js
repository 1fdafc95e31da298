// The store methods over a nano-style CouchDB client (couchdb-nano, and nano 8 inside @cloudant/cloudant).
// A document is read as raw bytes (dontParse) and sent on with only _id/_rev cut out.
import { stripCouchFields } from './couch-document.js';
import { revisionedWrites } from './couch-revisions.js';
import { docIdOf, fromDocument } from './couch-values.js';
import { withRateLimitRetry } from './couch-rate-retry.js';

const statusOf = (error) => error?.statusCode;

export async function nanoStyleStore(client, db, { opTimeoutMs } = {}) {
  try {
    await client.db.create(db);
  } catch (error) {
    if (statusOf(error) !== 412) throw error; // 412: it exists already
  }
  const documents = client.use(db);

  const revisioned = revisionedWrites({
    readRev: async (docId) => (await documents.get(docId))._rev,
    put: async (document) => (await documents.insert(document)).rev,
    remove: (docId, rev) => documents.destroy(docId, rev),
    fetchRevs: async (docIds) => (await documents.fetchRevs({ keys: docIds })).rows,
    bulk: (docs) => documents.bulk({ docs }),
    statusOf,
  }, { opTimeoutMs });

  return withRateLimitRetry({
    async get(key) {
      let bytes;
      try {
        // nano leaves an id unencoded when it contains _design or _local: the key alphabet is URL-safe
        // and the k: prefix keeps it from being a dot segment. encoding: null is for nano 8's request.
        bytes = await client.request({ db, doc: docIdOf(key), dontParse: true, encoding: null });
      } catch (error) {
        if (statusOf(error) === 404) return null;
        throw error;
      }
      return fromDocument(stripCouchFields(Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes)));
    },
    ...revisioned,
    async ping() {
      await client.db.get(db);
    },
    async close() {},
  }, statusOf);
}
