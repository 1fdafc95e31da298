// Seeding: every store holds key1..key3 after it. Idempotent: set() overwrites, and the
// CouchDB adapters write over the current revision.
import { payloads } from '../data/payloads.js';

/** Writes every payload into store; returns the keys written. */
export async function seedStore(store) {
  for (const [key, bytes] of Object.entries(payloads)) await store.set(key, bytes);
  return Object.keys(payloads);
}
