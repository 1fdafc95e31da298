// Writes to a CouchDB-compatible server over the current revision, shared by the three
// CouchDB clients (cloudant, cloudant-legacy, couchdb-nano). A single write reads the
// revision from the document itself (a HEAD's ETag carries it on CouchDB and Cloudant but not
// on every compatible server); a bulk write asks _all_docs for every revision at once, then
// sends one _bulk_docs. Keys become document ids and values documents through couch-values.js.
//
// A write is last-writer-wins. The writes of one key from this process take turns
// (couch-turns.js), each over the revision the one before made; a 409 (a writer elsewhere, or a
// bulk write, got in between) is no outage, and is retried over the fresh revision until it
// lands, with a growing, jittered pause so that writers contending for one document spread
// out. Everything is decided within a share of the operation deadline: a write whose turn has
// not come by then, or still conflicting then, is 409 WRITE_CONFLICT, never a 503, and nothing
// more of it is sent. Only an attempt already sent and unanswered at the deadline is a 503, and
// it may still land (docs/stores.md).
import { ValueTooLargeError, WriteConflictError } from '../../util/errors.js';
import { docIdOf, toDocument } from './couch-values.js';
import { lastWriteWins } from '../bulk.js';
import { defaults } from '../../config/settings.js';
import { documentQueues } from './couch-turns.js';

export const CONFLICT_RETRIES = {
  maxAttempts: 25,
  // Of the operation deadline (STOREBENCH_OP_TIMEOUT_MS): the rest is left for the attempt
  // under way, so that a write still conflicting is answered 409 before the deadline's 503.
  budgetShare: 0.6,
  firstPauseMs: 2,
  maxPauseMs: 100,
};

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// "Full jitter" (a random pause between 0 and an exponentially growing cap): writers that
// conflicted together do not all come back together.
const pauseBefore = (attempt, { firstPauseMs, maxPauseMs }) =>
  Math.random() * Math.min(maxPauseMs, firstPauseMs * 2 ** attempt);

const tooLarge = (bytes, cause) => new ValueTooLargeError(`the CouchDB server refused a document of ${bytes.length} ` +
  'bytes as too large (its max_document_size; Cloudant\'s is 1 MB)', { cause });

/**
 * @param {object} client  the client's primitives:
 *   readRev(docId) -> the document's _rev (rejects with a 404 when there is none)
 *   put(document) -> writes it, resolving to the revision it made (rejects with a 409 on a conflict)
 *   remove(docId, rev) -> deletes that revision
 *   fetchRevs(docIds) -> POST _all_docs {keys}: its rows ({ id, value: { rev, deleted? } } or { key, error })
 *   bulk(documents) -> POST _bulk_docs: one result per document ({ id, rev } or { id, error, reason })
 *   statusOf(error) -> the HTTP status in the client's error
 * @param {{ opTimeoutMs?: number, retries?: object }} [options]  the operation deadline the
 *   conflict retries must end within, and the retry policy (CONFLICT_RETRIES)
 * @returns {{ set(key, bytes), delete(key), setMany(entries) }} for the store contract
 */
export function revisionedWrites(
  { readRev, put, remove, fetchRevs, bulk, statusOf },
  { opTimeoutMs = defaults.opTimeoutMs, retries = CONFLICT_RETRIES } = {},
) {
  const policy = { ...CONFLICT_RETRIES, ...retries };
  const budgetMs = opTimeoutMs * policy.budgetShare;
  const queues = documentQueues();
  // Runs attempt() until it returns true (landed); false means it conflicted, and is tried
  // again after a pause, while attempts and time (from `started`, the call) remain; then
  // WriteConflictError saying what().
  const untilLanded = async (what, started, attempt) => {
    for (let n = 0; ; n++) {
      if (await attempt(n)) return;
      const pause = pauseBefore(n, policy);
      if (n + 1 >= policy.maxAttempts || Date.now() - started + pause >= budgetMs) {
        throw new WriteConflictError(`${what()} kept conflicting with other writers ` +
          `(${n + 1} attempt${n ? 's' : ''} in ${Date.now() - started} ms, CouchDB revision conflicts); send it again`);
      }
      await sleep(pause);
    }
  };
  // write(handed) in the document's turn, decided within the budget from `started`.
  const inTurn = (docId, what, started, write) => queues.turn(docId, {
    giveUpAt: started + budgetMs,
    stuckMs: opTimeoutMs,
    notRun: () => new WriteConflictError(`${what} waited ${Date.now() - started} ms for the writes of this key ` +
      `ahead of it (${Math.round(policy.budgetShare * 100)}% of the ${opTimeoutMs} ms operation deadline) and was ` +
      'not sent; send it again'),
  }, write);
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
      const started = Date.now();
      const docId = docIdOf(key);
      const body = toDocument(bytes);
      return inTurn(docId, 'the write', started, async (handed) => {
        let known = handed;
        let made;
        // Over the current revision (seeding twice must not fail either).
        await untilLanded(() => 'the write', started, async () => {
          const rev = known ? known.rev : await currentRev(docId);
          known = null; // after a conflict, read it afresh
          try {
            made = await refusingSize(bytes, () => put({ ...body, _id: docId, ...(rev ? { _rev: rev } : {}) }));
            return true;
          } catch (error) {
            if (statusOf(error) === 409) return false;
            throw error;
          }
        });
        return typeof made === 'string' ? { rev: made } : null;
      }).then(() => {});
    },
    async delete(key) {
      const started = Date.now();
      const docId = docIdOf(key);
      await inTurn(docId, 'the delete', started, async (handed) => {
        let known = handed;
        await untilLanded(() => 'the delete', started, async () => {
          const rev = known ? known.rev : await currentRev(docId);
          known = null;
          if (!rev) return true;
          try {
            await remove(docId, rev);
            return true;
          } catch (error) {
            if (statusOf(error) === 404) return true; // deleted by someone else meanwhile
            if (statusOf(error) === 409) return false; // written by someone else meanwhile
            throw error;
          }
        });
        return null; // the next write reads what a delete leaves
      });
    },
    // _all_docs for the current revisions (a deleted document has none to give: it is written
    // anew), _bulk_docs for the writes; the documents that conflicted go round again.
    async setMany(entries) {
      // Each id once: two documents with one id in a _bulk_docs request conflict with each other.
      let pending = lastWriteWins(entries)
        .map(([key, bytes]) => ({ id: docIdOf(key), bytes, body: toDocument(bytes) }));
      const count = pending.length;
      const started = Date.now();
      await untilLanded(() => `the bulk write (${pending.length} of its ${count} documents)`, started, async () => {
        const rows = await fetchRevs(pending.map((write) => write.id));
        const revs = new Map(rows
          .filter((row) => row.value && !row.value.deleted)
          .map((row) => [row.id, row.value.rev]));
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
        pending = conflicted;
        return !pending.length;
      });
    },
  };
}
