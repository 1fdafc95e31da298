// The operation sequences of the direct-mode scenarios (client-libraries, redis-vs-memory): the
// exact count, key length and value size of every operation the studies describe, and how the
// op source turns them into the direct engine's requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  planScripts, SCRIPT_NAMES, STUDY, GET_POOL, APPENDS_PER_KEY,
} from '../../studies/sequences/client-libraries.js';
import {
  userOf, usersOf, methodOps, keysOf, METHODS, UPDATE_METHODS, ALL_USERS_KEY,
} from '../../studies/sequences/redis-vs-memory.js';
import { createOpSource } from '../../studies/op-source.js';
import { assertKey } from '../../stores/keys.js';

// Counts of the ops matching `where`, grouped by "op key-length size".
function shapeOf(ops) {
  const counts = {};
  for (const { op, key, size } of ops) {
    const shape = `${op} ${key.length} ${size}`;
    counts[shape] = (counts[shape] ?? 0) + 1;
  }
  return counts;
}
const scriptOf = (plan, name) => plan.scripts.find((script) => script.name === name).ops;

test('client-libraries at the study\'s scale: each script has exactly the study\'s ' +
  'operations, sizes and key lengths', () => {
  const plan = planScripts();
  assert.deepEqual(plan.scripts.map((script) => script.name), [...SCRIPT_NAMES]);

  const putLarge = scriptOf(plan, 'serial_put_large');
  assert.equal(putLarge.length, 144 * 4);
  // Round i: append 33 B to a 14 B key, append 33 B to a key of at most 14 B, set 320 B at a 40 B key,
  // set 320,000 B at a 32 B key.
  for (let i = 0; i < 144; i += 1) {
    const [a, b, small, large] = putLarge.slice(i * 4, i * 4 + 4);
    assert.deepEqual([a.op, a.key.length, a.size], ['append', 14, 33]);
    assert.equal(b.op, 'append');
    assert.ok(b.key.length <= 14, `${b.key} is at most 14 B`);
    assert.equal(b.size, 33);
    assert.notEqual(a.key, b.key);
    assert.deepEqual([small.op, small.key.length, small.size], ['set', 40, 320]);
    assert.deepEqual([large.op, large.key.length, large.size], ['set', 32, 320_000]);
  }
  assert.equal(
    new Set(putLarge.filter((op) => op.size === 320_000).map((op) => op.key)).size,
    144,
    'each large value under its own key',
  );

  const putBig = scriptOf(plan, 'serial_put_big');
  assert.equal(putBig.length, 2 * 4);
  assert.deepEqual(shapeOf(putBig.filter((op) => op.op === 'set')), { 'set 40 320': 2, 'set 32 320000000': 2 });

  const getRandom = scriptOf(plan, 'get_random');
  assert.equal(getRandom.length, 14_400 * 2);
  assert.deepEqual(shapeOf(getRandom), { 'get 14 462': 14_400, 'get 40 320': 14_400 });
  for (let i = 0; i < getRandom.length; i += 2) {
    assert.deepEqual([getRandom[i].size, getRandom[i + 1].size], [462, 320]);
  }
  assert.ok(new Set(getRandom.map((op) => op.key)).size > GET_POOL, 'the picks spread over both pools');

  assert.deepEqual(shapeOf(scriptOf(plan, 'get_random_large')), { 'get 32 320000': 144 });
  assert.deepEqual(shapeOf(scriptOf(plan, 'get_random_big')), { 'get 32 320000000': 1 });
});

test('client-libraries: every key read was written before with the size the read expects, ' +
  'and every key is of the key alphabet', () => {
  const plan = planScripts();
  const written = new Map();
  const writes = [...scriptOf(plan, 'serial_put_large'), ...scriptOf(plan, 'serial_put_big'), ...plan.prepare];
  for (const { op, key, size } of writes) {
    if (op === 'set') written.set(key, size);
  }
  for (const name of ['get_random', 'get_random_large', 'get_random_big']) {
    for (const { key, size } of scriptOf(plan, name)) assert.equal(written.get(key), size, `${name} reads ${key}`);
  }
  assert.deepEqual(shapeOf(plan.prepare), { 'set 14 462': GET_POOL, 'set 40 320': GET_POOL });
  for (const key of plan.keys) assertKey(key, 'test');
  const everyKey = new Set(plan.scripts.flatMap((script) => script.ops.map((op) => op.key)));
  for (const key of everyKey) assert.ok(plan.keys.includes(key), `${key} is among the keys to clean`);
});

test('client-libraries: appends go 14 to a key, so a full key holds 14 x 33 = 462 B, as the study\'s reads', () => {
  const appends = {};
  for (const { op, key, size } of scriptOf(planScripts(), 'serial_put_large')) {
    if (op === 'append') appends[key] = (appends[key] ?? 0) + size;
  }
  const sizes = Object.values(appends);
  assert.equal(APPENDS_PER_KEY * STUDY.appendBytes, STUDY.smallGetBytes);
  assert.equal(sizes.filter((size) => size === 462).length, 2 * Math.floor(144 / 14));
  assert.equal(sizes.reduce((sum, size) => sum + size, 0), 2 * 144 * 33);
});

test('client-libraries at a scale: the rounds and the big value as asked, the same picks for the same seed', () => {
  const iterations = { serial_put_large: 3, serial_put_big: 2, get_random: 20, get_random_large: 3, get_random_big: 1 };
  const plan = planScripts({ iterations, bigValueBytes: 1_000_000, seed: 5 });
  assert.deepEqual(plan.scripts.map((script) => script.ops.length), [12, 8, 40, 3, 1]);
  assert.deepEqual(shapeOf(scriptOf(plan, 'get_random_big')), { 'get 32 1000000': 1 });
  assert.deepEqual(planScripts({ iterations, bigValueBytes: 1_000_000, seed: 5 }), plan);
  assert.notDeepEqual(scriptOf(planScripts({ iterations, seed: 6 }), 'get_random'), scriptOf(plan, 'get_random'));
  assert.throws(() => planScripts({ iterations: { get_random: 0 } }), /get_random: iterations must be a whole number of at least 1/);
});

test('redis-vs-memory: the study\'s user object, exactly, with only the id varying', () => {
  assert.deepEqual(userOf(7), {
    id: 7,
    name: 'Takashi',
    location: 'Kyoto',
    company: 'Idutsu',
    age: 30,
    frends: [{ id: 15000, name: 'Takashi' }, { id: 15001, name: 'Takashi' }],
  });
  assert.equal(
    JSON.stringify(userOf(0)),
    '{"id":0,"name":"Takashi","location":"Kyoto","company":"Idutsu","age":30,' +
    '"frends":[{"id":15000,"name":"Takashi"},{"id":15001,"name":"Takashi"}]}',
  );
  assert.deepEqual(usersOf(3).map((user) => user.id), [0, 1, 2]);
});

test('redis-vs-memory: para is one operation per user under user_<id>, ' +
  'once is one operation on all-users with them all', () => {
  const users = usersOf(1000);
  const setPara = methodOps('set para', users);
  assert.equal(setPara.length, 1000);
  assert.deepEqual(setPara.map((op) => op.key), users.map((user) => `user_${user.id}`));
  assert.ok(setPara.every((op) => op.op === 'set'));
  assert.equal(setPara[12].body().toString(), JSON.stringify(userOf(12)));
  const getPara = methodOps('get para', users);
  assert.deepEqual(getPara.map((op) => [op.op, op.key]), users.map((user) => ['get', `user_${user.id}`]));
  const [setOnce, ...moreSets] = methodOps('set once', users);
  assert.equal(moreSets.length, 0);
  assert.deepEqual([setOnce.op, setOnce.key], ['set', ALL_USERS_KEY]);
  assert.deepEqual(JSON.parse(setOnce.body()), users);
  assert.deepEqual(methodOps('get once', users), [{ op: 'get', key: ALL_USERS_KEY }]);
  assert.deepEqual(keysOf(2), ['user_0', 'user_1', ALL_USERS_KEY]);
  assert.deepEqual([...METHODS], ['set once', 'set para', 'get once', 'get para']);
  assert.throws(() => methodOps('set twice', users), /unknown method set twice/);
});

test('redis-vs-memory updates: one user changed inside the one key holding all (read, then all written back) ' +
  'or in its own key (it alone, read and written); get para gets what a listing found', () => {
  const users = usersOf(10);
  const changed = { ...userOf(5), age: 31 };
  const [inOne, ...moreInOne] = methodOps('update in one key', users);
  assert.equal(moreInOne.length, 0);
  assert.deepEqual([inOne.op, inOne.key], ['update', ALL_USERS_KEY]);
  // The change is made from the value read, inside the timing.
  const all = Buffer.from(JSON.stringify(users));
  assert.deepEqual(JSON.parse(inOne.change(all)), users.map((user) => (user.id === 5 ? changed : user)));
  const [own, ...moreOwn] = methodOps('update own key', users);
  assert.equal(moreOwn.length, 0);
  assert.deepEqual([own.op, own.key], ['update', 'user_5']);
  assert.deepEqual(JSON.parse(own.change(Buffer.from(JSON.stringify(userOf(5))))), changed);
  assert.deepEqual([...UPDATE_METHODS], ['update in one key', 'update own key']);
  assert.deepEqual(methodOps('get para', users, { keys: ['user_1', 'user_3'] }),
    [{ op: 'get', key: 'user_1' }, { op: 'get', key: 'user_3' }]);
  // An update is a read-modify-write request whose write is made from what the read found.
  const source = createOpSource([inOne], { basePath: '/redis' });
  const request = source.next();
  assert.deepEqual([request.operation, request.method, request.path],
    ['read-modify-write', 'GET', `/redis/${ALL_USERS_KEY}`]);
  assert.equal(request.then.method, 'PUT');
  assert.equal(typeof request.then.body, 'function');
});

test('the op source hands out the list in order as GET, PUT and POST .../append requests, ' +
  'and times it from the first to the last settle', () => {
  const ops = [
    { op: 'append', key: 'a', size: 3 },
    { op: 'set', key: 'b', size: 5 },
    { op: 'get', key: 'b', size: 5 },
    { op: 'set', key: 'c', body: () => Buffer.from('made late') },
  ];
  const source = createOpSource(ops, { basePath: '/redis/' });
  assert.deepEqual(source.operations, ['append', 'write', 'read']);
  assert.equal(source.elapsedMs(), null);
  const requests = ops.map(() => source.next());
  assert.deepEqual(requests.map((r) => [r.operation, r.method, r.path, r.body?.length ?? null]), [
    ['append', 'POST', '/redis/a/append', 3],
    ['write', 'PUT', '/redis/b', 5],
    ['read', 'GET', '/redis/b', null],
    ['write', 'PUT', '/redis/c', 9],
  ]);
  assert.throws(() => source.next(), /all 4 operations were handed out already/);
  requests[0].settle(204, 0);
  requests[1].settle(204, 0);
  requests[2].settle(404, 0);
  requests[3].settle(null, 0);
  assert.ok(source.elapsedMs() >= 0);
  assert.deepEqual(source.outcomes(), { settled: 4, failed: 2, byStatus: { 204: 2, 404: 1, 'no answer': 1 } });
});

test('the op source sends an append to a store without one as read-modify-write: a GET, ' +
  'then a PUT of the value built so far', () => {
  const ops = [
    { op: 'append', key: 'k', size: 2 },
    { op: 'append', key: 'k', size: 2 },
    { op: 'append', key: 'j', size: 2 },
  ];
  const source = createOpSource(ops, { basePath: '', nativeAppend: false });
  assert.deepEqual(source.operations, ['read-modify-write']);
  const [first, second, other] = ops.map(() => source.next());
  assert.deepEqual([first.operation, first.method, first.path, first.body], ['read-modify-write', 'GET', '/k', null]);
  assert.deepEqual([first.then.method, first.then.path, first.then.body.length], ['PUT', '/k', 2]);
  assert.equal(second.then.body.length, 4);
  assert.deepEqual(second.then.body, Buffer.concat([first.then.body, first.then.body]));
  assert.equal(other.then.body.length, 2);
});
