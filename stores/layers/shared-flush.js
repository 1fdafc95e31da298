// redis+postgres in several app processes: one journal, one queue per process, so two writes of a
// key through two processes could reach PostgreSQL in either order, the older last. A flush runs
// under one advisory lock and writes only entries whose token is still the key's newest in the
// journal; unless Redis lost the journal (its epoch changed), then each writes what it holds.
import { redactText } from '../../util/redact.js';

// One lock for the layer's table: pg_advisory_lock takes a bigint, hashtext makes one of its name.
const LOCK = 'SELECT pg_advisory_lock(hashtext($1))';
const UNLOCK = 'SELECT pg_advisory_unlock(hashtext($1))';

// write(batch, writeBatch): under the lock, the batch's entries still newest go to writeBatch.
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
