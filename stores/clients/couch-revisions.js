// Writes over the current revision, for the three CouchDB clients. A single write reads the revision
// from the document (a HEAD's ETag lacks it on some compatible servers); a bulk write asks _all_docs
// for every revision, then sends one _bulk_docs. Writes of one key take turns (couch-turns.js); a 409
// is retried over the fresh revision with a jittered pause, within a share of the operation deadline:
// still conflicting then is 409 WRITE_CONFLICT, never a 503 (docs/stores.md).
import { ValueTooLargeError, WriteConflictError } from '../../util/errors.js';
import { docIdOf, toDocument } from './couch-values.js';
import { lastWriteWins } from '../bulk.js';
import { defaults } from '../../config/settings.js';
import { documentQueues } from './couch-turns.js';

const CONFLICT_RETRIES = {
  maxAttempts: 25,
  // The rest of the deadline is left for the attempt under way: a write still conflicting is
  // answered 409 before the deadline's 503.
  budgetShare: 0.6,
  firstPauseMs: 2,
  maxPauseMs: 100,
};

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// "Full jitter": writers that conflicted together do not all come back together.
const pauseBefore = (attempt, { firstPauseMs, maxPauseMs }) =>
  Math.random() * Math.min(maxPauseMs, firstPauseMs * 2 ** attempt);

const tooLarge = (bytes, cause) => new ValueTooLargeError(`the CouchDB server refused a document of ${bytes.length} ` +
  'bytes as too large (its max_document_size; Cloudant\'s is 1 MB)', { cause });

// What every write shares: its turn among the writes of its key, the retries of a 409 within
// the budget, the current revision (none for a missing document), and a 413 told as too large.
function conflictRetries({ readRev, statusOf }, { opTimeoutMs, retries }) {
  const policy = { ...CONFLICT_RETRIES, ...retries };
  const budgetMs = opTimeoutMs * policy.budgetShare;
  const queues = documentQueues();
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
  const refusingSize = async (bytes, work) => {
    try {
      return await work();
    } catch (error) {
      throw statusOf(error) === 413 ? tooLarge(bytes, error) : error;
    }
  };
  return { untilLanded, inTurn, currentRev, refusingSize };
}

// Over the current revision (seeding twice must not fail either).
async function setOverRevision({ put, statusOf }, { untilLanded, inTurn, currentRev, refusingSize }, key, bytes) {
  const started = Date.now();
  const docId = docIdOf(key);
  const body = toDocument(bytes);
  return inTurn(docId, 'the write', started, async (handed) => {
    let known = handed;
    let made;
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
}

async function deleteRevision({ remove, statusOf }, { untilLanded, inTurn, currentRev }, key) {
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
}

// One _bulk_docs over the revisions _all_docs gives, again for the documents that conflicted. A
// deleted document has no revision to give: it is written anew.
async function bulkOverRevisions({ fetchRevs, bulk }, { untilLanded, refusingSize }, entries) {
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
}

// client: readRev(docId), put(document) -> rev, remove(docId, rev), fetchRevs(docIds) (_all_docs),
// bulk(documents) (_bulk_docs), statusOf(error).
export function revisionedWrites(client, { opTimeoutMs = defaults.opTimeoutMs, retries = CONFLICT_RETRIES } = {}) {
  const shared = conflictRetries(client, { opTimeoutMs, retries });
  return {
    set: (key, bytes) => setOverRevision(client, shared, key, bytes),
    delete: (key) => deleteRevision(client, shared, key),
    setMany: (entries) => bulkOverRevisions(client, shared, entries),
  };
}
