// How a setting's raw value becomes the value code uses. A parser takes what a tier gave (text
// from a flag or the environment, or a typed value passed as an option) and returns the
// value, or throws a SettingValueError whose message completes "<where the value came from> ...".
// Messages never quote the value: config/precedence.js adds it, unless the setting is secret.

import { availableParallelism } from 'node:os';

export class SettingValueError extends Error {}

const isWhole = (raw) => (typeof raw === 'number' ? Number.isInteger(raw) : /^\d+$/.test(String(raw).trim()));

/** A TCP port; 0 asks the system for a free one. */
export function port(raw) {
  if (!isWhole(raw) || Number(raw) < 0 || Number(raw) > 65535) {
    throw new SettingValueError('must be a whole number from 0 to 65535');
  }
  return Number(raw);
}

// A fork per worker: past this many, a typo (--workers 1000) would fork the machine to a halt.
export const MAX_APP_WORKERS = 256;

/**
 * How many app processes to run: a whole number from 1 to MAX_APP_WORKERS, or auto (one per CPU
 * this process may use, os.availableParallelism(): a cgroup or affinity limit counts).
 */
export function workerCount(raw) {
  if (String(raw).trim().toLowerCase() === 'auto') return availableParallelism();
  if (!isWhole(raw) || Number(raw) < 1 || Number(raw) > MAX_APP_WORKERS) {
    throw new SettingValueError(`must be a whole number from 1 to ${MAX_APP_WORKERS}, or auto (one per CPU)`);
  }
  return Number(raw);
}

export function positiveInteger(raw) {
  if (!isWhole(raw) || Number(raw) < 1) throw new SettingValueError('must be a positive whole number');
  return Number(raw);
}

// Ten minutes: long enough for any real server, and far below setTimeout's 2^31-1 ms overflow.
export const MAX_DEADLINE_MS = 600_000;

/** A deadline in whole milliseconds, from 1 to MAX_DEADLINE_MS. */
export function deadlineMs(raw) {
  if (!isWhole(raw) || Number(raw) < 1 || Number(raw) > MAX_DEADLINE_MS) {
    throw new SettingValueError(`must be a whole number of milliseconds from 1 to ${MAX_DEADLINE_MS}`);
  }
  return Number(raw);
}

const units = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
// A gigabyte: PostgreSQL's bytea holds at most that, and the app reads a body into one Buffer.
export const MAX_BODY_BYTES = 1024 ** 3;

/** A size in bytes: a whole number, optionally with B, KB, MB or GB (powers of 1024), up to 1 GB. */
export function byteSize(raw) {
  const match = typeof raw === 'number' ? [null, String(raw), ''] : /^\s*(\d+)\s*([kmg]?b)?\s*$/i.exec(String(raw));
  const bytes = match && Number.isInteger(Number(match[1]))
    ? Number(match[1]) * units[(match[2] ?? '').toLowerCase()]
    : NaN;
  if (!(bytes >= 1 && bytes <= MAX_BODY_BYTES)) {
    throw new SettingValueError('must be a size from 1 byte to 1 GB: ' +
      'a whole number of bytes, or with KB, MB or GB (powers of 1024)');
  }
  return bytes;
}

/**
 * A server's own size limit raised for the embedded server: a byteSize from `min` (the server's
 * default: lower would not hold the seeded key3) to 1 GB, a whole multiple of `step` bytes.
 */
export const serverLimit = ({ min, step, what }) => (raw) => {
  let bytes = NaN;
  try { bytes = byteSize(raw); } catch {}
  if (!(bytes >= min) || bytes % step) {
    const multiple = step > 1 ? `, a multiple of ${step / 1024} KB` : '';
    const range = `from ${min / 1024 ** 2} MB to 1 GB${multiple}`;
    throw new SettingValueError(`must be a size ${range}, in bytes or with KB, MB or GB (${what})`);
  }
  return bytes;
};

/** A bearer token (RFC 6750's characters), long enough not to be guessed. */
export function bearerToken(raw) {
  if (!/^[A-Za-z0-9._~+/-]{16,}=*$/.test(String(raw))) throw new SettingValueError('must be at least 16 characters of A-Z a-z 0-9 . _ ~ + / - (a bearer token)');
  return String(raw);
}

export function positiveNumber(raw) {
  const value = typeof raw === 'number' ? raw : /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(String(raw)) ? Number(raw) : NaN;
  if (!(value > 0) || !Number.isFinite(value)) throw new SettingValueError('must be a positive number');
  return value;
}

// A minute: a round trip longer than any real network's, and far inside the deadlines' range.
export const MAX_DELAY_MS = 60_000;

/** A delay in milliseconds, fractions allowed, from 0 (none) to MAX_DELAY_MS. */
export function delayMs(raw) {
  const value = typeof raw === 'number' ? raw : /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(String(raw)) ? Number(raw) : NaN;
  if (!(value >= 0 && value <= MAX_DELAY_MS)) {
    throw new SettingValueError(`must be a number of milliseconds from 0 to ${MAX_DELAY_MS}`);
  }
  return value;
}

const STORE_NAME = /^[a-z][a-z0-9+-]*$/;

/**
 * A value for every store, for some stores by name, or both: "40", "redis=40", or
 * "10,redis=40,cloudant-legacy=300" (a plain value is every store's, a named one that store's
 * own). Each value is read by `parseOne`. A plain value stays as parseOne gives it; a list
 * with names becomes { all?, stores: { [name]: value } }. Store names are checked against
 * the registry where it is known (stores/, driver/), not here.
 */
export const perStore = (parseOne) => (raw) => {
  if (typeof raw === 'number') return parseOne(raw);
  if (raw && typeof raw === 'object') {
    const stores = Object.fromEntries(Object.entries(raw.stores ?? {}).map(([name, value]) => [name, parseOne(value)]));
    return { ...(raw.all === undefined ? {} : { all: parseOne(raw.all) }), stores };
  }
  const items = String(raw).split(',').map((item) => item.trim());
  if (!items.some((item) => item.includes('='))) {
    if (items.length > 1) throw new SettingValueError('takes one value for every store, or name=value items');
    return parseOne(items[0]);
  }
  const parsed = { stores: {} };
  for (const item of items) {
    const at = item.indexOf('=');
    if (at === -1) {
      if ('all' in parsed) throw new SettingValueError('takes at most one value for every store');
      parsed.all = parseOne(item);
      continue;
    }
    const name = item.slice(0, at).trim();
    if (!STORE_NAME.test(name)) throw new SettingValueError('needs a store name before each "=" (redis=40)');
    if (name in parsed.stores) throw new SettingValueError(`names store ${name} twice`);
    parsed.stores[name] = parseOne(item.slice(at + 1));
  }
  return parsed;
};

/** A perStore value for one store: its own, else every store's; undefined when neither is given. */
export const valueForStore = (value, store) =>
  (value !== null && typeof value === 'object' ? value.stores?.[store] ?? value.all : value);

/** A perStore value for every store (what a store not named in it gets); undefined when none is given. */
export const valueForEvery = (value) => (value !== null && typeof value === 'object' ? value.all : value);

/** The stores a perStore value names ([] for a plain value). */
export const storesNamed = (value) =>
  (value !== null && typeof value === 'object' ? Object.keys(value.stores ?? {}) : []);

/** A perStore value as the text that parses back to it ("10,redis=40"). */
export function perStoreText(value) {
  if (value === null || typeof value !== 'object') return String(value);
  const all = value.all === undefined ? [] : [String(value.all)];
  return [...all, ...Object.entries(value.stores ?? {}).map(([name, one]) => `${name}=${one}`)].join(',');
}

export const text = (raw) => String(raw);

/** An address to bind (a host name or an IP address): not empty, which would mean every interface unasked. */
export function address(raw) {
  const value = String(raw).trim();
  if (!value) throw new SettingValueError('needs an address, such as 127.0.0.1, :: or 0.0.0.0 (every IPv4 interface)');
  return value;
}

/** On or off: true, or the words 1, true, yes (any case). Anything else is off. */
export const onOff = (raw) => (typeof raw === 'boolean' ? raw : /^(1|true|yes)$/i.test(String(raw).trim()));

/** A comma-separated list (or an array, as an option), with at least one item. */
export const listOf = (what) => (raw) => {
  const items = (Array.isArray(raw) ? raw : String(raw).split(',')).map((item) => String(item).trim()).filter(Boolean);
  if (!items.length) throw new SettingValueError(`needs at least one ${what}`);
  return items;
};

/** An http:// or https:// URL with a host, kept as text. */
export function httpUrl(raw) {
  let url;
  try { url = new URL(String(raw)); } catch {}
  if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname) throw new SettingValueError('must be an http:// or https:// URL');
  return String(raw);
}

/** JSON text, kept as text (it is handed on as it is, to cf create-service -c). */
export function jsonText(raw) {
  try {
    JSON.parse(raw);
  } catch {
    throw new SettingValueError('is not valid JSON');
  }
  return String(raw);
}

/**
 * Where a backing server is: a URL (an option or environment variable), or the connection a
 * service bound on Cloud Foundry gives ({ url, apikey?, ca? }). Not checked here: a URL a
 * client cannot use makes its store unavailable with the client's reason, not the app fail.
 */
export const connection = (raw) => (typeof raw === 'string' ? { url: raw } : raw);

/** One of `choices` (--cloudant-plan lite|none). */
export const oneOf = (choices) => (raw) => {
  const value = String(raw).trim().toLowerCase();
  if (!choices.includes(value)) throw new SettingValueError(`must be one of ${choices.join(', ')}`);
  return value;
};

/**
 * On or off, strictly: true or false, or 1, true, yes, on / 0, false, no, off (any case); anything
 * else is a mistake. For a setting that is on by default, where a word read as "off" would
 * switch it off unasked.
 */
export function onOrOff(raw) {
  if (typeof raw === 'boolean') return raw;
  const word = String(raw).trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(word)) return true;
  if (['0', 'false', 'no', 'off'].includes(word)) return false;
  throw new SettingValueError('must be on or off: 1, true, yes, on or 0, false, no, off');
}
