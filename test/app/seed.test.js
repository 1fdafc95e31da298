import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { createClient } from 'redis';
import { startCouchServer } from '../../embedded/couchdb.js';
import { payloads } from '../../stores/payloads.js';
import { reachable, testRedisUrl, unavailable } from '../helpers/services.js';

const run = promisify(execFile);
const seedScript = fileURLToPath(new URL('../../data/seed.js', import.meta.url));

test('npm run seed writes key1..key3 into the configured stores, twice without failing', async (t) => {
  if (!(await reachable(testRedisUrl))) return unavailable(t, 'no Redis to seed');
  const couch = await startCouchServer();
  t.after(() => couch.stop());
  const env = { PATH: process.env.PATH, REDIS_URL: testRedisUrl, COUCHDB_URL: couch.url, CLOUDANT_DB: 'seedtest' };

  for (let run_ = 0; run_ < 2; run_++) {
    const { stdout } = await run(process.execPath, [seedScript], { env });
    assert.match(stdout, /^redis: seeded key1, key2, key3$/m);
    assert.match(stdout, /^cloudant: seeded key1, key2, key3$/m);
    assert.doesNotMatch(stdout, /^memory/m, 'memory lives in the app: nothing to seed from outside');
  }

  const redis = createClient({ url: testRedisUrl });
  await redis.connect();
  t.after(() => redis.close());
  const stored = await redis.get('key3');
  assert.equal(stored, payloads.key3.toString());
  const document = await (await fetch(`${couch.url}/seedtest/k%3Akey2`)).json();
  assert.equal(document.image, JSON.parse(payloads.key2).image);
  assert.match(document._rev, /^2-/, 'the second run wrote over the first revision');
});

test('npm run seed with nothing configured skips every store and says why', async () => {
  const { stdout } = await run(process.execPath, [seedScript], { env: { PATH: process.env.PATH } });
  assert.match(stdout, /^redis: skipped \(not configured: set REDIS_URL or bind a service on Cloud Foundry\)$/m);
  assert.match(stdout, /^cloudant: skipped \(not configured: set CLOUDANT_URL or COUCHDB_URL or bind a service on Cloud Foundry\)$/m);
});
