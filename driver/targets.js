// What to sweep: URLs given with --url, or the stores a running app lists at /stores.
import { RunError } from '../util/errors.js';
import { httpGet } from './http-get.js';
import { redactText, redactUrl } from '../util/redact.js';
import { printable } from '../util/printable.js';
import { keyProblem, storeNameProblem } from '../stores/keys.js';
import { FRAMEWORK_NAMES } from '../config/settings.js';

const PROBE_TIMEOUT_MS = 10_000;

/** base + path, keeping any path prefix the base has (https://host/prefix -> https://host/prefix/stores). */
export function joinUrl(base, path) {
  const url = new URL(base);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${path}`;
  url.search = '';
  url.hash = '';
  return url.href;
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

export async function fetchStoreListing(base, options) {
  return (await fetchListing(base, options)).stores;
}

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
  // What serves it (a name of ours, else left unsaid: the target may be hostile).
  const framework = FRAMEWORK_NAMES.includes(listing.framework) ? listing.framework : null;
  return { stores: listing.stores.map(checkedEntry), limits, framework };
}

const kindOf = (value) => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return /^[aeiou]/.test(typeof value) ? `an ${typeof value}` : `a ${typeof value}`;
};

/**
 * Why the driver cannot use a listing's entry, or null. The target may be hostile: a name or
 * key outside the alphabets, or any malformed entry, is refused and nothing is requested of it.
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

/** A listing's store made printable; a refused one says why it is not swept. */
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

// An older app may start a store's reason with the store's name; the skip line names it already.
const reasonFor = (store) => {
  if (typeof store.reason !== 'string' || !store.reason) return null;
  return store.reason.startsWith(`${store.name}: `) ? store.reason.slice(store.name.length + 2) : store.reason;
};

const appUrlOf = (base) => (store, key) => joinUrl(base, key === undefined
  ? encodeURIComponent(store)
  : `${encodeURIComponent(store)}/${encodeURIComponent(key)}`);

const noKeys = (store, keys) => ({
  store: store.name,
  status: 'no keys',
  reason: store.keys?.length
    ? `it lists none of --keys ${keys.join(',')} (it has: ${store.keys.join(', ')})`
    : 'it is up but lists no keys to read',
});

const notUp = (store) => ({
  store: store.name,
  status: typeof store.status === 'string' ? store.status : 'no status',
  reason: reasonFor(store),
});

/**
 * Picks what to sweep from a /stores listing: { targets, skipped, problems }. A key is a problem
 * only when a store is up to list it; a store that is down is skipped with its reason instead.
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
    if (!read.length) skipped.push(noKeys(store, keys));
    for (const key of read) targets.push({ url: urlOf(store.name, key), store: store.name, key });
  }
  return { targets, skipped, problems };
}

/**
 * A key-space workload's targets: one per up store. A store with no native append is skipped
 * for an appending workload unless named (its 405s then show); one with `writesRefused` (memory
 * in a multi-worker app) is skipped, named or not.
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
      // Each app worker would hold its own part of an in-process key space.
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
 * One problem line per store whose server takes smaller values than the workload's largest
 * (its /stores `maxValueSize`), as the run would otherwise send its load for nothing but 413s.
 */
export function storeLimitProblems(listing, targets, largest, where) {
  if (!largest) return [];
  const swept = new Set(targets.map((target) => target.store));
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
