// The largest value a server with a size limit of its own accepts under every key (the
// longest, KEY_MAX_LENGTH bytes, leaves the least room): the server's limit less what it
// adds to each value. The overheads were found by experiment, the largest value accepted and
// one byte more refused, for several limits and key lengths, against memcached 1.6.18 (memjs,
// binary protocol) and Tarantool 2.6.0 (tarantool-driver); docs/stores.md has the figures, and
// test/stores/value-limits.test.js pins them against the real servers.
import { KEY_MAX_LENGTH } from './keys.js';
import { settings } from '../config/settings.js';

// memcached counts an item as its header (48 bytes on a 64-bit build), 8 more when CAS is on,
// the key and its NUL, the flags suffix (none: memjs sends flags 0) and the value with its CRLF.
const MEMCACHED_ITEM_HEADER = 48;
const MEMCACHED_CAS = 8;

/** The largest value a memcached with item_size_max (stats settings) takes under every key. */
export const memcachedMaxValue = (itemSizeMax, casEnabled = true) =>
  itemSizeMax - MEMCACHED_ITEM_HEADER - (casEnabled ? MEMCACHED_CAS : 0) - (KEY_MAX_LENGTH + 1) - 2;

// A Tarantool tuple is counted as the engine's own header plus its MessagePack: a 2-element
// array, the key as a string, the value as binary (a varbinary field).
const TARANTOOL_TUPLE_HEADER = { memtx: 14, vinyl: 32 };
const strHeader = (length) => (length < 32 ? 1 : length < 256 ? 2 : length < 65536 ? 3 : 5);
const binHeader = (length) => (length < 256 ? 2 : length < 65536 ? 3 : 5);

/** The largest value a Tarantool space of engine (memtx, vinyl) takes under every key, given its max tuple size. */
export function tarantoolMaxValue(maxTupleSize, engine) {
  const fixed = TARANTOOL_TUPLE_HEADER[engine] + 1 + strHeader(KEY_MAX_LENGTH) + KEY_MAX_LENGTH;
  // The binary header grows with the value: take the largest that still fits with its own header.
  let value = maxTupleSize - fixed - 5;
  while (fixed + binHeader(value + 1) + value + 1 <= maxTupleSize) value += 1;
  return Math.max(0, value);
}

/** How to raise a limit: the setting for a server the embedded default started, else the server's own. */
export function raiseText(connection, settingKey, serverOwn) {
  if (connection?.source !== 'embedded') return `the server's own ${serverOwn}`;
  const setting = settings[settingKey];
  return `${setting.env[0]} or app.js ${setting.flag.split(' ')[0]} for the embedded server`;
}

/**
 * A store's value limit as /stores shows it (stores/contract.js valueLimit()):
 * { maxValueSize, limit: what the server's limit is, raise: how to raise it }.
 */
export const valueLimit = (maxValueSize, limit, raise) => ({ maxValueSize, limit, raise });
