// One adapter shape for Tarantool spaces through tarantool-driver, made once per engine:
// stores/tarantool.js (vinyl, the on-disk LSM engine) and stores/tarantool-memtx.js (memtx,
// in memory). Each reads and writes its own space, storebench_<engine>:
//   key string (primary index), value varbinary (msgpack bin, read back as a Buffer).
// If the space is missing and the user may create it, it is created; an existing space with
// another engine is refused, so a number labelled vinyl is never a memtx number.

import { boundReceiveBuffer, sendWhileReceiving } from './tarantool-driver-fix.js';
import { withDeadline } from '../deadline.js';
import { ValueTooLargeError } from '../../util/errors.js';
import { raiseText, tarantoolMaxValue, valueLimit } from '../value-limits.js';
import { defaults } from '../../config/settings.js';

// No append: Tarantool's update splice (':') works on string fields only, and the value field is
// varbinary so that any bytes round-trip; a Lua function's concatenation is a Lua string, stored
// as a string, not varbinary (Tarantool 2.6). So there is no native append for it. Bulk:
// replaces sent at once, pipelined over the one connection (tarantool-driver has no batch call).
export const writes = { append: false, bulk: 'native', hash: false };
// --pipeline (docs/direct.md): tarantool-driver writes a request at once, whatever is in flight;
// answers are matched to requests by their sync id.
export const pipelining = {
  pipelines: true,
  reason: 'tarantool-driver writes each request to its one connection as it is issued, without waiting for ' +
    'the answers before it (one write per request)',
};

// A tuple over memtx_max_tuple_size / vinyl_max_tuple_size (1 MB by default) is refused with
// this in the message: a refusal, not an outage.
const refusedForSize = (error, bytes) => (/max_tuple_size|tuple is too large/i.test(error?.message)
  ? new ValueTooLargeError(`the Tarantool server refused a value of ${bytes.length} bytes: over its maximum ` +
    'tuple size (box.cfg memtx_max_tuple_size / vinyl_max_tuple_size, 1 MB by default)', { cause: error })
  : error);

const connectTimeoutMs = 5000;

// Tarantool's system view of the spaces this user can see, and its index by name.
const VSPACE_ID = 281;
const VSPACE_NAME_INDEX = 2;

// Runs on the server: create the space when missing, report its engine.
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

// The largest value, from the server's box.cfg; for the embedded server, else from the
// setting it was started with; unknown (null) for a configured server that does not say.
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

/** The space a store of this engine uses. */
export const spaceName = (engine) => `storebench_${engine}`;

/** Options for tarantool-driver from a tarantool://user:password@host:port URL. */
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

/** An adapter ({ name, description, needs, writes, pipelining, open }) for the space of one engine. */
export function tarantoolAdapter({ name, engine, description }) {
  const space = spaceName(engine);

  async function open({ tarantool }, settings = defaults) {
    const { default: Tarantool } = await import('tarantool-driver');
    const connection = boundReceiveBuffer(sendWhileReceiving(new Tarantool({
      ...tarantoolOptions(tarantool.url),
      lazyConnect: true,
      timeout: connectTimeoutMs,
      // Fail fast while disconnected: a request gets a 503, not a wait in a queue.
      enableOfflineQueue: false,
      retryStrategy: (times) => Math.min(times * 50, 2000),
    })));
    // Errors reach each command's caller as a rejection; this keeps them from crashing the app.
    // The last one is kept: a failed connect() itself only says "Connection is closed.".
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

  // The engine of the space, from the _vspace system view any user can read; a missing
  // space is created if the user may (a shared server may not allow it: then it must exist).
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
