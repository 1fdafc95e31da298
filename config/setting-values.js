// How a setting's raw value becomes the value code uses. A parser throws a SettingValueError whose
// message never quotes the value: config/precedence.js adds it, unless the setting is secret.

import { availableParallelism } from 'node:os';

export class SettingValueError extends Error {}

const isWhole = (raw) => (typeof raw === 'number' ? Number.isInteger(raw) : /^\d+$/.test(String(raw).trim()));

export function port(raw) {
  if (!isWhole(raw) || Number(raw) < 0 || Number(raw) > 65535) {
    throw new SettingValueError('must be a whole number from 0 to 65535');
  }
  return Number(raw);
}

// A fork per worker: past this many, a typo (--workers 1000) would fork the machine to a halt.
const MAX_APP_WORKERS = 256;

// auto: os.availableParallelism(), so a cgroup or affinity limit counts.
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
const MAX_DEADLINE_MS = 600_000;

export function deadlineMs(raw) {
  if (!isWhole(raw) || Number(raw) < 1 || Number(raw) > MAX_DEADLINE_MS) {
    throw new SettingValueError(`must be a whole number of milliseconds from 1 to ${MAX_DEADLINE_MS}`);
  }
  return Number(raw);
}

const units = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
// A gigabyte: PostgreSQL's bytea holds at most that, and the app reads a body into one Buffer.
const MAX_BODY_BYTES = 1024 ** 3;

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

// min: the server's default (lower would not hold the seeded key3).
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
const MAX_DELAY_MS = 60_000;

export function delayMs(raw) {
  const value = typeof raw === 'number' ? raw : /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(String(raw)) ? Number(raw) : NaN;
  if (!(value >= 0 && value <= MAX_DELAY_MS)) {
    throw new SettingValueError(`must be a number of milliseconds from 0 to ${MAX_DELAY_MS}`);
  }
  return value;
}

const STORE_NAME = /^[a-z][a-z0-9+-]*$/;

// "40", "redis=40" or "10,redis=40": a plain value is every store's, a named one that store's; with
// names it becomes { all?, stores }. Store names are checked where the registry is known, not here.
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

export const valueForStore = (value, store) =>
  (value !== null && typeof value === 'object' ? value.stores?.[store] ?? value.all : value);

export const valueForEvery = (value) => (value !== null && typeof value === 'object' ? value.all : value);

export const storesNamed = (value) =>
  (value !== null && typeof value === 'object' ? Object.keys(value.stores ?? {}) : []);

export function perStoreText(value) {
  if (value === null || typeof value !== 'object') return String(value);
  const all = value.all === undefined ? [] : [String(value.all)];
  return [...all, ...Object.entries(value.stores ?? {}).map(([name, one]) => `${name}=${one}`)].join(',');
}

export const text = (raw) => String(raw);

// Not empty, which would mean every interface unasked.
export function address(raw) {
  const value = String(raw).trim();
  if (!value) throw new SettingValueError('needs an address, such as 127.0.0.1, :: or 0.0.0.0 (every IPv4 interface)');
  return value;
}

export const onOff = (raw) => (typeof raw === 'boolean' ? raw : /^(1|true|yes)$/i.test(String(raw).trim()));

export const listOf = (what) => (raw) => {
  const items = (Array.isArray(raw) ? raw : String(raw).split(',')).map((item) => String(item).trim()).filter(Boolean);
  if (!items.length) throw new SettingValueError(`needs at least one ${what}`);
  return items;
};

export function httpUrl(raw) {
  let url;
  try { url = new URL(String(raw)); } catch {}
  if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname) throw new SettingValueError('must be an http:// or https:// URL');
  return String(raw);
}

export function jsonText(raw) {
  try {
    JSON.parse(raw);
  } catch {
    throw new SettingValueError('is not valid JSON');
  }
  return String(raw);
}

// Not checked here: a URL a client cannot use makes its store unavailable, not the app fail.
export const connection = (raw) => (typeof raw === 'string' ? { url: raw } : raw);

export const oneOf = (choices) => (raw) => {
  const value = String(raw).trim().toLowerCase();
  if (!choices.includes(value)) throw new SettingValueError(`must be one of ${choices.join(', ')}`);
  return value;
};

// Strict on/off, for a setting on by default: a word misread as "off" would switch it off unasked.
export function onOrOff(raw) {
  if (typeof raw === 'boolean') return raw;
  const word = String(raw).trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(word)) return true;
  if (['0', 'false', 'no', 'off'].includes(word)) return false;
  throw new SettingValueError('must be on or off: 1, true, yes, on or 0, false, no, off');
}
