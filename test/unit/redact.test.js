// Nothing secret is shown: URLs lose their passwords where they sit, and printed service
// credentials keep their shape but none of their secrets. Masking never searches text for a
// secret's value, so it never rewrites a name, a key or a route.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { maskCredentials, redactDeep, redactText, redactUrl } from '../../util/redact.js';
import { assertNoSecrets, fixtureSecrets, vcapFixture } from '../helpers/vcap-fixtures.js';

test('redactUrl replaces the password with *** and keeps the rest', () => {
  assert.equal(redactUrl('redis://:s3cretpw@host.example.com:6379/0'), 'redis://:***@host.example.com:6379/0');
  assert.equal(redactUrl('https://user:pa%40ss@db.example.com/'), 'https://user:***@db.example.com/');
  assert.equal(redactUrl('rediss://admin:pw@h:1/0'), 'rediss://admin:***@h:1/0');
  assert.equal(redactUrl('https://db.example.com/?apikey=abc123&db=x'), 'https://db.example.com/?apikey=***&db=x');
  assert.equal(redactUrl('redis://127.0.0.1:6379'), 'redis://127.0.0.1:6379');
});

test('redactText masks credentials inside any URL in free text', () => {
  assert.equal(
    redactText('connect ECONNREFUSED redis://default:hunter22@10.0.0.1:6379 (and https://tok3n@x.io)'),
    'connect ECONNREFUSED redis://default:***@10.0.0.1:6379 (and https://***@x.io)',
  );
});

test('a password that is also a name is masked in its URL only: the name, a key and a route stay as they are', () => {
  // Pins #18.1: with REDIS_URL=redis://:memory@..., masking was a substring replace of the
  // password everywhere, so the store memory showed as *** and the driver swept /***/key1.
  assert.equal(redactUrl('redis://:memory@127.0.0.1:6379'), 'redis://:***@127.0.0.1:6379');
  assert.equal(redactUrl('postgres://postgres:postgres@127.0.0.1:5432/postgres'), 'postgres://postgres:***@127.0.0.1:5432/postgres');
  assert.equal(
    redactText('--stores: the app has no store "memory" (it has: memory, redis)'),
    '--stores: the app has no store "memory" (it has: memory, redis)',
  );
  assert.equal(
    redactText('GET /memory/key1 404: key "memory" not found in store "memory"'),
    'GET /memory/key1 404: key "memory" not found in store "memory"',
  );
  assert.equal(
    redactText('password authentication failed for user "postgres"'),
    'password authentication failed for user "postgres"',
  );
  assert.deepEqual(redactDeep({ name: 'memory', servers: { redis: 'redis://:memory@h:1' } }), { name: 'memory', servers: { redis: 'redis://:***@h:1' } });
});

for (const name of [
  'cloudant-legacy-and-iam', 'cloudant-iam-only', 'cloudant-legacy',
  'rediscloud', 'databases-for-redis', 'user-provided',
]) {
  test(`maskCredentials shows no secret of the ${name} binding and keeps its shape`, () => {
    const vcap = vcapFixture(name);
    const masked = maskCredentials(vcap);
    const text = JSON.stringify(masked);
    assertNoSecrets(assert, text, fixtureSecrets(vcap), 'maskCredentials');
    // the non-secret parts are all still there
    const binding = Object.values(masked).flat()[0];
    const original = Object.values(vcap).flat()[0];
    assert.equal(binding.name, original.name);
    assert.equal(binding.label, original.label);
    assert.deepEqual(Object.keys(binding.credentials), Object.keys(original.credentials));
    if (original.credentials.host) assert.equal(binding.credentials.host, original.credentials.host);
    if (original.credentials.hostname) assert.equal(binding.credentials.hostname, original.credentials.hostname);
  });
}

test('maskCredentials masks a password inside a composed command line and a URL', () => {
  const masked = maskCredentials(vcapFixture('databases-for-redis'));
  const { cli, rediss } = Object.values(masked).flat()[0].credentials.connection;
  assert.match(cli.composed[0], /^REDIS_PASSWORD=\*\*\* redli -u admin --tls/);
  assert.match(rediss.composed[0], /^rediss:\/\/admin:\*\*\*@b3c1f0e2-/);
  assert.equal(rediss.authentication.password, '***');
  assert.equal(rediss.authentication.username, 'admin');
});

test('a password with an unencoded / is never shown, in a URL or anywhere else', () => {
  // Pins #9.4: REDIS_URL='redis://:Pw/SlashSecret99@...' showed its password in clear in /stores.
  const url = 'redis://:Pw/SlashSecret99@127.0.0.1:6392';
  assert.equal(redactUrl(url), 'redis://… (unparseable, not shown)');
  assert.equal(redactText(`cannot connect to ${url}: refused`), 'cannot connect to redis://:***@127.0.0.1:6392: refused');
  // a URL that parses, but only because the / cut the password short: host "u", port 12
  assert.equal(redactUrl('https://u:12/Cut5ecret@h.example.com'), 'https://… (unparseable, not shown)');
});

test('text that is not a URL is never echoed', () => {
  // Pins #9.4: REDIS_URL='not a url <pw>' and POSTGRES_URL='garbage <pw>' were echoed verbatim.
  // (Nor is it handed to a client, which might quote it: the store is BAD_URL, test/app/secrets.test.js.)
  for (const text of ['not a url Hidden<pw>1', 'garbage Other<pw>2']) {
    assert.equal(redactUrl(text), '(unparseable, not shown)');
  }
});

test('a list of URLs (REDIS_CLUSTER_URLS) is redacted URL by URL; ' +
  'memjs server lists only where they are expected', () => {
  assert.equal(redactUrl('redis://:pw1@n1:6379,redis://n2:6379,redis://:p/w2@n3:1'), 'redis://:***@n1:6379,redis://n2:6379,redis://… (unparseable, not shown)');
  assert.equal(redactUrl('user:Mem5ecret@m1:11211,m2:11211', { serverList: true }), '***@m1:11211,m2:11211');
  assert.equal(redactUrl('user:Mem5ecret@m1:11211,m2:11211'), '(unparseable, not shown)');
  assert.equal(redactUrl('::::', { serverList: true }), '(unparseable, not shown)');
});

test('redactText masks everything before a URL\'s last @, and each URL of a list', () => {
  assert.equal(redactText('at redis://:p@ss/w@h:1 and https://u:x@a,https://u:y@b'), 'at redis://:***@h:1 and https://u:***@a,https://u:***@b');
});

test('redactDeep masks the URL credentials in every string of an answer body', () => {
  assert.deepEqual(redactDeep({ a: ['x https://tok3n@x.io', 1, null], b: { c: 'redis://:pw@h' } }), { a: ['x https://***@x.io', 1, null], b: { c: 'redis://:***@h' } });
});

test('maskCredentials masks a binding\'s secrets inside its credentials, ' +
  'never in its name, label, plan or tags', () => {
  const binding = { name: 'redis-memory', label: 'redis', plan: 'memory', tags: ['memory', 'redis'], credentials: { password: 'memory', uri: 'redis://:memory@h:1', note: 'AUTH memory' } };
  const masked = maskCredentials({ redis: [binding] }).redis[0];
  assert.deepEqual(
    { name: masked.name, label: masked.label, plan: masked.plan, tags: masked.tags },
    { name: 'redis-memory', label: 'redis', plan: 'memory', tags: ['memory', 'redis'] },
  );
  assert.deepEqual(masked.credentials, { password: '***', uri: 'redis://:***@h:1', note: 'AUTH ***' });
});
