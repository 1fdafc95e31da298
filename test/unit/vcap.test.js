// Services bound on Cloud Foundry (VCAP_SERVICES) become connections, by label, tag or
// name, and take their place in the configuration precedence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { homedir } from 'node:os';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cloudFoundryApplication, cloudFoundryEnv, cloudFoundryPort } from '../../config/cf-env.js';
import { boundServices, findBinding, resolveFromVcap } from '../../config/cf-binding.js';
import { connectionFromCredentials } from '../../config/cf-credentials.js';
import { resolveService } from '../../embedded/resolve-service.js';
import { resolveSetting, resolveSettings } from '../../config/precedence.js';
import { services } from '../../config/services.js';
import { couchAuth } from '../../stores/clients/couch-auth.js';
import { vcapFixture } from '../helpers/vcap-fixtures.js';

const envWith = (vcap, extra = {}) => ({ VCAP_SERVICES: JSON.stringify(vcap), ...extra });
const only = (vcap) => Object.values(vcap).flat()[0].credentials;

test('Cloudant with legacy and IAM credentials is used through IAM, the URL without its user:password', () => {
  const vcap = vcapFixture('cloudant-legacy-and-iam');
  const result = resolveFromVcap('couchdb', services.couchdb.vcap, envWith(vcap));
  assert.equal(result.source, 'VCAP_SERVICES storebench-cloudant');
  assert.equal(result.connection.url, `https://${only(vcap).host}`);
  assert.equal(result.connection.apikey, only(vcap).apikey);
  assert.deepEqual(couchAuth(result.connection).auth, { type: 'iam', apikey: only(vcap).apikey, iamUrl: undefined });
});

test('Cloudant with IAM credentials only is used through IAM', () => {
  const vcap = vcapFixture('cloudant-iam-only');
  const { connection } = resolveFromVcap('couchdb', services.couchdb.vcap, envWith(vcap));
  assert.equal(connection.url, only(vcap).url);
  assert.equal(couchAuth(connection).auth.type, 'iam');
});

test('Cloudant with legacy credentials only is used with basic auth from its URL', () => {
  const vcap = vcapFixture('cloudant-legacy');
  const { connection } = resolveFromVcap('couchdb', services.couchdb.vcap, envWith(vcap));
  const { serviceUrl, auth } = couchAuth(connection);
  assert.equal(serviceUrl, `https://${only(vcap).host}`);
  assert.deepEqual(auth, { type: 'basic', username: only(vcap).username, password: only(vcap).password });
});

test('Redis Cloud credentials (port given as a string) become a redis:// URL with the password', () => {
  const vcap = vcapFixture('rediscloud');
  const { connection, source } = resolveFromVcap('redis', services.redis.vcap, envWith(vcap));
  const { hostname, port, password } = only(vcap);
  assert.equal(typeof port, 'string');
  assert.equal(connection.url, `redis://:${password}@${hostname}:${port}`);
  assert.equal(source, 'VCAP_SERVICES storebench-redis');
});

test('IBM Databases for Redis gives its composed rediss:// URL and its CA certificate as PEM', () => {
  const vcap = vcapFixture('databases-for-redis');
  const { connection } = resolveFromVcap('redis', services.redis.vcap, envWith(vcap));
  const rediss = only(vcap).connection.rediss;
  assert.equal(connection.url, rediss.composed[0]);
  assert.match(connection.ca, /^-----BEGIN CERTIFICATE-----\n[\s\S]+-----END CERTIFICATE-----\n$/);
  assert.equal(Buffer.from(connection.ca).toString('base64'), rediss.certificate.certificate_base64);
});

test('a composed URL with a $PASSWORD placeholder gets the password from authentication', () => {
  const { connection } = connectionFromCredentials(
    { connection: { rediss: { authentication: { password: 'p@ss/word' }, composed: ['rediss://admin:$PASSWORD@db.example.com:31000/0'] } } },
    services.redis.vcap,
  );
  assert.equal(connection.url, 'rediss://admin:p%40ss%2Fword@db.example.com:31000/0');
  assert.equal(decodeURIComponent(new URL(connection.url).password), 'p@ss/word');
});

test('user-provided services are matched by name word or tag, each to its own store', () => {
  const vcap = vcapFixture('user-provided');
  const redis = resolveFromVcap('redis', services.redis.vcap, envWith(vcap));
  assert.equal(redis.source, 'VCAP_SERVICES team-redis'); // name "team-redis" has the word redis
  assert.equal(redis.connection.url, only(vcap).uri);
  const couch = resolveFromVcap('couchdb', services.couchdb.vcap, envWith(vcap));
  assert.equal(couch.source, 'VCAP_SERVICES docs-db'); // tagged couchdb
  assert.equal(couchAuth(couch.connection).auth.username, 'couchadmin');
  // A store another helper adds declares its own matcher in config/services.js the same way:
  const postgres = resolveFromVcap(
    'postgres',
    { labels: ['databases-for-postgresql'], tags: ['postgres', 'postgresql'], schemes: ['postgres', 'postgresql'] },
    envWith(vcap),
  );
  assert.equal(postgres.source, 'VCAP_SERVICES storebench-postgres');
});

test('a label match beats a tag match, which beats a name match', () => {
  const bound = [
    { name: 'redis-by-name', label: 'user-provided', tags: [] },
    { name: 'x', label: 'user-provided', tags: ['Redis'] },
    { name: 'y', label: 'rediscloud', tags: [] },
  ];
  assert.equal(findBinding(bound, services.redis.vcap).service.name, 'y');
  assert.equal(findBinding(bound.slice(0, 2), services.redis.vcap).how, 'tag');
  assert.equal(findBinding(bound.slice(0, 1), services.redis.vcap).how, 'name');
  // words, not substrings: "credis-cache" is no redis
  assert.equal(findBinding([{ name: 'credis-cache', label: 'user-provided' }], services.redis.vcap), null);
});

test('nothing bound for a service: null, and config falls through to the embedded default', async () => {
  const env = envWith(vcapFixture('rediscloud'));
  assert.equal(resolveFromVcap('couchdb', services.couchdb.vcap, env), null);
  const resolved = await resolveService('couchdb', { env, embedded: false });
  assert.match(resolved.unavailable, /not configured/);
});

test('a matched service without usable credentials is unavailable, with field names but no values', () => {
  const vcap = {
    'user-provided': [
      { name: 'my-redis', label: 'user-provided', tags: [], credentials: { token: 'Zz9Yy8Xx7Ww6', region: 'eu' } },
    ],
  };
  const result = resolveFromVcap('redis', services.redis.vcap, envWith(vcap));
  assert.match(result.unavailable, /bound service "my-redis" \(user-provided, matched by name\) cannot be used for redis: no usable credentials \(fields: region, token/);
  assert.ok(!result.unavailable.includes('Zz9Yy8Xx7Ww6'));
  const wrongScheme = resolveFromVcap('redis', services.redis.vcap, envWith({ x: [{ name: 'redis', credentials: { url: 'https://u:Qq1Ww2Ee3Rr4@h' } }] }));
  assert.match(wrongScheme.unavailable, /its URL scheme is https:, expected redis: or rediss:/);
  assert.ok(!wrongScheme.unavailable.includes('Qq1Ww2Ee3Rr4'));
});

test('VCAP_SERVICES that is not JSON makes the service unavailable without quoting it', async () => {
  const env = { VCAP_SERVICES: '{"rediscloud":[{"credentials":{"password":"Broken5ecret99"' };
  const resolved = await resolveService('redis', { env });
  assert.match(resolved.unavailable, /^VCAP_SERVICES is set but is not a JSON object \(\d+ characters, not shown/);
  assert.ok(!resolved.unavailable.includes('Broken5ecret99'));
});

test('precedence: explicit option > environment variable > VCAP_SERVICES > embedded default', async () => {
  const vcap = vcapFixture('rediscloud');
  const env = envWith(vcap, { REDIS_URL: 'redis://127.0.0.1:6390' });
  const option = await resolveService('redis', { env, options: { redisUrl: 'redis://127.0.0.1:6391' } });
  assert.equal(option.connection.source, 'option');
  assert.equal(option.connection.url, 'redis://127.0.0.1:6391');
  const variable = await resolveService('redis', { env });
  assert.equal(variable.connection.source, 'REDIS_URL');
  const bound = await resolveService('redis', { env: envWith(vcap) });
  assert.equal(bound.connection.source, 'VCAP_SERVICES storebench-redis');
  assert.equal(bound.connection.display, `redis://:***@${only(vcap).hostname}:${only(vcap).port}`);
  assert.equal(bound.stop, undefined); // nothing was started
});

test('CLOUDANT_DB and CLOUDANT_APIKEY (environment) still apply to a bound Cloudant', async () => {
  const vcap = vcapFixture('cloudant-legacy');
  const env = envWith(vcap, { CLOUDANT_DB: 'bench2', CLOUDANT_APIKEY: 'Env-Api-Key-0123' });
  const { connection } = await resolveService('couchdb', { env, embedded: false });
  // the database is a store setting, handed to the adapters
  assert.equal(resolveSettings({ env }, ['store']).settings.couchdbDatabase, 'bench2');
  assert.equal(couchAuth(connection).auth.apikey, 'Env-Api-Key-0123'); // environment beats the binding
  assert.equal(connection.source, 'VCAP_SERVICES old-cloudant');
  assert.equal(connection.display, `https://${only(vcap).username}:***@${only(vcap).host}/`);
});

test('on Cloud Foundry the port is the platform\'s (in cfenv\'s order), off it there is no Cloud Foundry app', () => {
  const application = {
    application_name: 'storebench',
    name: 'storebench',
    application_uris: ['storebench.example.com'],
    space_name: 'dev',
  };
  const env = { PORT: '8080', VCAP_APPLICATION: JSON.stringify(application) };
  assert.equal(cloudFoundryApplication(env).name, 'storebench');
  assert.equal(resolveSetting('port', { env }).value, 8080);
  assert.equal(
    resolveSetting('port', { env: { CF_INSTANCE_PORT: '61001', VCAP_APPLICATION: JSON.stringify(application) } }).value,
    61001,
  );
  // no port at all: the app's default
  assert.equal(resolveSetting('port', { env: { VCAP_APPLICATION: '{}' } }).value, 3000);
  assert.equal(cloudFoundryApplication({ PORT: '8080' }), null);
  assert.equal(cloudFoundryPort({ PORT: '8080', CF_INSTANCE_PORT: '61001' }), undefined);
  assert.equal(cloudFoundryApplication({}), null);
  assert.equal(cloudFoundryEnv({}), null);
});

test('reading VCAP_SERVICES off Cloud Foundry without PORT leaves ~/.ports.json alone (cfenv would create it)', () => {
  const file = join(homedir(), '.ports.json');
  const before = existsSync(file) ? statSync(file).mtimeMs : null;
  const appEnv = cloudFoundryEnv(envWith(vcapFixture('rediscloud')));
  assert.equal(Object.keys(appEnv.getServices()).join(), 'storebench-redis');
  assert.equal(existsSync(file) ? statSync(file).mtimeMs : null, before);
});

test('tags given as text make only the store they name unavailable (BAD_BINDING), ' +
  'naming the service and the field', async () => {
  // Pins #9.5: this VCAP_SERVICES stopped the app: "cannot start: (list ?? []).map is not a function".
  const vcap = { 'user-provided': [{ name: 'x', label: 'user-provided', tags: 'redis', credentials: { uri: 'redis://127.0.0.1:6390' } }] };
  const resolved = await resolveService('redis', { env: envWith(vcap), embedded: false });
  assert.deepEqual(resolved, {
    code: 'BAD_BINDING',
    unavailable:
        'bound service "x" (user-provided, matched by tag) cannot be used for redis: its tags is text, ' +
        'expected a list of text, e.g. ["redis"]',
  });
  assert.match((await resolveService('postgres', { env: envWith(vcap), embedded: false })).unavailable, /^not configured/);
});

test('a null binding makes only its store unavailable, naming where it is', async () => {
  // Pins #9.5: {"rediscloud":[null]} stopped the app: "Cannot read properties of null".
  const env = envWith({ rediscloud: [null], 'user-provided': [{ name: 'team-postgres', credentials: { uri: 'postgres://u:Pg5ecret1@db.example.com/x' } }] });
  const redis = await resolveService('redis', { env, embedded: false });
  assert.deepEqual(redis, {
    code: 'BAD_BINDING',
    unavailable:
        'entry 1 of VCAP_SERVICES\'s "rediscloud" (rediscloud, matched by label) cannot be used for redis: ' +
        'it is null, expected a service object',
  });
  const postgres = await resolveService('postgres', { env, embedded: false });
  assert.equal(postgres.connection.source, 'VCAP_SERVICES team-postgres'); // the well-formed binding still works
  const notAList = await resolveService('redis', { env: envWith({ rediscloud: { name: 'r' } }), embedded: false });
  assert.match(notAList.unavailable, /VCAP_SERVICES's "rediscloud" \(rediscloud, matched by label\) cannot be used for redis: it is an object, expected a list of services$/);
});

test('credentials that are not an object say so instead of listing "fields: 0, 1, 10, 11..."', () => {
  // Pins #9.6: credentials given as a list read "no usable credentials (fields: 0, 1, 10, 11, ...".
  for (const [credentials, kind] of [[['redis://h:1', 'x'], 'a list'], ['redis://:Cred5ecret@h:1', 'text'], [null, 'null']]) {
    const result = resolveFromVcap(
      'redis',
      services.redis.vcap,
      envWith({ 'user-provided': [{ name: 'my-redis', credentials }] }),
    );
    assert.equal(
      result.unavailable,
      'bound service "my-redis" (user-provided, matched by name) cannot be used for redis: ' +
      `its credentials are ${kind}, expected an object with url, uri, or hostname and port`,
    );
  }
});

test('a numeric Cloudant apikey is reported as such, not as "value.startsWith is not a function"', () => {
  // Pins #9.6: a bound Cloudant whose apikey was a JSON number failed inside the SDK.
  const vcap = { cloudantNoSQLDB: [{ name: 'c', label: 'cloudantNoSQLDB', credentials: { apikey: 123456789, url: 'https://acct.cloudantnosqldb.appdomain.cloud' } }] };
  assert.equal(
    resolveFromVcap('couchdb', services.couchdb.vcap, envWith(vcap)).unavailable,
    'bound service "c" (cloudantNoSQLDB, matched by label) cannot be used for couchdb: ' +
    'its apikey is a number, expected text',
  );
  const password = connectionFromCredentials({ hostname: 'h', port: 1, password: 1234 }, services.redis.vcap);
  assert.deepEqual(password, { problem: 'its password is a number, expected text' });
});

test('boundServices reads what it can of a malformed binding, so it still finds its store', () => {
  const bound = boundServices({ p: [{ name: 7, tags: ['a', 2], credentials: {} }], q: 'x' });
  assert.deepEqual(bound.map((entry) => [entry.what, entry.service.label, entry.service.tags, entry.problem]), [
    [
      'entry 1 of VCAP_SERVICES\'s "p"',
      'p',
      ['a'],
      'its name is a number, expected text; its tags is a list, expected a list of text, e.g. ["redis"]',
    ],
    ['VCAP_SERVICES\'s "q"', 'q', [], 'it is text, expected a list of services'],
  ]);
});
