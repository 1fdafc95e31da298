import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as redis from '../../stores/redis.js';
import { storeConformance } from '../helpers/store-conformance.js';
import { reachable, testRedisUrl, unavailable } from '../helpers/services.js';
import { redactUrl } from '../../util/redact.js';

storeConformance(redis, async (t) => {
  if (!(await reachable(testRedisUrl))) return void unavailable(t, `no Redis at ${redactUrl(testRedisUrl)}`);
  return { redis: { url: testRedisUrl, source: 'test' } };
});

test('credentials the server refuses fail the open with its answer (WRONGPASS), ' +
  'not with the open deadline', async (t) => {
  // Regression: node-redis retried the refused AUTH until the 5 s deadline, and the reason read
  // "took longer than 5000 ms".
  if (!(await reachable(testRedisUrl))) return void unavailable(t, `no Redis at ${redactUrl(testRedisUrl)}`);
  const url = new URL(testRedisUrl);
  url.username = 'storebench-nobody';
  url.password = 'not-the-password';
  await assert.rejects(redis.open({ redis: { url: url.href, source: 'test' } }), (error) => {
    assert.match(error.message, /WRONGPASS|NOAUTH/);
    assert.ok(!error.message.includes('not-the-password'), error.message);
    return true;
  });
});
