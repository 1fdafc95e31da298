// A store's server location is checked before any client sees it: the forms clients misread
// are refused with a reason that names what is wrong and never the value.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { locationProblem } from '../../config/service-url.js';
import { resolveService } from '../../embedded/resolve-service.js';
import { services } from '../../config/services.js';

const rules = (name) => services[name].url;

test('the forms each store\'s clients take are accepted', () => {
  const good = {
    redis: ['redis://127.0.0.1:6379', 'rediss://:p%2Fw@h.example.com:31000/0', 'redis://[::1]:6379'],
    'redis-cluster': ['redis://a:1,redis://:pw@b:2', 'redis://a:1,'],
    memcached: ['memcached://u:p@h:11211', 'h1:11211,h2', 'user:pass@h:1,h2:2', 'memcached://h:1,memcached://h2:2', '[::1]:11211'],
    couchdb: ['http://admin:pw@127.0.0.1:5984', 'https://acct.cloudantnosqldb.appdomain.cloud'],
    postgres: ['postgres://u:p@h:5432/db', 'postgresql://h/db', 'postgres:///db?host=/var/run/postgresql'],
    tarantool: ['tarantool://127.0.0.1:3301', 'tarantool://storebench:pw@h:3301'],
  };
  for (const [name, urls] of Object.entries(good)) {
    for (const url of urls) assert.equal(locationProblem(rules(name), url), undefined, `${name}: ${url}`);
  }
});

test('MEMCACHED_URL=\'::::\' is refused, not read as 127.0.0.1:11211', () => {
  // Pins #9.6: memjs fell back to 127.0.0.1:11211 for '::::' without a word.
  assert.equal(
    locationProblem(rules('memcached'), '::::'),
    'is not a memcached server list (host:port,host:port): it has no host',
  );
  assert.match(locationProblem(rules('memcached'), 'h:1,:2'), /server 2 of the list has no host/);
  assert.match(locationProblem(rules('memcached'), 'h:99999'), /port outside 1-65535/);
  assert.match(locationProblem(rules('memcached'), 'redis://h:1'), /has scheme redis:\/\/, expected memcached:\/\/ or none/);
});

test('a Tarantool URL with a user and no password is refused, not connected as guest', () => {
  // Pins #9.6: tarantool://admin@host connected as guest without a word.
  assert.equal(
    locationProblem(rules('tarantool'), 'tarantool://admin@127.0.0.1:3301'),
    'names user "admin" but no password, and the server would take it as guest: put user:password@ in the URL, ' +
    'or no user at all to connect as guest',
  );
});

test('unparseable, wrong-scheme and host-less URLs are refused without quoting them', () => {
  const cases = [
    ['redis', 'redis://:Pw/SlashSecret99@127.0.0.1:6392', 'is not a valid redis:// URL; a / ? # or @ in a user name or password must be percent-encoded (%2F %3F %23 %40)'],
    ['couchdb', 'https://u:12/Cut5ecret@h.example.com', 'is not a valid https:// URL: it has an @ after its host; a / ? # or @ in a user name or password must be percent-encoded (%2F %3F %23 %40)'],
    ['redis', 'not a url <pw>', 'is not a URL (it does not start with scheme://)'],
    ['postgres', 'garbage <pw>', 'is not a URL (it does not start with scheme://)'],
    ['postgres', 'mysql://h/db', 'has scheme mysql://, expected postgres:// or postgresql://'],
    ['redis', 'redis://', 'names no host (redis://host:port)'],
    ['redis-cluster', 'redis://a:1,http://b:2', 'item 2 of the list has scheme http://, expected redis:// or rediss://'],
  ];
  for (const [name, url, problem] of cases) assert.equal(locationProblem(rules(name), url), problem, url);
});

test('a location that cannot be used leaves its store unavailable (BAD_URL) ' +
  'with the variable named, the value not', async () => {
  const resolved = await resolveService('redis', { env: { REDIS_URL: 'redis://:Pw/SlashSecret99@127.0.0.1:6392' }, embedded: false });
  assert.equal(resolved.code, 'BAD_URL');
  assert.match(resolved.unavailable, /^REDIS_URL is not a valid redis:\/\/ URL; /);
  assert.ok(!resolved.unavailable.includes('SlashSecret99'));
  const option = await resolveService('memcached', { options: { memcachedUrl: '::::' }, env: {}, embedded: false });
  assert.deepEqual(option, {
    unavailable: 'option memcachedUrl is not a memcached server list (host:port,host:port): it has no host',
    code: 'BAD_URL',
  });
});
