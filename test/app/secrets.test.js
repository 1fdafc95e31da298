// Configured secrets never reach an answer: /stores, /healthz, the page and error answers show
// neither a password nor a URL that does not parse, and say what is wrong with it instead.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startApp } from '../../app/start-app.js';

const secrets = ['SlashSecret99', 'G4rbage-pw', 'N0tAUrl-pw', 'Mem::::'];
const env = {
  PATH: process.env.PATH,
  REDIS_URL: 'redis://:Pw/SlashSecret99@127.0.0.1:6392',
  POSTGRES_URL: 'garbage G4rbage-pw',
  TARANTOOL_URL: 'not a url N0tAUrl-pw',
  MEMCACHED_URL: 'Mem::::',
};
let app;
let answers;

before(async () => {
  const stores = ['memory', 'redis', 'postgres', 'tarantool', 'memcached'];
  app = await startApp({ port: 0, host: '127.0.0.1', stores, embedded: false, env });
  answers = {};
  const paths = ['/stores', '/healthz', '/', '/redis/key1', '/postgres/key1', '/tarantool/key1', '/memcached/key1'];
  for (const path of paths) {
    answers[path] = await (await fetch(`${app.url}${path}`)).text();
  }
});
after(() => app?.close());

test('a password with an unencoded / and URLs that do not parse appear in no answer', () => {
  // Pins #9.4: /stores showed REDIS_URL's password in clear, and echoed unparseable URLs verbatim.
  for (const [path, text] of Object.entries(answers)) {
    for (const secret of secrets) assert.ok(!text.includes(secret), `${path} shows ${secret}`);
  }
});

test('each such store is unavailable (BAD_URL), its reason naming the variable and what to fix', () => {
  const stores = Object.fromEntries(JSON.parse(answers['/stores']).stores.map((store) => [store.name, store]));
  assert.equal(stores.memory.status, 'up');
  const expected = {
    redis: 'REDIS_URL is not a valid redis:// URL; a / ? # or @ in a user name or password must be percent-encoded (%2F %3F %23 %40)',
    postgres: 'POSTGRES_URL is not a URL (it does not start with scheme://)',
    tarantool: 'TARANTOOL_URL is not a URL (it does not start with scheme://)',
    memcached: 'MEMCACHED_URL is not a memcached server list (host:port,host:port): it is not host:port',
  };
  for (const [name, reason] of Object.entries(expected)) {
    assert.equal(stores[name].status, 'unavailable', name);
    assert.equal(stores[name].reasonCode, 'BAD_URL', name);
    assert.equal(stores[name].reason, reason, name);
    assert.deepEqual(stores[name].servers, {}, `${name}: no server shown`);
  }
  assert.deepEqual(JSON.parse(answers['/redis/key1']), {
    error: `store "redis" is unavailable: ${expected.redis}`, code: 'STORE_UNAVAILABLE', store: 'redis',
  });
});
