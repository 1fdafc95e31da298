// npm run seed: writes key1..key3 (stores/payloads.js, their images in data/images/) into every store
// configured by an environment variable or a bound service. (The app also seeds every store it opens;
// seeding is idempotent.)
import { findAdapter, openStores, storeNames } from '../stores/index.js';
import { redactText } from '../util/redact.js';

async function main() {
  // memory lives inside the app process, and an embedded server stops when this script
  // ends: seed only the servers configured by environment variables.
  const names = storeNames.filter((name) => findAdapter(name).needs.length > 0);
  const stores = await openStores({ names, embedded: false });
  let failed = false;
  for (const store of await stores.status()) {
    if (store.status === 'up') console.log(`${store.name}: seeded ${store.keys.join(', ')}`);
    else if (store.reasonCode === 'NOT_CONFIGURED') console.log(`${store.name}: skipped (${store.reason})`);
    else { failed = true; console.error(`${store.name}: not seeded (${store.reason})`); }
  }
  await stores.close();
  return failed ? 1 : 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`seed: ${redactText(error.message)}`);
  process.exitCode = 1;
}
