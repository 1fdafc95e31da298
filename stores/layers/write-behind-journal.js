// The durable half of redis+postgres's write-behind queue: which keys Redis holds writes of
// that PostgreSQL may not have yet, kept in Redis itself, in one hash (key -> the token of its
// newest write). Each write changes the value and its journal entry in one MULTI (or one
// script), so Redis never acknowledges a value without its entry: whatever becomes of the app
// (kill -9, a crash, a power cut of its host), the next start finds every write PostgreSQL
// may lack, reads its value from Redis and writes it there. An entry goes only once
// PostgreSQL has committed the write it names, and only if no newer write replaced it.
//
// The value is not copied into the journal: Redis holds it already, under the layer's key. A
// token says whether the write left a value (s) or deleted the key (d), so that a value Redis
// has lost meanwhile (an eviction) is never taken for a delete.
import { randomUUID } from 'node:crypto';
import { chunksOf } from '../bulk.js';
import { INTERNAL_SEPARATOR } from '../keys.js';

// Outside the key alphabet (#), and no key under the layer's prefix (storebench#write-behind#)
// can equal it.
export const JOURNAL_KEY = ['storebench', 'write-behind-queue'].join(INTERNAL_SEPARATOR);
// A random value the first app process to open sets: gone or changed, Redis lost its data
// (and the journal with it) since (see epoch() and current()).
export const EPOCH_KEY = ['storebench', 'write-behind-epoch'].join(INTERNAL_SEPARATOR);

const SET = 's';
const DELETE = 'd';
// As redis.js cuts an MSET: one command must not hold the server long.
const MSET_CHUNK = { maxEntries: 500, maxBytes: 1024 * 1024 };

// APPEND only to a key that exists, note it in the journal, return the value after (nil when absent).
const APPEND_IF_EXISTS = `if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('APPEND', KEYS[1], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
return redis.call('GET', KEYS[1])`;
// Drops each (field, token) pair's entry if it still holds that token: a newer write keeps its own.
const FORGET = `local n = 0
for i = 1, #ARGV, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then n = n + redis.call('HDEL', KEYS[1], ARGV[i]) end
end
return n`;

/**
 * The journaled write commands over one node-redis client. Each resolves, once Redis has the
 * write and its entry, to the token the queue must hand back to forget().
 * @param {object} client  node-redis, values as Buffers
 * @param {(key: string) => string} keyOf  a user key's Redis key (the layer's prefix)
 */
export function writeBehindJournal(client, keyOf) {
  const instance = randomUUID().slice(0, 8); // several apps may share one Redis
  let sequence = 0;
  const token = (kind) => `${kind}${instance}:${++sequence}`;

  return {
    /** Sets key; resolves to its token. */
    async set(key, bytes) {
      const written = token(SET);
      await client.multi().set(keyOf(key), bytes).hSet(JOURNAL_KEY, key, written).exec();
      return written;
    },
    /** Deletes key; resolves to its token. */
    async delete(key) {
      const written = token(DELETE);
      await client.multi().del(keyOf(key)).hSet(JOURNAL_KEY, key, written).exec();
      return written;
    },
    /** Sets every entry, a MULTI per chunk; resolves to their tokens, in entries' order. */
    async setMany(entries) {
      const tokens = entries.map(() => token(SET));
      let at = 0;
      await Promise.all(chunksOf(entries, MSET_CHUNK).map((chunk) => {
        const first = at;
        at += chunk.length;
        const fields = chunk.flatMap(([key], i) => [key, tokens[first + i]]);
        return client.multi().mSet(chunk.map(([key, bytes]) => [keyOf(key), bytes])).hSet(JOURNAL_KEY, fields).exec();
      }));
      return tokens;
    },
    /**
     * Appends to a key that exists; resolves to { after, token }, or null when it is absent
     * (nothing written).
     */
    async appendIfExists(key, bytes) {
      const written = token(SET);
      const after = await client.eval(APPEND_IF_EXISTS, {
        keys: [keyOf(key), JOURNAL_KEY],
        arguments: [bytes, key, written],
      });
      return after == null ? null : { after, token: written };
    },
    /** Appends (an absent key starts empty); resolves to { after, token }. */
    async appendAndRead(key, bytes) {
      const written = token(SET);
      const [, after] = await client.multi()
        .append(keyOf(key), bytes)
        .get(keyOf(key))
        .hSet(JOURNAL_KEY, key, written)
        .exec();
      return { after, token: written };
    },
    /**
     * Drops the entries of writes PostgreSQL has committed ([key, bytes, token] triples), unless
     * a newer write replaced them.
     */
    async forget(batch) {
      const pairs = batch.filter(([, , written]) => written).flatMap(([key, , written]) => [key, written]);
      if (pairs.length) await client.eval(FORGET, { keys: [JOURNAL_KEY], arguments: pairs });
    },
    /**
     * The journal's epoch: set here when Redis has none, else the one there. Several app
     * processes that opened on the same data see the same one.
     */
    async epoch() {
      const [, now] = await client.multi().set(EPOCH_KEY, randomUUID(), { condition: 'NX' }).get(EPOCH_KEY).exec();
      return String(now);
    },
    /**
     * For each key, the token of its newest write the journal holds (null: none, PostgreSQL has
     * it or Redis lost the journal), read together with the epoch.
     * @returns {Promise<{ tokens: Array<string|null>, epoch: string|null }>}
     */
    async current(keys) {
      const [tokens, epoch] = await client.multi().hmGet(JOURNAL_KEY, keys).get(EPOCH_KEY).exec();
      return { tokens: tokens.map((token) => (token == null ? null : String(token))), epoch: epoch && String(epoch) };
    },
    /**
     * The writes a previous run (or another app on this Redis) left unflushed: [key, bytes|null,
     * token] triples with each key's value as Redis holds it now, null for a delete, and lost:
     * the entries whose value Redis no longer has (evicted), which cannot be replayed.
     */
    async unflushed() {
      const entries = Object.entries(await client.hGetAll(JOURNAL_KEY))
        .map(([key, written]) => [String(key), String(written)]);
      const sets = entries.filter(([, written]) => written.startsWith(SET));
      const values = new Map();
      for (const chunk of chunksOf(sets, { maxEntries: 500 })) {
        const found = await client.mGet(chunk.map(([key]) => keyOf(key)));
        chunk.forEach(([key], i) => values.set(key, found[i]));
      }
      const writes = [];
      const lost = [];
      for (const [key, written] of entries) {
        if (written.startsWith(DELETE)) writes.push([key, null, written]);
        else if (values.get(key) != null) writes.push([key, values.get(key), written]);
        else lost.push([key, null, written]);
      }
      return { writes, lost };
    },
  };
}
