// What a bare URL (--url) names: its store and key, from its last two path segments. The options
// check --assert's stores against it before any load; the driver labels its targets with it.
import { redactUrl } from './redact.js';

/** Labels a bare URL (http://host/redis/key1 -> store redis, key key1); key-space: the workload's name. */
export function targetFromUrl(url, workload = null) {
  const parts = new URL(url).pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (workload) return { url, store: parts.at(-1) ?? redactUrl(url), key: workload };
  if (parts.length >= 2) return { url, store: parts.at(-2), key: parts.at(-1) };
  return { url, store: redactUrl(url), key: parts.at(-1) ?? '/' };
}
