// Seeding: every store holds key1..key3 after it. Idempotent: set() overwrites, and the
// CouchDB adapters write over the current revision. After the start, a store's seeded keys
// are only put back where its server lost them (restoreLostSeeds).
import { payloads } from './payloads.js';

export async function seedStore(store) {
  for (const [key, bytes] of Object.entries(payloads)) await store.set(key, bytes);
  return Object.keys(payloads);
}

// Leaves any key that is there as it is: another app process seeded it, and may have served writes since.
export async function seedMissing(store) {
  await restoreLostSeeds(store, () => false);
  return Object.keys(payloads);
}

// Except keys the app deleted (a delete it acknowledged is never undone), and keys there, whatever they hold.
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
