// Seeding: every store holds key1..key3 after it. Idempotent: set() overwrites, and the
// Cloudant adapter writes over the current revision.
//
// As a script (npm run seed): seeds the stores configured by environment variables.
import { payloads } from './payloads.js';
import { isMain } from '../util/is-main.js';
import { redactText } from '../util/redact.js';

/** Writes every payload into store; returns the keys written. */
export async function seedStore(store) {
  for (const [key, bytes] of Object.entries(payloads)) await store.set(key, bytes);
  return Object.keys(payloads);
}

async function main() {
  const { openStores, storeNames, findAdapter } = await import('../stores/index.js');
  // memory lives inside the app process, and an embedded server stops when this script
  // ends: seed only the servers configured by environment variables.
  const names = storeNames.filter((name) => findAdapter(name).needs.length > 0);
  const stores = await openStores({ names, embedded: false });
  let failed = false;
  for (const store of await stores.status()) {
    if (store.status === 'up') console.log(`${store.name}: seeded ${store.keys.join(', ')}`);
    else if (store.reason?.includes('not configured')) console.log(`${store.name}: skipped (${store.reason})`);
    else { failed = true; console.error(`${store.name}: not seeded (${store.reason})`); }
  }
  await stores.close();
  process.exitCode = failed ? 1 : 0;
}

// Not awaited: stores/index.js imports this module, and a top-level await here would wait
// on that import while it waits for this module to finish: node exited 13, seeding nothing.
if (isMain(import.meta.url)) {
  main().catch((error) => {
    console.error(`seed: ${redactText(error.message)}`);
    process.exitCode = 1;
  });
}
