// A bulk write as store calls: chunks a server takes in one go, run a bounded number at once.

// A chunk ends at this many entries or value bytes (a single larger value is a chunk of its own).
const CHUNK_ENTRIES = 1000;
const CHUNK_BYTES = 4 * 1024 * 1024;

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

// Rejects with the first failure only once the calls under way have settled (none starts after it):
// nothing is left running behind the caller's back.
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

export function lastWriteWins(entries) {
  const byKey = new Map();
  for (const [key, bytes] of entries) {
    byKey.delete(key); // re-inserted at the end: the order is that of the last writes
    byKey.set(key, bytes);
  }
  return byKey.size === entries.length ? entries : [...byKey];
}
