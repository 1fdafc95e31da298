// A password that is also a word is masked where it sits (its URL's password field) and nowhere
// else: with Redis's password "memory" and PostgreSQL's "postgres", every store keeps its name
// in /stores, the app's log, the index page, error answers and a driver run.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { freePort, startServer } from '../../embedded/child-process.js';
import { startAppProcess } from '../../driver/app-process.js';
import { which } from '../../util/which.js';
import { reachable, testPostgresUrl, unavailable } from '../helpers/services.js';
import { runDriverCli } from '../helpers/driver-cli.js';

const REDIS_PASSWORD = 'memory';
const POSTGRES_PASSWORD = 'postgres';
const DATABASE = 'storebench_secret_names';
const TOKEN = 'memory-Wr1te-T0ken-4242';
const STORES = ['memory', 'redis', 'postgres', 'postgres+redis', 'redis+postgres'];

let skip;
let redis;
let env;
let app;
let postgresAdmin;

before(async () => {
  if (!which('redis-server')) return void (skip = 'redis-server is not installed');
  if (!(await reachable(testPostgresUrl))) return void (skip = 'no PostgreSQL at the test URL');
  const port = await freePort();
  const args = [
    '--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--logfile', '',
    '--requirepass', REDIS_PASSWORD,
  ];
  redis = await startServer({ name: 'redis-server', command: which('redis-server'), args, port });
  // A database of this test's own, so its tables touch no other test's.
  const { default: pg } = await import('pg');
  postgresAdmin = new pg.Client({ connectionString: testPostgresUrl });
  await postgresAdmin.connect();
  await postgresAdmin.query(`CREATE DATABASE ${DATABASE}`).catch((error) => {
    if (error.code !== '42P04') throw error;
  });
  const postgresUrl = new URL(testPostgresUrl);
  postgresUrl.username = 'postgres';
  postgresUrl.password = POSTGRES_PASSWORD;
  postgresUrl.pathname = `/${DATABASE}`;
  env = {
    PATH: process.env.PATH,
    REDIS_URL: `redis://:${REDIS_PASSWORD}@127.0.0.1:${port}`,
    POSTGRES_URL: postgresUrl.href,
    STOREBENCH_WRITE_TOKEN: TOKEN,
  };
  app = await startAppProcess({ stores: STORES, args: ['--no-embedded'], env });
});

after(async () => {
  await app?.stop();
  await redis?.stop();
  if (postgresAdmin) {
    await postgresAdmin.query(`DROP DATABASE IF EXISTS ${DATABASE}`).catch(() => {});
    await postgresAdmin.end();
  }
});

// The servers this file starts in `before`: without them, the one skip-or-fail rule.
const needsServers = (t) => Boolean(skip) && unavailable(t, skip);

test('/stores names every store as it is, and masks only the passwords in the URLs', async (t) => {
  // Pins #18.1: with REDIS_URL=redis://:memory@..., /stores listed the store memory as ***, and
  // postgres:postgres did the same to the postgres stores.
  if (needsServers(t)) return;
  const text = await (await fetch(`${app.url}/stores`)).text();
  const { stores } = JSON.parse(text);
  assert.deepEqual(stores.map((store) => store.name), STORES);
  for (const store of stores) assert.equal(store.status, 'up', `${store.name}: ${store.reason}`);
  const byName = Object.fromEntries(stores.map((store) => [store.name, store]));
  assert.match(byName.redis.servers.redis, /^REDIS_URL: redis:\/\/:\*\*\*@127\.0\.0\.1:\d+$/);
  assert.match(byName.postgres.servers.postgres, new RegExp(`^POSTGRES_URL: postgres://postgres:\\*\\*\\*@127\\.0\\.0\\.1:\\d+/${DATABASE}$`));
  assert.ok(!text.includes(`:${REDIS_PASSWORD}@`) && !text.includes(`:${POSTGRES_PASSWORD}@`), 'no password in a URL');
  assert.ok(!text.includes(TOKEN), 'the write token is not shown');
  const health = await (await fetch(`${app.url}/healthz`)).json();
  assert.deepEqual(Object.keys(health.stores), STORES);
});

test('the log and the index page show every store\'s name, and no password', async (t) => {
  if (needsServers(t)) return;
  const log = app.output();
  for (const name of STORES) {
    assert.match(log, new RegExp(`^  ${name.replace('+', '\\+')} +up`, 'm'), `the log line of ${name}`);
  }
  assert.match(log, /^ {2}redis +up \(REDIS_URL: redis:\/\/:\*\*\*@127\.0\.0\.1:\d+\)$/m);
  assert.ok(!log.includes(`:${REDIS_PASSWORD}@`) && !log.includes(`:${POSTGRES_PASSWORD}@`), 'no password in the log');
  assert.doesNotMatch(log, /^ {2}\*\*\*/m, 'no store named ***');

  const page = await (await fetch(`${app.url}/`)).text();
  for (const name of STORES) {
    assert.ok(page.includes(`<th>${name}</th>`), `the page names ${name}`);
    const link = `<a href="/${encodeURIComponent(name)}/key1">/${name}/key1</a>`;
    assert.ok(page.includes(link), `the page links /${name}/key1`);
  }
  assert.ok(!page.includes('/***/'), 'no link to /***/');
  assert.ok(!page.includes(`:${REDIS_PASSWORD}@`) && !page.includes(`:${POSTGRES_PASSWORD}@`));
});

test('an error answer echoes the key as the client sent it, in "error" and in "key" alike', async (t) => {
  // Pins #18.1: GET /memory/<token> masked the key in "error" but echoed it in "key"; the
  // masking itself told whoever guessed the token that the guess was right.
  if (needsServers(t)) return;
  for (const key of [TOKEN, 'memory', 'postgres']) {
    const response = await fetch(`${app.url}/memory/${key}`);
    assert.equal(response.status, 404);
    assert.deepEqual(await response.json(), {
      error: `key "${key}" not found in store "memory"`, code: 'KEY_NOT_FOUND', store: 'memory', key,
    });
  }
  const wrongStore = await (await fetch(`${app.url}/postgres/nokey`)).json();
  assert.equal(wrongStore.store, 'postgres');
  assert.equal(wrongStore.error, 'key "nokey" not found in store "postgres"');
});

test('a driver run sweeps /memory/key1, /redis/key1 and /postgres/key1, not /***/key1', async (t) => {
  // Pins #18.1: the driver swept /***/key1 (50 x 404, exit 0), and --stores memory failed with
  // "has no store memory (it has: ***, redis)".
  if (needsServers(t)) return;
  const args = ['--stores', 'memory,redis,postgres', '--keys', 'key1', '-c', '1', '-n', '20', '--warmup', '0'];
  const result = await runDriverCli(args, { env });
  assert.equal(result.status, 0, result.stderr);
  for (const name of ['memory', 'redis', 'postgres']) assert.match(result.stdout, new RegExp(`^## http://127\\.0\\.0\\.1:\\d+/${name}/key1$`, 'm'));
  assert.ok(!`${result.stdout}${result.stderr}`.includes('***/key1'));
  assert.doesNotMatch(result.stdout, /KEY_NOT_FOUND|http 404/i);
  assert.ok(!`${result.stdout}${result.stderr}`.includes(`:${REDIS_PASSWORD}@`));
});
