// The durable half of redis+postgres's write-behind queue: a Redis hash of the keys whose writes
// PostgreSQL may lack (key -> token of its newest write). Each write changes the value and its entry
// in one MULTI or script, so after a kill -9 the next start finds every such write. An entry goes
// only once PostgreSQL committed it and no newer write replaced it. A token says set (s) or delete (d),
// so a value Redis has lost (evicted) is never taken for a delete.
import { randomUUID } from 'node:crypto';
import { chunksOf } from '../bulk.js';
import { INTERNAL_SEPARATOR } from '../keys.js';

export const JOURNAL_KEY = ['storebench', 'write-behind-queue'].join(INTERNAL_SEPARATOR);
// Set by the first app process to open: gone or changed, Redis lost its data (and the journal).
const EPOCH_KEY = ['storebench', 'write-behind-epoch'].join(INTERNAL_SEPARATOR);

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

// Each command resolves, once Redis has the write and its entry, to the token forget() takes back.
export function writeBehindJournal(client, keyOf) {
  const instance = randomUUID().slice(0, 8); // several apps may share one Redis
  let sequence = 0;
  const token = (kind) => `${kind}${instance}:${++sequence}`;

  return {
    async set(key, bytes) {
      const written = token(SET);
      await client.multi().set(keyOf(key), bytes).hSet(JOURNAL_KEY, key, written).exec();
      return written;
    },
    async delete(key) {
      const written = token(DELETE);
      await client.multi().del(keyOf(key)).hSet(JOURNAL_KEY, key, written).exec();
      return written;
    },
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
    async appendIfExists(key, bytes) {
      const written = token(SET);
      const after = await client.eval(APPEND_IF_EXISTS, {
        keys: [keyOf(key), JOURNAL_KEY],
        arguments: [bytes, key, written],
      });
      return after == null ? null : { after, token: written };
    },
    async appendAndRead(key, bytes) {
      const written = token(SET);
      const [, after] = await client.multi()
        .append(keyOf(key), bytes)
        .get(keyOf(key))
        .hSet(JOURNAL_KEY, key, written)
        .exec();
      return { after, token: written };
    },
    async forget(batch) {
      const pairs = batch.filter(([, , written]) => written).flatMap(([key, , written]) => [key, written]);
      if (pairs.length) await client.eval(FORGET, { keys: [JOURNAL_KEY], arguments: pairs });
    },
    async epoch() {
      const [, now] = await client.multi().set(EPOCH_KEY, randomUUID(), { condition: 'NX' }).get(EPOCH_KEY).exec();
      return String(now);
    },
    // Each key's newest token in the journal (null: none), read together with the epoch.
    async current(keys) {
      const [tokens, epoch] = await client.multi().hmGet(JOURNAL_KEY, keys).get(EPOCH_KEY).exec();
      return { tokens: tokens.map((token) => (token == null ? null : String(token))), epoch: epoch && String(epoch) };
    },
    // What a previous run left unflushed, with each value as Redis holds it now; lost: entries
    // whose value Redis evicted, which cannot be replayed.
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
