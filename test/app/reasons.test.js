// A store that cannot be had says why in words a user can act on: which setting, what is
// wrong with it, what to do. The app serves the others regardless.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';
import { startApp } from '../../app/start-app.js';
import { freePort } from '../../embedded/child-process.js';

async function storesOf(env, stores) {
  const app = await startApp({
    port: 0, host: '127.0.0.1', stores: ['memory', ...stores], embedded: false, env: { PATH: process.env.PATH, ...env },
  });
  try {
    const list = (await (await fetch(`${app.url}/stores`)).json()).stores;
    assert.equal(list.find((store) => store.name === 'memory').status, 'up', 'the app serves the others');
    return Object.fromEntries(list.map((store) => [store.name, store]));
  } finally {
    await app.close();
  }
}

test('an IAM token service that refuses connections is named as IAM, with its URL', async () => {
  // Pins #9.6: a refused IAM endpoint read "ECONNREFUSED 127.0.0.1:443" without saying it was IAM.
  const iamPort = await freePort();
  const stores = await storesOf({
    CLOUDANT_URL: `http://127.0.0.1:${await freePort()}`,
    CLOUDANT_APIKEY: 'Iam-Api-Key-0123456789',
    CLOUDANT_IAM_URL: `http://127.0.0.1:${iamPort}`,
  }, ['cloudant', 'cloudant-legacy']);
  for (const name of ['cloudant', 'cloudant-legacy']) {
    assert.equal(stores[name].reasonCode, 'OPEN_FAILED', name);
    assert.equal(
      stores[name].reason,
      `could not get an IAM token from the IAM token service at http://127.0.0.1:${iamPort}: connect ECONNREFUSED 127.0.0.1:${iamPort}; check that the app can reach it, or set CLOUDANT_IAM_URL`,
      name,
    );
  }
});

test('an API key the IAM token service refuses says so, with the service\'s own words', async (t) => {
  const iam = createServer((req, res) => {
    res.writeHead(400, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({
      errorCode: 'BXNIM0415E', errorMessage: 'Provided API key could not be found.', context: {},
    }));
  });
  await new Promise((resolve) => iam.listen(0, '127.0.0.1', resolve));
  t.after(() => iam.close());
  const iamUrl = `http://127.0.0.1:${iam.address().port}`;
  const stores = await storesOf({ CLOUDANT_URL: `http://127.0.0.1:${await freePort()}`, CLOUDANT_APIKEY: 'Wrong-Api-Key-0123', CLOUDANT_IAM_URL: `${iamUrl}/identity/token` }, ['cloudant']);
  assert.equal(stores.cloudant.reason, `the IAM token service at ${iamUrl} refused the API key ` +
    '(HTTP 400: Provided API key could not be found.); check CLOUDANT_APIKEY');
  assert.ok(!JSON.stringify(stores).includes('Wrong-Api-Key-0123'));
});

test('MEMCACHED_URL=\'::::\' and a Tarantool user with no password are refused with a reason (BAD_URL)', async () => {
  // Pins #9.6: '::::' silently used 127.0.0.1:11211; tarantool://admin@host silently connected as guest.
  const stores = await storesOf({ MEMCACHED_URL: '::::', TARANTOOL_URL: 'tarantool://admin@127.0.0.1:3301' }, ['memcached', 'tarantool', 'tarantool-memtx']);
  assert.equal(stores.memcached.reasonCode, 'BAD_URL');
  assert.equal(stores.memcached.reason,
    'MEMCACHED_URL is not a memcached server list (host:port,host:port): it has no host');
  for (const name of ['tarantool', 'tarantool-memtx']) {
    assert.equal(stores[name].reasonCode, 'BAD_URL');
    assert.equal(stores[name].reason,
      'TARANTOOL_URL names user "admin" but no password, and the server would take it as guest: ' +
      'put user:password@ in the URL, or no user at all to connect as guest');
  }
});

test('a malformed VCAP_SERVICES binding makes only its store unavailable (BAD_BINDING); the app starts', async () => {
  // Pins #9.5: tags given as text, or a null binding, stopped the app ("cannot start: ...").
  const vcap = {
    'user-provided': [{ name: 'x', label: 'user-provided', tags: 'redis', credentials: { uri: 'redis://127.0.0.1:6390' } }],
    elephantsql: [null],
  };
  const stores = await storesOf({ VCAP_SERVICES: JSON.stringify(vcap) }, ['redis', 'postgres', 'memcached']);
  assert.equal(stores.redis.reasonCode, 'BAD_BINDING');
  assert.equal(stores.redis.reason, 'bound service "x" (user-provided, matched by tag) cannot be used for redis: ' +
    'its tags is text, expected a list of text, e.g. ["redis"]');
  assert.equal(stores.postgres.reasonCode, 'BAD_BINDING');
  assert.equal(stores.postgres.reason, 'entry 1 of VCAP_SERVICES\'s "elephantsql" (elephantsql, matched by label) ' +
    'cannot be used for postgres: it is null, expected a service object');
  assert.equal(stores.memcached.reasonCode, 'NOT_CONFIGURED'); // nothing bound for it: unaffected
});
