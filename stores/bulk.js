// A bulk write as store calls: entries cut into chunks a server takes in one go (a pipeline,
// a statement, a _bulk_docs request), and a pool that runs a bounded number of calls at once.
// Each call is one store operation, under the operation deadline like any other.

// A chunk ends at whichever comes first: this many entries, or this many value bytes (a
// single larger value is a chunk of its own).
export const CHUNK_ENTRIES = 1000;
export const CHUNK_BYTES = 4 * 1024 * 1024;

/** entries ([key, bytes] pairs) cut into chunks of at most maxEntries entries and about maxBytes. */
export function chunksOf(entries, { maxEntries = CHUNK_ENTRIES, maxBytes = CHUNK_BYTES } = {}) {
  const chunks = [];
  let chunk = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = entry[1]?.length ?? 0;
    if (chunk.length && (chunk.length === maxEntries || bytes + size > maxBytes)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(entry);
    bytes += size;
  }
  if (chunk.length) chunks.push(chunk);
  return chunks;
}

/**
 * Runs work(item) for every item, at most limit at once, in order of starting. Resolves when
 * all have; rejects with the first failure once the calls under way have settled (none
 * starts after a failure), so nothing is left running behind the caller's back.
 */
export async function eachLimited(items, limit, work) {
  let next = 0;
  let failure;
  const worker = async () => {
    while (next < items.length && !failure) {
      const item = items[next++];
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}

/** The entries with each key once, at its last position's value: a later write to a key wins. */
export function lastWriteWins(entries) {
  const byKey = new Map();
  for (const [key, bytes] of entries) {
    byKey.delete(key); // re-inserted at the end: the order is that of the last writes
    byKey.set(key, bytes);
  }
  return byKey.size === entries.length ? entries : [...byKey];
}
