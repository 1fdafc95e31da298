// Connections for the PostgreSQL and Redis backed store tests, and a plain pg client to
// look at the tables behind the adapters' backs.
import { reachable, testPostgresUrl, testRedisUrl, unavailable } from './services.js';
import { redactUrl } from '../../util/redact.js';

/** { postgres, redis? } connections for adapter.open(), or undefined after skipping/failing t. */
export async function sqlConnections(t, { redis = false } = {}) {
  if (!(await reachable(testPostgresUrl))) return void unavailable(t, `no PostgreSQL at ${redactUrl(testPostgresUrl)}`);
  if (redis && !(await reachable(testRedisUrl))) return void unavailable(t, `no Redis at ${redactUrl(testRedisUrl)}`);
  return {
    postgres: { url: testPostgresUrl, source: 'test' },
    ...(redis ? { redis: { url: testRedisUrl, source: 'test' } } : {}),
  };
}

/** A pg pool on the test database, ended after t. */
export async function testPool(t) {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: testPostgresUrl, max: 2 });
  t.after(() => pool.end());
  return pool;
}

/** A node-redis client on the test Redis (values as Buffers), closed after t. */
export async function testRedis(t) {
  const { createClient, RESP_TYPES } = await import('redis');
  const client = createClient({ url: testRedisUrl });
  await client.connect();
  t.after(() => client.close());
  return client.withTypeMapping({ [RESP_TYPES.BLOB_STRING]: Buffer });
}
