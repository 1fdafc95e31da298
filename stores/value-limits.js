// The largest value a server with a size limit accepts under every key (the longest key leaves the
// least room). The overheads were found by experiment against memcached 1.6.18 and Tarantool 2.6.0
// (docs/stores.md); test/stores/value-limits.test.js pins them against the real servers.
import { KEY_MAX_LENGTH } from './keys.js';
import { settings } from '../config/settings.js';

// memcached counts its item header (48 bytes on 64-bit), 8 more with CAS, the key and its NUL, the value
// and its CRLF.
const MEMCACHED_ITEM_HEADER = 48;
const MEMCACHED_CAS = 8;

export const memcachedMaxValue = (itemSizeMax, casEnabled = true) =>
  itemSizeMax - MEMCACHED_ITEM_HEADER - (casEnabled ? MEMCACHED_CAS : 0) - (KEY_MAX_LENGTH + 1) - 2;

// A tuple: the engine's header plus its MessagePack (a 2-element array, a string key, a binary value).
const TARANTOOL_TUPLE_HEADER = { memtx: 14, vinyl: 32 };
const strHeader = (length) => (length < 32 ? 1 : length < 256 ? 2 : length < 65536 ? 3 : 5);
const binHeader = (length) => (length < 256 ? 2 : length < 65536 ? 3 : 5);

export function tarantoolMaxValue(maxTupleSize, engine) {
  const fixed = TARANTOOL_TUPLE_HEADER[engine] + 1 + strHeader(KEY_MAX_LENGTH) + KEY_MAX_LENGTH;
  // The binary header grows with the value: take the largest that still fits with its own header.
  let value = maxTupleSize - fixed - 5;
  while (fixed + binHeader(value + 1) + value + 1 <= maxTupleSize) value += 1;
  return Math.max(0, value);
}

export function raiseText(connection, settingKey, serverOwn) {
  if (connection?.source !== 'embedded') return `the server's own ${serverOwn}`;
  const setting = settings[settingKey];
  return `${setting.env[0]} or app.js ${setting.flag.split(' ')[0]} for the embedded server`;
}

export const valueLimit = (maxValueSize, limit, raise) => ({ maxValueSize, limit, raise });
