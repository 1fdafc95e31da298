// One adapter for Tarantool spaces through tarantool-driver, made once per engine (vinyl, memtx), each
// with its own space. An existing space with another engine is refused, so a number labelled vinyl
// is never a memtx number.

import { boundReceiveBuffer, sendWhileReceiving } from './tarantool-driver-fix.js';
import { withDeadline } from '../deadline.js';
import { ValueTooLargeError } from '../../util/errors.js';
import { raiseText, tarantoolMaxValue, valueLimit } from '../value-limits.js';
import { defaults } from '../../config/settings.js';

// No append: the update splice works on string fields only, and a Lua concatenation is stored as a
// string, not the varbinary that round-trips any bytes. Bulk: replaces pipelined on one connection.
const writes = { append: false, bulk: 'native', hash: false };
const pipelining = {
  pipelines: true,
  reason: 'tarantool-driver writes each request to its one connection as it is issued, without waiting for ' +
    'the answers before it (one write per request)',
};

// A tuple over the engine's max_tuple_size (1 MB by default): a refusal, not an outage.
const refusedForSize = (error, bytes) => (/max_tuple_size|tuple is too large/i.test(error?.message)
  ? new ValueTooLargeError(`the Tarantool server refused a value of ${bytes.length} bytes: over its maximum ` +
    'tuple size (box.cfg memtx_max_tuple_size / vinyl_max_tuple_size, 1 MB by default)', { cause: error })
  : error);

const connectTimeoutMs = 5000;

const VSPACE_ID = 281;
const VSPACE_NAME_INDEX = 2;

const createSpaceLua = `
local name, engine = ...
if box.space[name] == nil then
  box.schema.space.create(name, { engine = engine, if_not_exists = true,
    format = { { name = 'key', type = 'string' }, { name = 'value', type = 'varbinary' } } })
  box.space[name]:create_index('primary', { parts = { 'key' }, if_not_exists = true })
end
return box.space[name].engine`;

// The engine's max tuple size from the server's box.cfg; null when this user may not eval.
const maxTupleSizeOf = (connection, engine) => connection.eval('return box.cfg[...]', `${engine}_max_tuple_size`)
  .then(([size]) => (Number.isInteger(size) && size > 0 ? size : null), () => null);

function limitOf(connection, engine, fromServer, settings) {
  const embedded = connection.source === 'embedded';
  const size = fromServer ?? (embedded ? settings.tarantoolTupleSize ?? defaults.tarantoolTupleSize : null);
  if (!size) return null;
  const option = `${engine}_max_tuple_size`;
  const largest = tarantoolMaxValue(size, engine);
  const where = fromServer ? 'as the server says' : 'as the embedded server was started';
  const limit = `box.cfg ${option}: ${size} bytes ${where}, ` +
    `less ${size - largest} for the tuple header and the longest key`;
  return valueLimit(largest, limit, raiseText(connection, 'tarantoolTupleSize', `box.cfg ${option}`));
}

const spaceName = (engine) => `storebench_${engine}`;

export function tarantoolOptions(url) {
  const parsed = new URL(url);
  if (parsed.protocol !== 'tarantool:') throw new Error(`TARANTOOL_URL must start with tarantool://, not ${parsed.protocol}//`);
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: Number(parsed.port || 3301),
    ...(parsed.username
      ? { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) }
      : {}),
  };
}

export function tarantoolAdapter({ name, engine, description }) {
  const space = spaceName(engine);

  async function open({ tarantool }, settings = defaults) {
    const { default: Tarantool } = await import('tarantool-driver');
    const connection = boundReceiveBuffer(sendWhileReceiving(new Tarantool({
      ...tarantoolOptions(tarantool.url),
      lazyConnect: true,
      timeout: connectTimeoutMs,
      enableOfflineQueue: false,
      retryStrategy: (times) => Math.min(times * 50, 2000),
    })));
      // Keeps errors from crashing the app; the last is kept, as a failed connect() only says
      // "Connection is closed.".
    let lastError;
    connection.on('error', (error) => { lastError = error; });
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      connection.disconnect();
    };

    let actualEngine;
    let maxTupleSize;
    try {
      const handshake = async () => {
        await connection.connect().catch((error) => { throw lastError ?? error; });
        maxTupleSize = await maxTupleSizeOf(connection, engine);
        return ensureSpace(connection);
      };
      // The driver's timeout ends at the TCP connect; a server that accepts and never sends
      // a greeting (a silent port, a Redis) would hold connect() for ever.
      actualEngine = await withDeadline(handshake(), connectTimeoutMs, () =>
        new Error(`no answer from Tarantool within ${connectTimeoutMs} ms of connecting (is it a Tarantool server?)`));
    } catch (error) {
      await close();
      throw error;
    }
    if (actualEngine !== engine) {
      await close();
      throw new Error(`space ${space} uses the ${actualEngine} engine, not ${engine}; ` +
        'drop it or point at another server');
    }
    const limit = limitOf(tarantool, engine, maxTupleSize, settings);

    return {
      async get(key) {
        const [tuple] = await connection.select(space, 0, 1, 0, 'eq', [key]);
        if (!tuple) return null;
        const value = tuple[1];
        return Buffer.isBuffer(value) ? value : Buffer.from(value); // a string field from a hand-made space
      },
      async set(key, bytes) {
        await connection.replace(space, [key, bytes]).catch((error) => { throw refusedForSize(error, bytes); });
      },
      async setMany(entries) {
        await Promise.all(entries.map(([key, bytes]) => connection.replace(space, [key, bytes])
          .catch((error) => { throw refusedForSize(error, bytes); })));
      },
      async delete(key) {
        await connection.delete(space, 0, [key]);
      },
      async ping() {
        await connection.ping();
      },
      close,
      stats: () => ({ engine: actualEngine, space }),
      valueLimit: () => limit,
    };
  }

  // The space's engine from _vspace, which any user can read; created if missing and allowed.
  async function ensureSpace(connection) {
    const [found] = await connection.select(VSPACE_ID, VSPACE_NAME_INDEX, 1, 0, 'eq', [space]);
    if (found) return found[3];
    try {
      return (await connection.eval(createSpaceLua, space, engine))[0];
    } catch (error) {
      throw new Error(`space ${space} does not exist and could not be created (${error.message}); ` +
        `create it with engine ${engine}, a string primary key and a varbinary value, ` +
        'and grant the user read,write on it', { cause: error });
    }
  }

  return { name, description, needs: ['tarantool'], writes, pipelining, open };
}
