// The redis-vs-memory study's four methods (studies/003: Redis vs an in-process cache), as
// lists of store operations over its user objects. Pure data, like the client-libraries
// scripts: studies/op-source.js hands them to the direct engine.

/** The counts the study published, and its four methods in its table's order. */
export const STUDY_COUNTS = Object.freeze([1_000, 10_000, 100_000]);
export const METHODS = Object.freeze(['set once', 'set para', 'get once', 'get para']);
// Ours, for the study's advice to split large, often-updated data into a key each: one user
// changed in the one key holding all (the whole value read, parsed, changed, written back) and
// in its own key (that user alone, read and written). Not ' once' or ' para' in their names:
// the study's checks compare those methods only.
export const UPDATE_METHODS = Object.freeze(['update in one key', 'update own key']);

// The key of user `id` and the key of all users together, as in the study's code.
export const userKey = (id) => `user_${id}`;
export const ALL_USERS_KEY = 'all-users';

/** The study's user object, its exact shape and values (the `frends` spelling included); only id varies. */
export function userOf(id) {
  return {
    id,
    name: 'Takashi',
    location: 'Kyoto',
    company: 'Idutsu',
    age: 30,
    frends: [
      { id: 15000, name: 'Takashi' },
      { id: 15001, name: 'Takashi' },
    ],
  };
}

/** The users 0..count-1, built before any timing (the study built its array first too). */
export const usersOf = (count) => Array.from({ length: count }, (_, id) => userOf(id));

/**
 * The operations of one method over `users`: set para and get para one per user, each under
 * its own key (sent all at once by the batch kind); set once and get once a single operation
 * on one key holding them all. Serialization happens when a set is asked for, inside the
 * timing, as the study's JSON.stringify calls were inside its timers. get para reads `keys`
 * when given (what the store's key listing found, as the study's code listed them first), else
 * each user's key.
 */
export function methodOps(method, users, { keys } = {}) {
  switch (method) {
    case 'set para':
      return users.map((user) => ({ op: 'set', key: userKey(user.id), body: () => Buffer.from(JSON.stringify(user)) }));
    case 'get para':
      return (keys ?? users.map((user) => userKey(user.id))).map((key) => ({ op: 'get', key }));
    case 'set once':
      return [{ op: 'set', key: ALL_USERS_KEY, body: () => Buffer.from(JSON.stringify(users)) }];
    case 'get once':
      return [{ op: 'get', key: ALL_USERS_KEY }];
    // The read, the change (parse, change one user, stringify) and the write, all timed: the
    // same work for both layouts but for how much of it there is.
    case 'update in one key': {
      const at = Math.floor(users.length / 2);
      const change = (value) => {
        const all = JSON.parse(value);
        all[at].age += 1;
        return Buffer.from(JSON.stringify(all));
      };
      return [{ op: 'update', key: ALL_USERS_KEY, change }];
    }
    case 'update own key': {
      const user = users[Math.floor(users.length / 2)];
      const change = (value) => {
        const one = JSON.parse(value);
        one.age += 1;
        return Buffer.from(JSON.stringify(one));
      };
      return [{ op: 'update', key: userKey(user.id), change }];
    }
    default:
      throw new TypeError(`unknown method ${method} (known: ${[...METHODS, ...UPDATE_METHODS].join(', ')})`);
  }
}

/** Every key the methods write for `count` users (to clear before and after). */
export const keysOf = (count) => [...Array.from({ length: count }, (_, id) => userKey(id)), ALL_USERS_KEY];
