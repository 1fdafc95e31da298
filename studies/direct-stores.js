// The stores a direct-mode scenario measures, opened in this process as the app would open them.
import { openStores } from '../stores/index.js';

/**
 * Opens `names`: { stores, unavailable, serverUrls (never shown), close() }; a store that cannot
 * be opened is listed with its reason, never thrown for.
 * @param {string[]} names
 * @param {{ env?: object, appEnv?: object, onProgress?: (event) => void }} [options]
 */
export async function openDirectStores(names, { env = process.env, appEnv = {}, onProgress = () => {} } = {}) {
  // Cloudant Lite's limits only when the run asks (--cloudant-plan lite), whatever the shell's
  // environment says, so the scenario's record tells the truth about it.
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
