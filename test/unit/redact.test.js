// Nothing secret is shown: URLs lose their passwords, remembered secrets are masked in any
// text, and printed service credentials keep their shape but none of their secrets.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addSecrets, maskCredentials, redactText, redactUrl } from '../../util/redact.js';
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

test('a remembered secret is masked wherever it appears, also URL-encoded', () => {
  addSecrets('Remembered/Secret+42', 'ab'); // 'ab' is too short to mask safely and is ignored
  assert.equal(redactText('auth failed for key Remembered/Secret+42'), 'auth failed for key ***');
  assert.equal(redactUrl('https://h.example.com/?x=Remembered%2FSecret%2B42'), 'https://h.example.com/?x=***');
  assert.equal(redactText('tab and cab'), 'tab and cab');
});

for (const name of ['cloudant-legacy-and-iam', 'cloudant-iam-only', 'cloudant-legacy', 'rediscloud', 'databases-for-redis', 'user-provided']) {
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
