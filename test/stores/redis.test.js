import * as redis from '../../stores/redis.js';
import { storeConformance } from '../helpers/store-conformance.js';
import { reachable, testRedisUrl, unavailable } from '../helpers/services.js';
import { redactUrl } from '../../util/redact.js';

storeConformance(redis, async (t) => {
  if (!(await reachable(testRedisUrl))) return void unavailable(t, `no Redis at ${redactUrl(testRedisUrl)}`);
  return { redis: { url: testRedisUrl, source: 'test' } };
});
