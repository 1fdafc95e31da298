// A frozen server (kill -STOP) held every request to its store for the full
// 15 s, and after a tarantool kill -9 one in-flight request was never answered. Every store
// operation now has a deadline: past it, 503 STORE_TIMEOUT, and the store answers again when
// its server does. The tests own the servers, freeze and kill them under load.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startApp } from '../../app.js';
import { payloads } from '../../stores/payloads.js';
import { withDeadline } from '../../stores/deadline.js';
import { keepLoading, waitUntil } from '../helpers/load.js';
import { ownRedis, ownTarantool } from '../helpers/own-servers.js';

const OP_TIMEOUT_MS = 1000; // the test's own deadline (the default is 2000), so it runs fast
const SLACK_MS = 1500; // an answer's bound is the deadline plus this, on a busy 2-core machine
const RECOVERY_MS = 15_000;

async function appOn(t, names, env) {
  const app = await startApp({
    port: 0,
    host: '127.0.0.1',
    stores: ['memory', ...names],
    env: { ...env, STOREBENCH_OP_TIMEOUT_MS: String(OP_TIMEOUT_MS) },
    embedded: false,
  });
  t.after(() => app.close());
  for (const name of names) {
    assert.equal((await fetch(`${app.url}/${name}/key1`)).status, 200, `${name} serves before the outage`);
  }
  return app;
}

const listing = async (app) => {
  const { stores } = await (await fetch(`${app.url}/stores`)).json();
  return Object.fromEntries(stores.map((s) => [s.name, s]));
};

// Freezes the server under load, checks every answer, thaws it, waits for 200s again.
async function freezeUnderLoad(t, app, server, names) {
  const urls = names.map((name) => `${app.url}/${name}/key1`);
  const load = keepLoading(urls);
  t.after(() => load.stop());
  await sleep(300);
  server.signal('SIGSTOP');
  const frozenAt = Date.now();
  await sleep(OP_TIMEOUT_MS * 2.5);

  const stores = await listing(app);
  assert.equal(stores.memory.status, 'up');
  for (const name of names) {
    assert.equal(stores[name].status, 'down', `${name} is down in /stores while frozen`);
    assert.equal(stores[name].reasonCode, 'STORE_TIMEOUT');
    assert.equal(stores[name].reason, `store "${name}" did not answer ping within ${OP_TIMEOUT_MS} ms`);
  }
  const memory = await fetch(`${app.url}/memory/key1`);
  const memoryBytes = Buffer.from(await memory.arrayBuffer());
  assert.ok(memoryBytes.equals(payloads.key1), 'memory serves while the other server is frozen');

  server.signal('SIGCONT');
  const thawedAt = Date.now();
  for (const url of urls) {
    const answeredAgain = () => load.answers.some((a) => a.url === url && a.startedAt > thawedAt && a.status === 200);
    await waitUntil(answeredAgain, RECOVERY_MS, `${url} answers 200 again after kill -CONT`);
  }
  await withDeadline(load.stop(), OP_TIMEOUT_MS + SLACK_MS, () => new Error('a request was left unanswered'));

  for (const url of urls) {
    // Sent and answered while the server was frozen: every one a 503 STORE_TIMEOUT.
    const frozen = load.answers.filter((a) => a.url === url && a.startedAt > frozenAt + 50 && a.endedAt < thawedAt);
    assert.ok(frozen.length >= 4, `${url}: ${frozen.length} answers while frozen`);
    for (const answer of frozen) {
      assert.equal(answer.status, 503, `${url} while frozen: ${answer.body}`);
      assert.equal(answer.code, 'STORE_TIMEOUT');
    }
    const name = new URL(url).pathname.split('/')[1];
    assert.deepEqual(JSON.parse(frozen[0].body), {
      error: `store "${name}" did not answer get within ${OP_TIMEOUT_MS} ms`, code: 'STORE_TIMEOUT', store: name,
    });
  }
  const slowest = Math.max(...load.answers.map((a) => a.ms));
  assert.ok(slowest < OP_TIMEOUT_MS + SLACK_MS,
    `every request answered within about the deadline; the slowest took ${slowest} ms`);
}

test('a frozen redis-server (kill -STOP) under load: 503 STORE_TIMEOUT within about the deadline, ' +
  '/stores says down, 200 again after kill -CONT', { timeout: 60_000 }, async (t) => {
  const redis = await ownRedis(t);
  if (!redis) return;
  const app = await appOn(t, ['redis', 'ioredis'], { REDIS_URL: redis.url });
  await freezeUnderLoad(t, app, redis, ['redis', 'ioredis']);
});

test('a frozen tarantool (kill -STOP) under load: 503 STORE_TIMEOUT within about the deadline, ' +
  '/stores says down, 200 again after kill -CONT', { timeout: 60_000 }, async (t) => {
  const tarantool = await ownTarantool(t);
  if (!tarantool) return;
  const app = await appOn(t, ['tarantool', 'tarantool-memtx'], { TARANTOOL_URL: tarantool.url });
  await freezeUnderLoad(t, app, tarantool, ['tarantool', 'tarantool-memtx']);
});

test('tarantool killed with kill -9 under load: every request in flight is answered, ' +
  'none waits past the deadline', { timeout: 60_000 }, async (t) => {
  const tarantool = await ownTarantool(t);
  if (!tarantool) return;
  const names = ['tarantool', 'tarantool-memtx'];
  const app = await appOn(t, names, { TARANTOOL_URL: tarantool.url });
  const load = keepLoading(names.map((name) => `${app.url}/${name}/key3`));
  t.after(() => load.stop());
  await sleep(300);
  tarantool.signal('SIGKILL');
  const killedAt = Date.now();
  await sleep(OP_TIMEOUT_MS + SLACK_MS);
  const unanswered = () => new Error(`${load.inFlight()} request(s) left unanswered after kill -9`);
  await withDeadline(load.stop(), OP_TIMEOUT_MS + SLACK_MS, unanswered);

  const after = load.answers.filter((a) => a.startedAt > killedAt + 200);
  assert.ok(after.length > 0);
  for (const answer of after) {
    assert.equal(answer.status, 503, answer.body);
    assert.ok(['STORE_UNAVAILABLE', 'STORE_TIMEOUT'].includes(answer.code), answer.body);
  }
  const slowest = Math.max(...load.answers.map((a) => a.ms));
  assert.ok(slowest < OP_TIMEOUT_MS + SLACK_MS, `the slowest request took ${slowest} ms`);
  assert.equal((await listing(app)).memory.status, 'up');
});
