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

test('getMany (--direct --pipeline\'s explicit pipeline) answers each key\'s exact bytes in order, null for ' +
  'a missing one', async (t) => {
  if (!(await reachable(testRedisUrl))) return void unavailable(t, `no Redis at ${redactUrl(testRedisUrl)}`);
  const store = await redis.open({ redis: { url: testRedisUrl, source: 'test' } });
  t.after(() => store.close());
  const bytes = Buffer.from([0, 255, 10, 13, 0x80]);
  await store.set('getmany-a', bytes);
  await store.set('getmany-b', Buffer.from('b'));
  await store.delete('getmany-missing');
  const values = await store.getMany(['getmany-b', 'getmany-missing', 'getmany-a', 'getmany-a']);
  assert.deepEqual(values, [Buffer.from('b'), null, bytes, bytes]);
  await store.delete('getmany-a');
  await store.delete('getmany-b');
});
