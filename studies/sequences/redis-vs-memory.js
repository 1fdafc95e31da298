// The redis-vs-memory study's four methods as lists of store operations (pure data).

/** The counts the study published, and its four methods in its table's order. */
export const STUDY_COUNTS = Object.freeze([1_000, 10_000, 100_000]);
export const METHODS = Object.freeze(['set once', 'set para', 'get once', 'get para']);
// Ours, for the study's advice to split often-updated data into a key each. Not ' once' or
// ' para' in their names: the study's checks compare those methods only.
export const UPDATE_METHODS = Object.freeze(['update in one key', 'update own key']);

const userKey = (id) => `user_${id}`;
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

export const usersOf = (count) => Array.from({ length: count }, (_, id) => userOf(id));

/**
 * The operations of one method over `users`. Serialization happens inside the timing, as the
 * study's JSON.stringify calls were inside its timers.
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

export const keysOf = (count) => [...Array.from({ length: count }, (_, id) => userKey(id)), ALL_USERS_KEY];
