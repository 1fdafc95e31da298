// Writes to a CouchDB-compatible server over the current revision, shared by the three
// CouchDB clients (cloudant, cloudant-legacy, couchdb-nano). Writes are rare (seeding), so
// the revision is read from the document itself: a HEAD's ETag carries it on CouchDB and
// Cloudant but not on every compatible server.

/**
 * @param {object} client  the client's primitives:
 *   readRev(docId) -> the document's _rev (rejects with a 404 when there is none)
 *   put(document) -> writes it (rejects with a 409 on a conflict)
 *   remove(docId, rev) -> deletes that revision
 *   statusOf(error) -> the HTTP status in the client's error
 * @returns {{ set(docId, bytes), delete(docId) }} for the store contract
 */
export function revisionedWrites({ readRev, put, remove, statusOf }) {
  const currentRev = async (docId) => {
    try {
      return await readRev(docId);
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  };
  return {
    async set(docId, bytes) {
      const body = JSON.parse(bytes);
      // Seeding twice must not fail: write over the current revision, and retry once if
      // another writer got in between (409).
      for (let attempt = 0; ; attempt++) {
        const rev = await currentRev(docId);
        try {
          await put({ ...body, _id: docId, ...(rev ? { _rev: rev } : {}) });
          return;
        } catch (error) {
          if (statusOf(error) !== 409 || attempt > 0) throw error;
        }
      }
    },
    async delete(docId) {
      const rev = await currentRev(docId);
      if (!rev) return;
      try {
        await remove(docId, rev);
      } catch (error) {
        if (statusOf(error) !== 404) throw error; // deleted by someone else meanwhile
      }
    },
  };
}
