// redis+postgres in several app processes at once (app.js --workers N): one journal in Redis,
// one queue per process. Each process's queue holds the writes it acknowledged, so two writes
// of one key through two processes sit in two queues, and two flushes could land them in
// PostgreSQL in either order: the older value last, for good. Here a flush runs under one
// PostgreSQL advisory lock shared by every process, and writes only the entries whose token is
// still the key's newest in the journal (a newer write's process flushes that one, before or
// after, and a newer flush forgets it). An entry whose token is gone was replaced by a write
// PostgreSQL already has: skipped too. Unless Redis lost the journal (its epoch changed or
// went): then each process writes what it holds, as one process does.
import { redactText } from '../../util/redact.js';

// One lock for the layer's table: pg_advisory_lock takes a bigint, hashtext makes one of its name.
const LOCK = 'SELECT pg_advisory_lock(hashtext($1))';
const UNLOCK = 'SELECT pg_advisory_unlock(hashtext($1))';

/**
 * The flush of one process of several. write(batch, writeBatch): under the lock, the batch's
 * entries that are still the newest (the whole batch when Redis lost the journal) go to
 * writeBatch(entries), which makes them durable and forgets them in the journal.
 * @param {object} pg  node-postgres
 * @param {{ url: string, ca?: string }} postgres  the connection
 * @param {object} journal  write-behind-journal.js's, after epoch() was read as `epoch`
 * @param {string} table  the layer's table, naming the lock
 */
export function sharedFlush(pg, postgres, { journal, epoch, table }) {
  let client = null; // the connection that holds the lock: its own, so the pool's are never held up
  let known = epoch;
  const connect = async () => {
    if (client) return client;
    const fresh = new pg.Client({
      connectionString: postgres.url,
      connectionTimeoutMillis: 5000,
      ...(postgres.ca ? { ssl: { ca: postgres.ca } } : {}),
    });
    // A dropped connection: the next flush connects again (PostgreSQL released its lock).
    const drop = () => { if (client === fresh) client = null; };
    fresh.on('error', drop);
    fresh.on('end', drop);
    await fresh.connect();
    client = fresh;
    return fresh;
  };

  return {
    async write(batch, writeBatch) {
      const locked = await connect();
      await locked.query(LOCK, [table]);
      try {
        const { tokens, epoch: now } = await journal.current(batch.map(([key]) => key));
        const lost = now !== known;
        if (lost) known = await journal.epoch();
        await writeBatch(lost ? batch : batch.filter(([, , token], i) => tokens[i] === token));
      } finally {
        await locked.query(UNLOCK, [table]).catch((error) => {
          locked.end().catch(() => {}); // its session's end releases the lock
          throw new Error(`could not release the flush lock: ${redactText(error.message)}`, { cause: error });
        });
      }
    },
    close: () => (client ? client.end().catch(() => {}) : Promise.resolve()),
  };
}
