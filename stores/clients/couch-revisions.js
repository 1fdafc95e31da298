// Writes to a CouchDB-compatible server over the current revision, shared by the three
// CouchDB clients (cloudant, cloudant-legacy, couchdb-nano). A single write reads the
// revision from the document itself (a HEAD's ETag carries it on CouchDB and Cloudant but not
// on every compatible server); a bulk write asks _all_docs for every revision at once, then
// sends one _bulk_docs. Keys become document ids and values documents through couch-values.js.
import { ValueTooLargeError } from '../../util/errors.js';
import { docIdOf, toDocument } from './couch-values.js';
import { lastWriteWins } from '../bulk.js';

// _bulk_docs conflicts (another writer got in between) are retried with fresh revisions this often.
const BULK_ATTEMPTS = 3;

const tooLarge = (bytes, cause) =>
  new ValueTooLargeError(`the CouchDB server refused a document of ${bytes.length} bytes as too large (its max_document_size; Cloudant's is 1 MB)`, { cause });

/**
 * @param {object} client  the client's primitives:
 *   readRev(docId) -> the document's _rev (rejects with a 404 when there is none)
 *   put(document) -> writes it (rejects with a 409 on a conflict)
 *   remove(docId, rev) -> deletes that revision
 *   fetchRevs(docIds) -> POST _all_docs {keys}: its rows ({ id, value: { rev, deleted? } } or { key, error })
 *   bulk(documents) -> POST _bulk_docs: one result per document ({ id, rev } or { id, error, reason })
 *   statusOf(error) -> the HTTP status in the client's error
 * @returns {{ set(key, bytes), delete(key), setMany(entries) }} for the store contract
 */
export function revisionedWrites({ readRev, put, remove, fetchRevs, bulk, statusOf }) {
  const currentRev = async (docId) => {
    try {
      return await readRev(docId);
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  };
  // One request's worth of documents; a 413 for the whole request is a refusal of its size.
  const refusingSize = async (bytes, work) => {
    try {
      return await work();
    } catch (error) {
      throw statusOf(error) === 413 ? tooLarge(bytes, error) : error;
    }
  };

  return {
    async set(key, bytes) {
      const docId = docIdOf(key);
      const body = toDocument(bytes);
      // Seeding twice must not fail: write over the current revision, and retry once if
      // another writer got in between (409).
      for (let attempt = 0; ; attempt++) {
        const rev = await currentRev(docId);
        try {
          await refusingSize(bytes, () => put({ ...body, _id: docId, ...(rev ? { _rev: rev } : {}) }));
          return;
        } catch (error) {
          if (statusOf(error) !== 409 || attempt > 0) throw error;
        }
      }
    },
    async delete(key) {
      const docId = docIdOf(key);
      const rev = await currentRev(docId);
      if (!rev) return;
      try {
        await remove(docId, rev);
      } catch (error) {
        if (statusOf(error) !== 404) throw error; // deleted by someone else meanwhile
      }
    },
    // _all_docs for the current revisions (a deleted document has none to give: it is written
    // anew), _bulk_docs for the writes; the documents that conflicted go round again.
    async setMany(entries) {
      // Each id once: two documents with one id in a _bulk_docs request conflict with each other.
      let pending = lastWriteWins(entries).map(([key, bytes]) => ({ id: docIdOf(key), bytes, body: toDocument(bytes) }));
      for (let attempt = 1; pending.length; attempt++) {
        const rows = await fetchRevs(pending.map((write) => write.id));
        const revs = new Map(rows.filter((row) => row.value && !row.value.deleted).map((row) => [row.id, row.value.rev]));
        const size = pending.reduce((sum, write) => sum + write.bytes.length, 0);
        const results = await refusingSize({ length: size }, () =>
          bulk(pending.map(({ id, body }) => ({ ...body, _id: id, ...(revs.has(id) ? { _rev: revs.get(id) } : {}) }))));
        const failed = new Map(results.filter((result) => result.error).map((result) => [result.id, result]));
        const conflicted = pending.filter((write) => failed.get(write.id)?.error === 'conflict');
        const other = pending.find((write) => failed.has(write.id) && failed.get(write.id).error !== 'conflict');
        if (other) {
          const { error, reason } = failed.get(other.id);
          if (/too_large/.test(error)) throw tooLarge(other.bytes);
          throw new Error(`_bulk_docs refused ${other.id}: ${error}${reason ? ` (${reason})` : ''}`);
        }
        if (conflicted.length && attempt === BULK_ATTEMPTS) {
          throw new Error(`_bulk_docs: ${conflicted.length} documents still conflicted after ${BULK_ATTEMPTS} attempts (other writers)`);
        }
        pending = conflicted;
      }
    },
  };
}
