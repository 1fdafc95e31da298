// What to sweep: URLs given with --url, or the stores a running app lists at /stores.
import { RunError } from '../util/errors.js';
import { httpGet } from './http-get.js';
import { redactText, redactUrl } from '../util/redact.js';
import { printable } from '../util/printable.js';
import { keyProblem, storeNameProblem } from '../stores/keys.js';

const PROBE_TIMEOUT_MS = 10_000;

/** base + path, keeping any path prefix the base has (https://host/prefix -> https://host/prefix/stores). */
export function joinUrl(base, path) {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path}`;
  url.search = '';
  url.hash = '';
  return url.href;
}

/**
 * Labels a bare URL for the comparison: http://host/redis/key1 -> store redis, key key1. With a
 * key-space `workload` the URL is a store's base (http://host/redis: store redis), and the
 * key is the workload's name, as each request picks its own key.
 */
export function targetFromUrl(url, workload = null) {
  const parts = new URL(url).pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (workload) return { url, store: parts.at(-1) ?? redactUrl(url), key: workload };
  if (parts.length >= 2) return { url, store: parts.at(-2), key: parts.at(-1) };
  return { url, store: redactUrl(url), key: parts.at(-1) ?? '/' };
}

const reasonOf = (error) => error.code ?? error.message;

async function get(url, timeoutMs, options) {
  try {
    return await httpGet(url, { timeoutMs, ...options });
  } catch (error) {
    const reason = error.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : redactText(reasonOf(error));
    throw new RunError(`cannot reach ${redactUrl(url)}: ${reason}`, error);
  }
}

/** Fails with one clear message unless url answers at all (any HTTP status counts as reachable). */
export async function checkReachable(url, { timeoutMs = PROBE_TIMEOUT_MS } = {}) {
  const { status } = await get(url, timeoutMs, { discardBody: true });
  return status;
}

/** GET <base>/stores, checked: resolves to the listing's stores array. */
export async function fetchStoreListing(base, options) {
  return (await fetchListing(base, options)).stores;
}

/** GET <base>/stores, checked: resolves to { stores, limits } (limits {} from an app that gives none). */
export async function fetchListing(base, { timeoutMs = PROBE_TIMEOUT_MS } = {}) {
  const url = joinUrl(base, 'stores');
  const shown = redactUrl(url);
  const { status, body } = await get(url, timeoutMs);
  if (status !== 200) {
    throw new RunError(`${shown} answered HTTP ${status}, ` +
      'expected 200 with the store listing (is this a storebench app?)');
  }
  let listing;
  try {
    listing = JSON.parse(body);
  } catch {
    const start = JSON.stringify(printable(body.slice(0, 60)));
    throw new RunError(`${shown} did not return JSON (is this a storebench app?): ${start}`);
  }
  if (!Array.isArray(listing?.stores)) {
    throw new RunError(`${shown} returned JSON without a "stores" list (is this a storebench app?)`);
  }
  const limits = listing.limits && typeof listing.limits === 'object' ? listing.limits : {};
  return { stores: listing.stores.map(checkedEntry), limits };
}

/** What a value is, for a line saying it is not what was expected: "a string", "null", "a list". */
const kindOf = (value) => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return /^[aeiou]/.test(typeof value) ? `an ${typeof value}` : `a ${typeof value}`;
};

/**
 * Why the driver cannot use a listing's entry, or null. The target is another program, maybe a
 * hostile one: a name or key outside the alphabets is refused (nothing is requested from it),
 * and so is anything else malformed: an entry that is not an object, a name, status or reason
 * that is not text, keys that are not a list.
 */
function entryProblem(store) {
  if (!store || typeof store !== 'object' || Array.isArray(store)) return `the entry is ${kindOf(store)}, not a store`;
  if (store.name === undefined) return 'it has no "name"';
  if (typeof store.name !== 'string') return `its "name" is ${kindOf(store.name)}, not text`;
  const nameProblem = storeNameProblem(store.name);
  if (nameProblem) return `its name is not a store name (${nameProblem})`;
  for (const field of ['status', 'reason']) {
    if (store[field] !== undefined && typeof store[field] !== 'string') {
      return `its "${field}" is ${kindOf(store[field])}, not text`;
    }
  }
  if (store.keys !== undefined && !Array.isArray(store.keys)) return `its "keys" is ${kindOf(store.keys)}, not a list`;
  const badKey = (store.keys ?? []).find((key) => keyProblem(key));
  if (badKey !== undefined) {
    return `it lists a key that is not a key (${keyProblem(badKey)}): ${JSON.stringify(printable(String(badKey)))}`;
  }
  return null;
}

/**
 * A listing's store as the driver may use and print it: a refused one (entryProblem) keeps a
 * printable name ("(entry 3)" when it has none) and says why it is not swept; the others have
 * their status and reason made printable, one line each.
 */
function checkedEntry(store, index) {
  const problem = entryProblem(store);
  if (problem) {
    const name = typeof store?.name === 'string' ? printable(store.name) : '';
    return { name: name || `(entry ${index + 1})`, status: 'refused', reason: `not swept: ${problem}`, keys: [] };
  }
  return {
    ...store,
    keys: store.keys ?? [],
    ...(store.status !== undefined ? { status: printable(store.status) } : {}),
    ...(store.reason !== undefined ? { reason: printable(store.reason) } : {}),
  };
}

// An app (an older one, or another build) may start a store's reason with the store's name;
// the skip line names the store already.
const reasonFor = (store) => {
  if (typeof store.reason !== 'string' || !store.reason) return null;
  return store.reason.startsWith(`${store.name}: `) ? store.reason.slice(store.name.length + 2) : store.reason;
};

// A target's URL on the app at base: base/<store>/<key>, or base/<store> for a key-space workload.
// (The direct mode names its targets direct://<store>/<key> instead: driver/direct-targets.js.)
const appUrlOf = (base) => (store, key) => joinUrl(base, key === undefined
  ? encodeURIComponent(store)
  : `${encodeURIComponent(store)}/${encodeURIComponent(key)}`);

// The skip line of an up store that lists no key to read (none at all, or none of --keys).
const noKeys = (store, keys) => ({
  store: store.name,
  status: 'no keys',
  reason: store.keys?.length
    ? `it lists none of --keys ${keys.join(',')} (it has: ${store.keys.join(', ')})`
    : 'it is up but lists no keys to read',
});

// The skip line of a store whose listing does not say it is up.
const notUp = (store) => ({
  store: store.name,
  status: typeof store.status === 'string' ? store.status : 'no status',
  reason: reasonFor(store),
});

/**
 * Picks what to sweep from a /stores listing: every store that is up (or those named in
 * `stores`) x its keys (or `keys`). Returns { targets, skipped: [{store, status, reason}], problems }:
 * problems are names the listing does not have (`label` names the app in them). A key is
 * only a problem when a store is up to list it: a store that is not up lists no keys, and
 * is skipped with its reason instead.
 */
export function selectTargets(listing, base, {
  stores, keys, label = redactUrl(base), workload = null, urlOf = appUrlOf(base),
} = {}) {
  if (workload) return selectStores(listing, base, { stores, label, workload, urlOf });
  const problems = [];
  const names = listing.map((store) => store.name);
  for (const name of stores ?? []) {
    if (!names.includes(name)) {
      problems.push(`--stores: ${label} has no store "${name}" (it has: ${names.join(', ') || 'none'})`);
    }
  }
  const chosen = listing.filter((store) => !stores || stores.includes(store.name));
  const up = chosen.filter((store) => store.status === 'up');
  const allKeys = [...new Set(listing.flatMap((store) => store.keys ?? []))];
  if (up.length) {
    for (const key of keys ?? []) {
      if (!allKeys.includes(key)) {
        problems.push(`--keys: no store at ${label} lists key "${key}" (known: ${allKeys.join(', ') || 'none'})`);
      }
    }
  }
  const targets = [];
  const skipped = [];
  for (const store of chosen) {
    if (store.status !== 'up') {
      skipped.push(notUp(store));
      continue;
    }
    const read = (store.keys ?? []).filter((key) => !keys || keys.includes(key));
    // An up store with nothing to read is named too, never left out in silence.
    if (!read.length) skipped.push(noKeys(store, keys));
    for (const key of read) targets.push({ url: urlOf(store.name, key), store: store.name, key });
  }
  return { targets, skipped, problems };
}

/**
 * A key-space workload's targets: one per store that is up (or named in `stores`), its base URL
 * (http://host/redis), keyed by the workload's name. A store whose listing says it has no
 * native append is skipped for a workload that appends, unless named with --stores (it then
 * runs, and its 405s show as errors). One whose listing has `writesRefused` (memory in an app
 * of several workers) is skipped, named or not, with the listing's reason.
 */
function selectStores(listing, base, { stores, label, workload, urlOf }) {
  const problems = [];
  const names = listing.map((store) => store.name);
  for (const name of stores ?? []) {
    if (!names.includes(name)) {
      problems.push(`--stores: ${label} has no store "${name}" (it has: ${names.join(', ') || 'none'})`);
    }
  }
  const appends = workload.mix.some(({ operation }) => operation === 'append');
  const targets = [];
  const skipped = [];
  for (const store of listing.filter((entry) => !stores || stores.includes(entry.name))) {
    if (store.status !== 'up') {
      skipped.push(notUp(store));
    } else if (store.writesRefused) {
      // An in-process store of an app running several workers (app.js --workers): a key space is
      // loaded or written, and each worker would hold its own part of it.
      skipped.push({
        store: store.name,
        status: 'no writes',
        reason: typeof store.writesRefused.reason === 'string' ? store.writesRefused.reason : 'it refuses writes',
      });
    } else if (appends && store.writes?.append === false && !stores) {
      skipped.push({
        store: store.name,
        status: 'no append',
        reason: 'it has no native append (POST .../append answers 405); name it with --stores to measure the refusals',
      });
    } else {
      targets.push({ url: urlOf(store.name), store: store.name, key: workload.name });
    }
  }
  return { targets, skipped, problems };
}

/**
 * One problem line per store to be swept whose server takes smaller values than the workload's
 * largest (`largest` bytes), by its /stores `maxValueSize`: naming the limit and how to raise it
 * (`valueLimit`), as the run would otherwise send its load for nothing but 413s. `where` says
 * where the stores are ("at http://host:port/", "in this process (--direct)").
 */
export function storeLimitProblems(listing, targets, largest, where) {
  if (!largest) return [];
  const swept = new Set(targets.map((target) => target.store));
  // What an app says is only printed when it is text.
  const text = (value, otherwise) => (typeof value === 'string' && value ? value : otherwise);
  return listing
    .filter((store) => swept.has(store.name) && Number.isInteger(store.maxValueSize) && largest > store.maxValueSize)
    .map(({ name, maxValueSize, valueLimit }) => {
      const limit = text(valueLimit?.limit, 'its server\'s own limit');
      const raise = text(valueLimit?.raise, 'the server\'s own setting');
      return `--value-size: values up to ${largest} bytes, but ${name} ${where} accepts at most ` +
        `${maxValueSize} bytes in one value (${limit}); raise it with ${raise}, or leave ${name} out of --stores`;
    });
}
