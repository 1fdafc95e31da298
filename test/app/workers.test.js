// app.js --workers N: N app processes under one primary (app/cluster-primary.js), through the
// real app, its real embedded servers and the test Redis and PostgreSQL.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { startAppProcess } from '../../driver/app-process.js';
import { payloads } from '../../stores/payloads.js';
import { rawRequest } from '../helpers/http.js';
import { reachable, testPostgresUrl, testRedisUrl } from '../helpers/services.js';
import { sqlConnections, testPool, testRedis } from '../helpers/sql-stores.js';
import { TABLE, KEY_PREFIX, QUEUE_KEY } from '../../stores/layers/redis+postgres.js';

// The environment of an app whose servers are all embedded: nothing configured, no worker count set.
function embeddedEnv() {
  const env = { ...process.env };
  for (const name of ['REDIS_URL', 'MEMCACHED_URL', 'MEMCACHED_SERVERS', 'STOREBENCH_WORKERS', 'WEB_CONCURRENCY']) {
    delete env[name];
  }
  return env;
}

/** The live children of pid, from /proc: [{ pid, comm, cmdline }]. */
function childrenOf(pid) {
  const found = [];
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) !== pid || state === 'Z') continue;
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ');
      found.push({ pid: Number(name), comm, cmdline });
    } catch {} // gone while we looked
  }
  return found;
}

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** CPU seconds (user + system) of pid so far, from /proc (clock ticks: 100 a second here). */
const cpuSeconds = (pid) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime: fields 14 and 15 of stat
};

/** The pids answering /healthz over `n` fresh connections (round robin: every worker among them). */
async function healthzPids(url, n = 10) {
  const answers = [];
  for (let i = 0; i < n; i++) answers.push((await rawRequest(url, '/healthz')).json);
  return answers;
}

/** Prometheus text -> the value of the sample whose name and labels start `prefix`. */
const sample = (text, prefix) => {
  const line = text.split('\n').find((row) => row.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
};

describe('app.js --workers 2 with embedded redis-server and memcached', () => {
  let app;
  before(async () => {
    app = await startAppProcess({
      stores: ['memory', 'redis', 'memcached'],
      args: ['--workers', '2', '--metrics'],
      env: { ...embeddedEnv(), STOREBENCH_HEADERS_TIMEOUT_MS: '1000' },
    });
  });
  after(() => app?.stop());

  test('answers from 2 worker pids over fresh connections, each saying 2 workers run', async () => {
    const answers = await healthzPids(app.url);
    const pids = new Set(answers.map((answer) => answer.pid));
    assert.equal(pids.size, 2, `pids seen: ${[...pids].join(', ')}`);
    assert.ok(!pids.has(app.child.pid), 'the primary serves no request');
    assert.ok(answers.every((answer) => answer.workers === 2 && answer.status === 'ok'));
    const listing = (await rawRequest(app.url, '/stores')).json;
    assert.equal(listing.workers, 2);
    assert.ok(pids.has(listing.pid));
  });

  test('the embedded servers were started once, by the primary, for both workers', async () => {
    const children = childrenOf(app.child.pid);
    const guards = children.filter((child) => child.comm === 'guard.sh');
    assert.equal(guards.length, 2, children.map((child) => child.cmdline).join('\n'));
    assert.equal(guards.filter((guard) => / \/\S*redis-server /.test(guard.cmdline)).length, 1);
    assert.equal(guards.filter((guard) => / \/\S*memcached /.test(guard.cmdline)).length, 1);
    const workers = children.filter((child) => child.cmdline.includes('cli/app-worker.js'));
    assert.equal(workers.length, 2);
    // Every worker names the same servers.
    const servers = new Set();
    for (let i = 0; i < 6; i++) {
      const { stores } = (await rawRequest(app.url, '/stores')).json;
      servers.add(JSON.stringify(stores.map((store) => store.servers)));
    }
    assert.equal(servers.size, 1);
  });

  test('a worker holds the connections it is handed to the headers deadline: a stall is answered 408', async () => {
    // The primary owns the listener; each worker must still check its connections' deadlines.
    const { port } = new URL(app.url);
    const answers = await Promise.all([1, 2].map(() => new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1');
      const startedAt = performance.now();
      let received = '';
      socket.on('data', (chunk) => { received += chunk; });
      socket.on('error', reject);
      socket.on('close', () => resolve({ head: received.split('\r\n')[0], ms: performance.now() - startedAt }));
      socket.write('GET /memory/key1 HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      socket.setTimeout(10_000, () => socket.destroy(new Error('the stalled connection was held for 10 s')));
    })));
    for (const answer of answers) {
      assert.match(answer.head, /^HTTP\/1\.1 408 /);
      assert.ok(answer.ms < 5000, `closed after ${Math.round(answer.ms)} ms`);
    }
  });

  test('redis and memcached writes are read back whichever worker answers', async () => {
    for (const store of ['redis', 'memcached']) {
      for (let i = 0; i < 20; i++) {
        const key = `workers-${randomUUID()}`;
        const value = randomBytes(64 + i);
        const put = await rawRequest(app.url, `/${store}/${key}`, { method: 'PUT', body: value });
        assert.equal(put.status, 204);
        // Round robin over fresh connections: these two reads are answered by different workers.
        const reads = [await rawRequest(app.url, `/${store}/${key}`), await rawRequest(app.url, `/${store}/${key}`)];
        for (const read of reads) {
          assert.equal(read.status, 200, `${store}/${key}`);
          assert.ok(read.body.equals(value), `${store}/${key} read back`);
        }
      }
    }
  });

  test('memory refuses every write with 405 PER_WORKER_STORE, says so in /stores, and serves its seeded keys',
    async () => {
      const refusals = [
        ['PUT', '/memory/workers-a', Buffer.from('x'), 'GET, HEAD'],
        ['DELETE', '/memory/key1', undefined, 'GET, HEAD'],
        ['POST', '/memory/key1/append', Buffer.from('x'), 'GET, HEAD'],
        ['POST', '/memory', Buffer.alloc(0), ''],
      ];
      for (const [method, path, body, allow] of refusals) {
        const answer = await rawRequest(app.url, path, { method, body });
        assert.equal(answer.status, 405, `${method} ${path}`);
        assert.equal(answer.json.code, 'PER_WORKER_STORE');
        assert.equal(answer.json.store, 'memory');
        assert.equal(answer.headers.allow, allow);
      }
      const { stores } = (await rawRequest(app.url, '/stores')).json;
      const memory = stores.find((store) => store.name === 'memory');
      assert.equal(memory.writesRefused.code, 'PER_WORKER_STORE');
      assert.match(memory.writesRefused.reason, /2 worker processes/);
      assert.equal(stores.find((store) => store.name === 'redis').writesRefused, undefined);
      for (let i = 0; i < 4; i++) {
        const read = await rawRequest(app.url, '/memory/key3');
        assert.equal(read.status, 200);
        assert.ok(read.body.equals(payloads.key3));
      }
    });

  test('a seeded key deleted through one worker stays deleted through every worker', async () => {
    // Each worker puts back a seeded key its server lost, unless the app deleted it: a delete
    // through the other worker must count as the app's too.
    const gone = await rawRequest(app.url, '/redis/key2', { method: 'DELETE' });
    assert.equal(gone.status, 204);
    for (let i = 0; i < 6; i++) assert.equal((await rawRequest(app.url, '/redis/key2')).status, 404);
    const back = await rawRequest(app.url, '/redis/key2', { method: 'PUT', body: payloads.key2 });
    assert.equal(back.status, 204);
  });

  test('/metrics adds up every process: exact request counts, and the CPU of the primary and both workers',
    async () => {
      const metric = 'storebench_app_requests_total{store="memory",method="GET",route="/:store/:key",status="200"}';
      const scrape = async () => (await rawRequest(app.url, '/metrics')).body.toString();
      const first = sample(await scrape(), metric) ?? 0;
      for (let i = 0; i < 30; i++) assert.equal((await rawRequest(app.url, '/memory/key1')).status, 200);
      // Two scrapes over fresh connections: one answered by each worker, both with the whole count.
      const counts = [sample(await scrape(), metric), sample(await scrape(), metric)];
      assert.deepEqual(counts, [first + 30, first + 30]);

      // The CPU counter counts from when each process began recording: compare what it gained
      // between two scrapes with what /proc says the three processes used meanwhile.
      const pids = [app.child.pid, ...new Set((await healthzPids(app.url, 4)).map((answer) => answer.pid))];
      const procCpu = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
      const cpuScrape = async () => {
        const before = procCpu();
        const cpu = sample(await scrape(), 'storebench_app_process_cpu_seconds_total ');
        return { before, cpu, after: procCpu() };
      };
      const start = await cpuScrape();
      for (let i = 0; i < 200; i++) assert.equal((await rawRequest(app.url, '/memory/key3')).status, 200);
      const end = await cpuScrape();
      const gained = end.cpu - start.cpu;
      // /proc counts whole clock ticks (10 ms) per process: 3 processes, a tick each either way, at each end.
      const [least, most] = [end.before - start.after - 0.06, end.after - start.before + 0.06];
      assert.ok(gained >= least && gained <= most, `the counter gained ${gained} s; /proc says ${least}..${most} s`);
    });

  test('/metrics says how many processes its CPU adds up and the cores they share, for a driver elsewhere',
    async () => {
      // Regression (issue 35): a driver reading it took the sum of three processes for one process's.
      const text = (await rawRequest(app.url, '/metrics')).body.toString();
      assert.equal(sample(text, 'storebench_app_processes '), 3, 'the primary and both workers');
      assert.equal(sample(text, 'storebench_app_cpus '), os.availableParallelism());
    });
});

test('--workers 2: SIGTERM under mixed PUT/GET on redis and redis+postgres keeps every acknowledged write',
  { timeout: 120_000 }, async (t) => {
    if (!(await sqlConnections(t, { redis: true }))) return;
    const prefix = `workers-${randomUUID()}`;
    t.after(async () => {
      await pool.query(`DELETE FROM ${TABLE} WHERE key LIKE $1`, [`${prefix}%`]);
      for (const match of [`${KEY_PREFIX}${prefix}*`, `${prefix}*`]) {
        for await (const keys of redis.scanIterator({ MATCH: match, COUNT: 1000 })) {
          if (keys.length) await redis.del(keys);
        }
      }
    });
    const pool = await testPool(t);
    const redis = await testRedis(t);
    const env = {
      ...embeddedEnv(), REDIS_URL: testRedisUrl, POSTGRES_URL: testPostgresUrl, STOREBENCH_FLUSH_INTERVAL_MS: '1000',
    };
    const app = await startAppProcess({ stores: ['redis', 'redis+postgres'], env, args: ['--workers', '2'] });
    t.after(() => app.stop());
    const workerPids = [...new Set((await healthzPids(app.url, 4)).map((answer) => answer.pid))];
    assert.equal(workerPids.length, 2);

    // Few keys, each written over and over by one client, each request on a fresh connection,
    // which the primary hands to either worker: a key's writes go through both, so both
    // workers' queues hold writes of it in one flush window (a long one), and at the end.
    const possible = new Map(); // `${store}/${key}` -> the values it may hold: its last acknowledged, and any in flight
    let stopped = false;
    let acknowledged = 0;
    const client = async (c) => {
      for (let i = 0; !stopped; i++) {
        const store = i % 3 === 2 ? 'redis' : 'redis+postgres';
        const id = `${store}/${prefix}-${c}`;
        const value = randomBytes(16 + (i % 50));
        let response;
        try {
          possible.set(id, [...(possible.get(id) ?? [null]), value]);
          response = await rawRequest(app.url, `/${id}`, { method: 'PUT', body: value });
        } catch {
          return; // the app stopped listening: this write may or may not have landed
        }
        if (response.status !== 204) {
          assert.ok(stopped || response.status === 503, `PUT ${id}: ${response.status}`);
          return;
        }
        possible.set(id, [value]);
        acknowledged++;
        const read = await rawRequest(app.url, `/${id}`).catch(() => null);
        if (!read) return;
        if (read.status === 200) assert.ok(read.body.equals(value), `GET ${id} after PUT`);
        else assert.equal(read.status, 503, `GET ${id}`); // SHUTTING_DOWN, once signalled
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, (_, c) => client(c)));
    // A count, not a time: this machine may be busy.
    const started = Date.now();
    while (acknowledged < 300 && Date.now() - started < 60_000) await sleep(20);
    app.child.kill('SIGTERM');
    const { code } = await app.exited;
    stopped = true;
    await load;
    assert.equal(code, 0, app.output());
    assert.ok(acknowledged >= 300, `only ${acknowledged} writes acknowledged`);

    const { rows } = await pool.query(`SELECT key, value FROM ${TABLE} WHERE key LIKE $1`, [`${prefix}%`]);
    const durable = new Map(rows.map((row) => [row.key, row.value]));
    const wrong = [];
    for (const [id, values] of possible) {
      const [store, key] = id.split('/');
      const held = store === 'redis' ? await redis.get(key) : durable.get(key) ?? null;
      if (!values.some((value) => (value === null ? held === null : held?.equals(value)))) wrong.push(id);
    }
    assert.deepEqual(wrong, [], `${wrong.length} of ${possible.size} keys lost their last acknowledged write`);
    const left = (await redis.hKeys(QUEUE_KEY)).map(String).filter((key) => key.startsWith(prefix));
    assert.deepEqual(left, [], 'the journal holds nothing of them once PostgreSQL has them');
    assert.deepEqual(workerPids.filter(alive), [], 'the workers exited with the primary');
  });

test('--workers 2: a worker that dies stops the app with one line, exit 1, and leaves no server behind', async () => {
  const app = await startAppProcess({ stores: ['memory', 'redis'], args: ['--workers', '2'], env: embeddedEnv() });
  try {
    const { stores } = (await rawRequest(app.url, '/stores')).json;
    const server = stores.find((store) => store.name === 'redis').servers.redis.replace(/^embedded: /, '');
    const [victim, other] = [...new Set((await healthzPids(app.url, 4)).map((answer) => answer.pid))];
    process.kill(victim, 'SIGKILL');
    const { code } = await app.exited;
    assert.equal(code, 1);
    const lines = app.output().split('\n').filter((line) => line.includes('stopping the app'));
    assert.equal(lines.length, 1);
    const line = `^app\\.js: worker \\d \\(pid ${victim}\\) was killed by SIGKILL: stopping the app$`;
    assert.match(lines[0], new RegExp(line));
    assert.equal(alive(other), false, 'the other worker was stopped');
    assert.equal(await reachable(server), false, 'the embedded redis-server was stopped');
  } finally {
    await app.stop();
  }
});

test('--workers 2 listening on every interface: writes are refused without a token, as with one process', async () => {
  // The workers do not listen: the address they guard writes by is the primary's listener's.
  const env = { ...embeddedEnv() };
  delete env.STOREBENCH_WRITE_TOKEN;
  const app = await startAppProcess({ stores: ['memory'], args: ['--workers', '2', '--host', '0.0.0.0'], env });
  try {
    for (let i = 0; i < 4; i++) {
      const put = await rawRequest(app.url, `/memory/everywhere-${i}`, { method: 'PUT', body: Buffer.from('x') });
      assert.equal(put.status, 403);
      assert.equal(put.json.code, 'WRITES_DISABLED');
    }
  } finally {
    await app.stop();
  }
});
