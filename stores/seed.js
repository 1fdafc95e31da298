// Seeding: every store holds key1..key3 after it. Idempotent: set() overwrites, and the
// CouchDB adapters write over the current revision. After the start, a store's seeded keys
// are only put back where its server lost them (restoreLostSeeds).
import { payloads } from './payloads.js';

/** Writes every payload into store; returns the keys written. */
export async function seedStore(store) {
  for (const [key, bytes] of Object.entries(payloads)) await store.set(key, bytes);
  return Object.keys(payloads);
}

/**
 * Writes the payloads store lacks, leaving any key that is there as it is (another app process
 * seeded it, and may have served writes to it since); returns every seeded key.
 */
export async function seedMissing(store) {
  await restoreLostSeeds(store, () => false);
  return Object.keys(payloads);
}

/**
 * Writes back the seeded keys store lacks, except those wasDeleted(key) says the app deleted
 * (a delete it acknowledged is never undone); returns the keys written. Reads each key first:
 * a seeded key that is there, whatever it holds now, is left as it is.
 */
export async function restoreLostSeeds(store, wasDeleted) {
  const restored = [];
  for (const [key, bytes] of Object.entries(payloads)) {
    if (wasDeleted(key) || (await store.get(key)) != null) continue;
    if (wasDeleted(key)) continue; // deleted while we read
    await store.set(key, bytes);
    restored.push(key);
  }
  return restored;
}
