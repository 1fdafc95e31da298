// client-libraries' verdicts, which the study's own tables cannot feed (its columns are the two
// Kyoto Tycoon clients, ours node-redis, ioredis and the CouchDB clients; its CPU figure is a
// sentence, not a table): each judged on figures shaped as a run gives them, holding, and
// turned the other way, not holding.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judge, HOLDS, FAILS } from '../../result/scenarios/verdicts.js';
import clientLibraries from '../../studies/scenarios/client-libraries.js';

const SCRIPTS = ['serial_put_large', 'serial_put_big', 'get_random', 'get_random_large', 'get_random_big'];

const conclusion = (id) => clientLibraries.conclusions.find((candidate) => candidate.id === id);
// The check's own outcome: without noCounter, which would print it as not proven (scenario-counters.test.js).
const verdictOf = (id, tables) => judge([{ ...conclusion(id), noCounter: undefined }], tables)[0];

// A table of the serial kind's shape: one row per script, one column per client, `figures`
// giving each client's value on every row and `at` overriding single cells.
function table(id, unit, figures, at = {}) {
  const columns = Object.keys(figures).map((client) => ({ id: client, label: client, unit }));
  const cells = Object.fromEntries(SCRIPTS.map((script) => [
    script,
    Object.fromEntries(columns.map(({ id: client }) => [client, at[script]?.[client] ?? figures[client]])),
  ]));
  return { id, rows: SCRIPTS, columns, cells };
}

test('client-bound holds at 90% of a core or more on every script, not when one left the driver idle', () => {
  const busy = table('cpu', '%', { redis: 99, ioredis: 97 });
  assert.equal(verdictOf('client-bound', [busy]).verdict, HOLDS);
  const waiting = table('cpu', '%', { redis: 99, ioredis: 97 },
    { get_random_big: { ioredis: 35 } });
  const verdict = verdictOf('client-bound', [waiting]);
  assert.equal(verdict.verdict, FAILS);
  assert.match(verdict.explanation, /lowest 35%.*get_random_big/);
});

test('redis-pair-like-study holds when one client wins all but serial_put_big, the other that one', () => {
  const likeStudy = table('scripts', 'ms', { redis: 100, ioredis: 200 },
    { serial_put_big: { redis: 900, ioredis: 500 } });
  assert.equal(verdictOf('redis-pair-like-study', [likeStudy]).verdict, HOLDS);
  // The same figures with serial_put_big turned around: one client wins everywhere.
  const oneWinsAll = table('scripts', 'ms', { redis: 100, ioredis: 200 },
    { serial_put_big: { redis: 500, ioredis: 900 } });
  assert.equal(verdictOf('redis-pair-like-study', [oneWinsAll]).verdict, FAILS);
  // Or the lead shared between the two on the ordinary scripts.
  const shared = table('scripts', 'ms', { redis: 100, ioredis: 200 }, {
    get_random: { redis: 300, ioredis: 150 },
    serial_put_big: { redis: 900, ioredis: 500 },
  });
  assert.equal(verdictOf('redis-pair-like-study', [shared]).verdict, FAILS);
});

test('redis-pair-like-study: clients level on a script (within the margin) are not a clear winner', () => {
  const level = table('scripts', 'ms', { redis: 100, ioredis: 101 },
    { serial_put_big: { redis: 900, ioredis: 500 } });
  assert.equal(verdictOf('redis-pair-like-study', [level]).verdict, FAILS);
});

test('couchdb-clients-like-study holds with one of three fastest but at serial_put_big, and not turned around', () => {
  const figures = { cloudant: 300, 'couchdb-nano': 100, 'cloudant-legacy': 200 };
  const likeStudy = table('scripts', 'ms', figures,
    { serial_put_big: { cloudant: 400, 'couchdb-nano': 800, 'cloudant-legacy': 900 } });
  assert.equal(verdictOf('couchdb-clients-like-study', [likeStudy]).verdict, HOLDS);
  const oneWinsAll = table('scripts', 'ms', figures,
    { serial_put_big: { cloudant: 800, 'couchdb-nano': 400, 'cloudant-legacy': 900 } });
  assert.equal(verdictOf('couchdb-clients-like-study', [oneWinsAll]).verdict, FAILS);
});
