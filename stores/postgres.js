// PostgreSQL through node-postgres (pg), from a connection pool. Values live in a bytea column: the
// bytes come back exactly as written, with no JSON work on either side.
import { defaults } from '../config/settings.js';
import { chunksOf, lastWriteWins } from './bulk.js';

export const name = 'postgres';
export const description = 'PostgreSQL through node-postgres (pg): a pooled key/bytea table';
export const needs = ['postgres'];
export const writes = { append: true, bulk: 'native', hash: false };
export const pipelining = {
  pipelines: true,
  reason: 'node-postgres\'s pipeline mode, on connections of its own (pipelined()): each writes a query ' +
    'without waiting for the answers to those before it',
};

// Rows per multi-row INSERT: 2 parameters each, far below PostgreSQL's 65535.
const ROWS_PER_STATEMENT = { maxEntries: 1000, maxBytes: 8 * 1024 * 1024 };

// table: the cache and write-behind stores use their own.
export async function open({ postgres }, {
  postgresPoolSize = defaults.postgresPoolSize, postgresWrites = defaults.postgresWrites,
  postgresReads = defaults.postgresReads, table = 'storebench',
} = {}) {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new TypeError(`not a plain table name: "${table}"`);
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: postgres.url,
    max: postgresPoolSize,
    // A down server must give a 503 soon, not a request that waits for a connection forever.
    connectionTimeoutMillis: 5000,
    ...(postgres.ca ? { ssl: { ca: postgres.ca } } : {}),
  });
  // An idle connection dropped (server restart) emits 'error': unheard, it would crash the app.
  pool.on('error', () => {});

  try {
    await createTable(pool, table);
    if (postgresReads === 'join') await createJoinTables(pool, table);
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }

  const statements = postgresReads === 'join' ? joinStatements(table) : keyStatements(table);
  // serial: every write waits for the one before it, as study 004's app wrote.
  let lastWrite = Promise.resolve();
  const write = postgresWrites === 'serial'
    ? (work) => {
        const done = lastWrite.then(work, work);
        lastWrite = done.catch(() => {});
        return done;
      }
    : (work) => work();
  let closed;
  let pipelinedCalls;

  return {
    async get(key) {
      const { rows } = await pool.query({ ...statements.get, values: [key] });
      return rows.length ? rows[0].value : null;
    },
    async set(key, bytes) {
      await write(() => pool.query({ ...statements.set, values: [key, bytes] }));
    },
    async delete(key) {
      await write(() => pool.query({ ...statements.delete, values: [key] }));
    },
    async append(key, bytes) {
      await write(() => pool.query({ ...statements.append, values: [key, bytes] }));
    },
    // Beyond the contract, a null value deletes its key: the write-behind store's batches carry deletes.
    setMany(entries) {
      return write(() => (postgresReads === 'join'
        ? setManyJoined(pool, statements, entries)
        : setManyKeyed(pool, table, entries)));
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    pipelined() {
      if (!pipelinedCalls) {
        const opening = openPipelined(pg, postgres, postgresPoolSize, statements, write);
        pipelinedCalls = opening;
        opening.catch(() => {
          if (pipelinedCalls === opening) pipelinedCalls = undefined; // the next step tries again
        });
      }
      return pipelinedCalls.then(({ connections }) => connections);
    },
    close() {
      const calls = pipelinedCalls?.then((opened) => opened.close(), () => {});
      return (closed ??= Promise.all([pool.end(), calls]).then(() => {}));
    },
    stats() {
      const connections = { size: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
      return { pool: connections, writes: postgresWrites, reads: postgresReads };
    },
  };
}

// node-postgres's pipeline mode: each query sent at once with a Sync of its own (an error fails it
// alone). A pg.Pool hands a connection to one query at a time, so these are connections of their own.
async function openPipelined(pg, postgres, size, statements, write) {
  const open = (lost) => {
    const client = new pg.Client({
      connectionString: postgres.url,
      pipeline: true,
      connectionTimeoutMillis: 5000,
      ...(postgres.ca ? { ssl: { ca: postgres.ca } } : {}),
    });
    client.on('error', lost);
    client.on('end', lost);
    return client.connect().then(() => client);
  };
  const sockets = Array.from({ length: size }, () => pipelinedConnection(open));
  const close = () => Promise.all(sockets.map((socket) => socket.close()));
  const opened = await Promise.allSettled(sockets.map((socket) => socket.ready()));
  const failed = opened.find(({ status }) => status === 'rejected');
  if (failed) {
    await close();
    throw failed.reason;
  }
  const callsOf = ({ query }) => ({
    get: (key) => query({ ...statements.get, values: [key] }).then(({ rows }) => (rows.length ? rows[0].value : null)),
    async set(key, bytes) {
      await write(() => query({ ...statements.set, values: [key, bytes] }));
    },
    async delete(key) {
      await write(() => query({ ...statements.delete, values: [key] }));
    },
    async append(key, bytes) {
      await write(() => query({ ...statements.append, values: [key, bytes] }));
    },
  });
  return { connections: sockets.map(callsOf), close };
}

// One that breaks fails the queries it had, and connects anew for the next query.
function pipelinedConnection(open) {
  let opening;
  let broken = false;
  const connect = () => {
    broken = false;
    const current = open(() => {
      if (opening === current) broken = true;
    });
    opening = current;
    current.catch(() => {
      if (opening === current) broken = true;
    });
    return current;
  };
  connect();
  return {
    ready: () => opening,
    query: (statement) => (broken ? connect() : opening).then((client) => client.query(statement)),
    close: () => opening.then((client) => client.end(), () => {}),
  };
}

const createTable = (pool, table) =>
  createIfMissing(pool, `CREATE TABLE IF NOT EXISTS ${table} (key text PRIMARY KEY, value bytea NOT NULL)`);

async function createJoinTables(pool, table) {
  await createIfMissing(pool,
    `CREATE TABLE IF NOT EXISTS ${table}_locations (id bigserial PRIMARY KEY, value bytea NOT NULL)`);
  await createIfMissing(pool,
    `CREATE TABLE IF NOT EXISTS ${table}_item_locations (item text PRIMARY KEY, location_id bigint NOT NULL)`);
}

async function createIfMissing(pool, statement) {
  try {
    await pool.query(statement);
  } catch (error) {
    // Two apps creating the table at once: one wins, the other sees it already there.
    if (error.code !== '23505' && error.code !== '42P07') throw error;
  }
}

// Named statements are prepared once per pooled connection, then only executed.
const keyStatements = (table) => ({
  get: { name: `storebench-get-${table}`, text: `SELECT value FROM ${table} WHERE key = $1` },
  set: {
    name: `storebench-set-${table}`,
    text: `INSERT INTO ${table} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  },
  delete: { name: `storebench-delete-${table}`, text: `DELETE FROM ${table} WHERE key = $1` },
  // bytea || bytea in the upsert: one statement, atomic, an absent key starting empty.
  append: {
    name: `storebench-append-${table}`,
    text: `INSERT INTO ${table} (key, value) VALUES ($1, $2) ` +
      `ON CONFLICT (key) DO UPDATE SET value = ${table}.value || excluded.value`,
  },
});

// Study 004's schema: an item points at its locations row, and a read walks both tables' indexes.
// Two writers creating one item at once leave one locations row unreferenced, which no read sees.
const joinStatements = (table) => {
  const [items, locations] = [`${table}_item_locations`, `${table}_locations`];
  const upsert = (newValue) => `WITH target AS (SELECT location_id FROM ${items} WHERE item = $1),
    updated AS (UPDATE ${locations} SET value = ${newValue} WHERE id IN (SELECT location_id FROM target) RETURNING id),
    inserted AS (INSERT INTO ${locations} (value) SELECT $2::bytea WHERE NOT EXISTS (SELECT 1 FROM target) RETURNING id)
    INSERT INTO ${items} (item, location_id) SELECT $1, id FROM inserted ON CONFLICT (item) DO NOTHING`;
  return {
    get: {
      name: `storebench-join-get-${table}`,
      text: `SELECT l.value FROM ${items} i JOIN ${locations} l ON l.id = i.location_id WHERE i.item = $1`,
    },
    set: { name: `storebench-join-set-${table}`, text: upsert('$2::bytea') },
    append: { name: `storebench-join-append-${table}`, text: upsert(`${locations}.value || $2::bytea`) },
    delete: {
      name: `storebench-join-delete-${table}`,
      text: `WITH gone AS (DELETE FROM ${items} WHERE item = $1 RETURNING location_id)
        DELETE FROM ${locations} WHERE id IN (SELECT location_id FROM gone)`,
    },
  };
};

// One transaction of multi-row upserts, the values as binary parameters (no hex text on the way in).
async function setManyKeyed(pool, table, entries) {
  const latest = lastWriteWins(entries); // one upsert cannot touch a row twice
  const writes = latest.filter(([, bytes]) => bytes != null);
  const deletes = latest.filter(([, bytes]) => bytes == null).map(([key]) => key);
  await inTransaction(pool, async (client) => {
    for (const rows of chunksOf(writes, ROWS_PER_STATEMENT)) {
      const placeholders = rows.map((_, i) => `($${2 * i + 1}, $${2 * i + 2})`).join(', ');
      await client.query(
        `INSERT INTO ${table} (key, value) VALUES ${placeholders} ` +
          'ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        rows.flat(),
      );
    }
    if (deletes.length) await client.query(`DELETE FROM ${table} WHERE key = ANY($1::text[])`, [deletes]);
  });
}

async function setManyJoined(pool, statements, entries) {
  await inTransaction(pool, async (client) => {
    for (const [key, bytes] of lastWriteWins(entries)) {
      const statement = bytes == null
        ? { ...statements.delete, values: [key] }
        : { ...statements.set, values: [key, bytes] };
      await client.query(statement);
    }
  });
}

async function inTransaction(pool, work) {
  const client = await pool.connect();
  // A checked-out client is its holder's to watch: a server gone mid-transaction emits 'error', which
  // unheard would end the app. The query in progress rejects with the same error, handled below.
  const onError = () => {};
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    await work(client);
    await client.query('COMMIT');
    client.removeListener('error', onError);
    client.release();
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    client.removeListener('error', onError);
    client.release(error); // a broken connection is not handed out again
    throw error;
  }
}
