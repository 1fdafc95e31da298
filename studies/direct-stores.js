// The stores a direct-mode scenario measures, opened in this process: the adapters' own Store
// objects (no app, no HTTP, no operation deadline of the app), their servers resolved as the
// app would (configured URLs first, else the embedded servers), key1..key3 seeded as always.
import { openStores } from '../stores/index.js';

/**
 * Opens `names`; resolves to { stores: Map<name, { store, adapter }>, unavailable: [{ name, reason }],
 * serverUrls: the servers they reached (for the machine monitor; never shown), close() }.
 * A store that cannot be opened is listed with its reason, never thrown for.
 * @param {string[]} names
 * @param {{ env?: object, appEnv?: object, onProgress?: (event) => void }} [options]  appEnv: the
 *   scenario run's settings (STOREBENCH_CLOUDANT_PLAN from --cloudant-plan), over env
 */
export async function openDirectStores(names, { env = process.env, appEnv = {}, onProgress = () => {} } = {}) {
  // These scenarios measure clients, not a plan's rate limits: the CouchDB stand-in emulates
  // Cloudant Lite only when the run asks (--cloudant-plan lite, in appEnv), whatever the
  // shell's environment says, so the scenario's record tells the truth about it.
  const { STOREBENCH_CLOUDANT_PLAN: _plan, ...plainEnv } = env;
  onProgress({ type: 'stores-opening', stores: names });
  const set = await openStores({ names, env: { ...plainEnv, ...appEnv } });
  const stores = new Map();
  const unavailable = [];
  const serverUrls = new Set();
  for (const name of names) {
    const entry = set.entry(name);
    for (const connection of Object.values(entry.connections ?? {})) if (connection.url) serverUrls.add(connection.url);
    if (entry.raw) stores.set(name, { store: entry.raw, adapter: entry.adapter });
    else unavailable.push({ name, reason: entry.reason ?? 'not opened' });
  }
  return { stores, unavailable, serverUrls: [...serverUrls], close: () => set.close() };
}
