// One rule for every setting: explicit option > environment variable > Cloud Foundry > default
// (config/precedence.js over the table in config/settings.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveSetting, resolveSettings } from '../../config/precedence.js';
import { defaults, settings } from '../../config/settings.js';
import { resolveService } from '../../embedded/resolve-service.js';
import { services } from '../../config/services.js';
import { vcapFixture } from '../helpers/vcap-fixtures.js';

const application = JSON.stringify({
  application_name: 'storebench',
  name: 'storebench',
  space_name: 'dev',
  port: 8081,
});
const valueOf = (key, sources) => {
  const { value, source, problem } = resolveSetting(key, sources);
  assert.equal(problem, undefined);
  return [value, source];
};

test('port: option beats PORT beats Cloud Foundry\'s beats 3000', () => {
  const env = { PORT: '8080', CF_INSTANCE_PORT: '61001', VCAP_APPLICATION: application };
  assert.deepEqual(valueOf('port', { options: { port: 0 }, env }), [0, 'option']); // 0 is a value, not "unset"
  assert.deepEqual(valueOf('port', { options: { port: '4000' }, env }), [4000, 'option']);
  assert.deepEqual(valueOf('port', { env }), [8080, 'PORT']);
  assert.deepEqual(valueOf('port', { env: { ...env, PORT: '' } }), [61001, 'CF_INSTANCE_PORT']);
  assert.deepEqual(
    valueOf('port', { env: { VCAP_APP_PORT: '61002', VCAP_APPLICATION: application } }),
    [61002, 'VCAP_APP_PORT'],
  );
  assert.deepEqual(valueOf('port', { env: { VCAP_APPLICATION: application } }), [8081, 'VCAP_APPLICATION']);
  // on Cloud Foundry with no port at all
  assert.deepEqual(valueOf('port', { env: { VCAP_APPLICATION: '{}' } }), [3000, 'default']);
  // Off Cloud Foundry (no VCAP_APPLICATION) the platform's variables mean nothing.
  assert.deepEqual(valueOf('port', { env: { CF_INSTANCE_PORT: '61001' } }), [3000, 'default']);
  assert.deepEqual(valueOf('port', { env: {} }), [3000, 'default']);
});

test('host: option beats HOST beats 0.0.0.0 on Cloud Foundry beats all interfaces', () => {
  const env = { HOST: '::1', VCAP_APPLICATION: application };
  assert.deepEqual(valueOf('host', { options: { host: '127.0.0.1' }, env }), ['127.0.0.1', 'option']);
  assert.deepEqual(valueOf('host', { env }), ['::1', 'HOST']);
  assert.deepEqual(valueOf('host', { env: { VCAP_APPLICATION: application } }), ['0.0.0.0', 'Cloud Foundry']);
  assert.deepEqual(valueOf('host', { env: { VCAP_APPLICATION: 'not json' } }), [undefined, 'default']);
  assert.deepEqual(valueOf('host', { env: {} }), [undefined, 'default']);
});

test('pool size: option beats POSTGRES_POOL_SIZE beats the default, whatever is bound', () => {
  const env = {
    POSTGRES_POOL_SIZE: '25',
    VCAP_SERVICES: JSON.stringify(vcapFixture('user-provided')),
    VCAP_APPLICATION: application,
  };
  assert.deepEqual(valueOf('postgresPoolSize', { options: { postgresPoolSize: 3 }, env }), [3, 'option']);
  assert.deepEqual(valueOf('postgresPoolSize', { env }), [25, 'POSTGRES_POOL_SIZE']);
  assert.deepEqual(valueOf('postgresPoolSize', { env: { VCAP_APPLICATION: application } }), [10, 'default']);
  assert.equal(defaults.postgresPoolSize, 10);
});

test('a store URL: option beats REDIS_URL beats the bound service beats the embedded default', () => {
  const vcap = vcapFixture('rediscloud');
  const { hostname, port, password } = Object.values(vcap).flat()[0].credentials;
  const env = { REDIS_URL: 'redis://127.0.0.1:6390', VCAP_SERVICES: JSON.stringify(vcap) };
  assert.deepEqual(valueOf('redisUrl', { options: { redisUrl: 'redis://127.0.0.1:6391' }, env }), [{ url: 'redis://127.0.0.1:6391' }, 'option']);
  assert.deepEqual(valueOf('redisUrl', { env }), [{ url: 'redis://127.0.0.1:6390' }, 'REDIS_URL']);
  assert.deepEqual(valueOf('redisUrl', { env: { VCAP_SERVICES: env.VCAP_SERVICES } }), [{ url: `redis://:${password}@${hostname}:${port}` }, 'VCAP_SERVICES storebench-redis']);
  // embedded/resolve-service.js then starts one
  assert.deepEqual(valueOf('redisUrl', { env: {} }), [undefined, 'default']);
  // The first of several variables wins.
  assert.deepEqual(valueOf('postgresUrl', { env: { DATABASE_URL: 'postgres://b/d', POSTGRES_URL: 'postgres://a/d' } }), [{ url: 'postgres://a/d' }, 'POSTGRES_URL']);
});

test('an explicit option reaches the backing service through resolveService, ' +
  'beating the environment and the binding', async () => {
  const env = { REDIS_URL: 'redis://127.0.0.1:6390', VCAP_SERVICES: JSON.stringify(vcapFixture('rediscloud')) };
  const { connection } = await resolveService('redis', { env, options: { redisUrl: 'redis://:Opt-Secret-77@127.0.0.1:6391' } });
  assert.equal(connection.source, 'option');
  assert.equal(connection.url, 'redis://:Opt-Secret-77@127.0.0.1:6391');
  assert.equal(connection.display, 'redis://:***@127.0.0.1:6391');
  const apikey = await resolveService('couchdb', { env: { COUCHDB_URL: 'https://couch.example.com', CLOUDANT_APIKEY: 'Env-Key-0123' }, options: { cloudantApikey: 'Opt-Key-4567' } });
  assert.equal(apikey.connection.apikey, 'Opt-Key-4567');
});

test('a database name: option beats CLOUDANT_DB beats storebench, whatever is bound', () => {
  const env = { CLOUDANT_DB: 'bench2', VCAP_SERVICES: JSON.stringify(vcapFixture('cloudant-legacy')) };
  assert.deepEqual(valueOf('couchdbDatabase', { options: { couchdbDatabase: 'mine' }, env }), ['mine', 'option']);
  assert.deepEqual(valueOf('couchdbDatabase', { env }), ['bench2', 'CLOUDANT_DB']);
  assert.deepEqual(
    valueOf('couchdbDatabase', { env: { VCAP_SERVICES: env.VCAP_SERVICES } }),
    ['storebench', 'default'],
  );
});

test('flush interval and request logging follow the same rule', () => {
  assert.deepEqual(
    valueOf('flushIntervalMs', { options: { flushIntervalMs: 50 }, env: { STOREBENCH_FLUSH_INTERVAL_MS: '600000' } }),
    [50, 'option'],
  );
  assert.deepEqual(
    valueOf('flushIntervalMs', { env: { STOREBENCH_FLUSH_INTERVAL_MS: '600000' } }),
    [600000, 'STOREBENCH_FLUSH_INTERVAL_MS'],
  );
  assert.deepEqual(valueOf('flushIntervalMs', { env: {} }), [200, 'default']);
  assert.deepEqual(
    valueOf('logRequests', { options: { logRequests: true }, env: { STOREBENCH_LOG: '0' } }),
    [true, 'option'],
  );
  for (const word of ['1', 'true', 'YES']) {
    assert.deepEqual(valueOf('logRequests', { env: { STOREBENCH_LOG: word } }), [true, 'STOREBENCH_LOG']);
  }
  assert.deepEqual(valueOf('logRequests', { env: { STOREBENCH_LOG: 'no' } }), [false, 'STOREBENCH_LOG']);
  assert.deepEqual(valueOf('logRequests', { env: {} }), [false, 'default']);
});

test('a malformed value is a problem naming where it came from; a secret one is never quoted', () => {
  assert.equal(
    resolveSetting('port', { options: { port: 'x' } }).problem,
    '--port must be a whole number from 0 to 65535, not "x"',
  );
  assert.equal(
    resolveSetting('port', { env: { PORT: '70000' } }).problem,
    'PORT must be a whole number from 0 to 65535, not "70000"',
  );
  assert.equal(
    resolveSetting('port', { env: { CF_INSTANCE_PORT: 'abc', VCAP_APPLICATION: application } }).problem,
    'CF_INSTANCE_PORT must be a whole number from 0 to 65535, not "abc"',
  );
  assert.equal(
    resolveSetting('postgresPoolSize', { env: { POSTGRES_POOL_SIZE: '0' } }).problem,
    'POSTGRES_POOL_SIZE must be a positive whole number, not "0"',
  );
  assert.equal(
    resolveSetting('stores', { options: { stores: '' } }).problem,
    '--stores needs at least one store name',
    'an empty option is a mistake, not unset',
  );
  assert.deepEqual(valueOf('port', { env: { PORT: '' } }), [3000, 'default']); // an empty variable is unset
  assert.equal(
    resolveSetting('stores', { options: { stores: ' , ' } }).problem,
    '--stores needs at least one store name, not " , "',
  );
  const params = resolveSetting(
    'cloudantServiceParams',
    { env: { CLOUDANT_SERVICE_PARAMS: '{"password":"Pa55-Not-Json' } },
  );
  assert.equal(params.problem, 'CLOUDANT_SERVICE_PARAMS is not valid JSON');
  const binding = resolveSetting(
    'redisUrl',
    { env: { VCAP_SERVICES: '{"rediscloud":[{"credentials":{"password":"Broken5ecret99"' } },
  );
  assert.match(binding.problem, /^VCAP_SERVICES is set but is not a JSON object/);
  assert.ok(!binding.problem.includes('Broken5ecret99'));
});

test('resolveSettings answers a scope at once and collects every problem', () => {
  const { settings: values, sources, problems } = resolveSettings(
    { options: { port: 0 }, env: { POSTGRES_POOL_SIZE: 'many', STOREBENCH_FLUSH_INTERVAL_MS: '-1', CLOUDANT_DB: 'x' } },
    ['app', 'store'],
  );
  assert.deepEqual(problems, [
    'POSTGRES_POOL_SIZE must be a positive whole number, not "many"',
    'STOREBENCH_FLUSH_INTERVAL_MS must be a positive whole number, not "-1"',
  ]);
  assert.equal(values.port, 0);
  assert.equal(sources.port, 'option');
  assert.equal(values.couchdbDatabase, 'x');
  assert.equal(values.embedded, true);
  assert.ok(!('redisUrl' in values), 'only the scopes asked for');
});

test('the table is complete: every setting has a scope, a parser and words for the doc; ' +
  'every service has a location', () => {
  for (const [key, setting] of Object.entries(settings)) {
    assert.ok(['app', 'http', 'writes', 'service', 'store', 'cf-scripts', 'tools'].includes(setting.scope), key);
    assert.equal(typeof setting.parse, 'function', key);
    assert.ok(Array.isArray(setting.env), key);
    assert.ok(setting.about?.length > 3, key);
    assert.ok(setting.flag || setting.env.length || setting.varsFile, `${key} can be set somehow`);
  }
  for (const [name, service] of Object.entries(services)) {
    assert.equal(settings[service.location]?.scope, 'service', name);
  }
  assert.throws(() => resolveSetting('nosuch'), /unknown setting "nosuch"/);
});
