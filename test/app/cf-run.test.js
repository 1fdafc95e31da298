// app.js run the way Cloud Foundry runs it: manifest.yml's start command with PORT, VCAP_APPLICATION and
// VCAP_SERVICES (Redis Cloud and IBM Cloudant bindings, pointing at a real password-protected
// redis-server and the CouchDB stand-in requiring credentials), no other configuration.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from 'node:net';
import { createClient } from 'redis';
import { freePort, startServer } from '../../embedded/child-process.js';
import { which } from '../../util/which.js';
import { startCouchServer } from '../../embedded/couchdb.js';
import { payloadObjects } from '../../stores/payloads.js';
import * as redisAdapter from '../../stores/redis.js';
import { assertNoSecrets } from '../helpers/vcap-fixtures.js';
import { reachable, unavailable } from '../helpers/services.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const redisPassword = 'Rc-9kQ2vX7pL4mZ8wN1b';
const couch = { username: 'a1b2c3d4-bluemix', password: 'Cl-5tY8uI3oP6aS9dF2g' };

async function startRedis({ password, tls }) {
  const port = await freePort();
  const args = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--logfile', '', '--requirepass', password];
  if (tls) {
    args.push(
      '--port', '0', '--tls-port', String(port),
      '--tls-cert-file', tls.cert, '--tls-key-file', tls.key, '--tls-ca-cert-file', tls.ca, '--tls-auth-clients', 'no',
    );
  } else {
    args.push('--port', String(port));
  }
  const server = await startServer({ name: 'redis-server', command: which('redis-server'), args, port });
  return { ...server, port };
}

/** Platform-style environment: nothing from ours but PATH (no REDIS_URL, no CLOUDANT_URL). */
function cloudFoundryEnv({ port, services }) {
  const application = {
    application_id: '5f0c8a2e-3d1b-4c7e-9a6f-1b2c3d4e5f60',
    application_name: 'storebench',
    application_uris: ['storebench.apps.example.com'],
    cf_api: 'https://api.example.com',
    limits: { disk: 1024, fds: 16384, mem: 256 },
    name: 'storebench',
    organization_name: 'bench-org',
    space_name: 'dev',
    uris: ['storebench.apps.example.com'],
    users: null,
  };
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    CF_INSTANCE_PORT: '61001', // the host-side port: the app must listen on PORT, not this
    CF_INSTANCE_INDEX: '0',
    CF_INSTANCE_INTERNAL_IP: '10.255.0.2',
    MEMORY_LIMIT: '256m',
    VCAP_APPLICATION: JSON.stringify(application),
    VCAP_SERVICES: JSON.stringify(services),
  };
}

// The start command the platform runs: manifest.yml's, e.g. `node app.js --no-embedded`.
const [startProgram, ...startArgs] = /^\s+command: (.+)$/m.exec(readFileSync(join(root, 'manifest.yml'), 'utf8'))[1].trim().split(/\s+/);

/** Starts the app as the platform does and waits until GET /healthz answers 200 (its health check). */
async function pushApp(t, services, env = {}) {
  assert.equal(startProgram, 'node');
  const port = await freePort();
  const childEnv = { ...cloudFoundryEnv({ port, services }), ...env };
  const child = spawn(process.execPath, startArgs, { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk) => { output.stdout += chunk; });
  child.stderr.on('data', (chunk) => { output.stderr += chunk; });
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal, at: performance.now() }));
  });
  t.after(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) assert.fail(`app.js exited with ${child.exitCode}: ${output.stderr}`);
    const response = await fetch(`${url}/healthz`).catch(() => null);
    if (response?.status === 200) break;
    if (Date.now() > deadline) assert.fail(`no healthy app within 30 s: ${output.stdout} ${output.stderr}`);
    await sleep(100);
  }
  return { child, url, port, output, exited };
}

const redisCloudBinding = (port) => ({
  credentials: { hostname: '127.0.0.1', password: redisPassword, port: String(port) },
  label: 'rediscloud',
  name: 'storebench-redis',
  plan: '30mb',
  tags: ['Data Stores', 'Caching', 'key-value', 'redis'],
});
const cloudantBinding = (port, password = couch.password) => ({
  credentials: {
    host: `127.0.0.1:${port}`,
    password,
    port,
    url: `http://${couch.username}:${password}@127.0.0.1:${port}`,
    username: couch.username,
  },
  label: 'cloudantNoSQLDB',
  name: 'storebench-cloudant',
  plan: 'lite',
  tags: ['data_management', 'ibm_created', 'lite'],
});

/** The IPv4 addresses listening on port, from /proc/net/tcp (Linux). */
function ipv4Listeners(port) {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A') // 0A: LISTEN
    .map((fields) => fields[1].split(':')[0]);
}

const refused = (port) => new Promise((resolve) => {
  const socket = connect(port, '127.0.0.1', () => { socket.destroy(); resolve(false); });
  socket.on('error', () => resolve(true));
});

/**
 * /redis/key1 and /cloudant/key1 answer the payload, and /stores says which binding each
 * store uses, credentials masked: expected = { redis: '...', couchdb: '...' }.
 * Returns /stores' text for further checks.
 */
async function assertServesBoundStores(app, expected) {
  for (const store of ['redis', 'cloudant']) {
    const response = await fetch(`${app.url}/${store}/key1`);
    assert.equal(response.status, 200, store);
    assert.deepEqual(await response.json(), payloadObjects.key1, store);
  }
  const storesText = await (await fetch(`${app.url}/stores`)).text();
  const servers = Object.fromEntries(JSON.parse(storesText).stores.map((store) => [store.name, store.servers]));
  assert.deepEqual(servers.redis, { redis: expected.redis });
  assert.deepEqual(servers.cloudant, { couchdb: expected.couchdb });
  return storesText;
}

test('on Cloud Foundry: serves Redis Cloud and Cloudant bindings, shows no secret, drains on SIGTERM', async (t) => {
  if (!which('redis-server')) return unavailable(t, 'redis-server is not on PATH (apt-get install redis-server)');
  const redis = await startRedis({ password: redisPassword });
  t.after(() => redis.stop());
  const couchServer = await startCouchServer({ admin: couch });
  t.after(() => couchServer.stop());
  const services = {
    rediscloud: [redisCloudBinding(redis.port)],
    cloudantNoSQLDB: [cloudantBinding(couchServer.port)],
  };
  const secrets = [redisPassword, couch.password];

  const app = await pushApp(t, services);
  assert.deepEqual(ipv4Listeners(app.port), ['00000000'], 'listens on 0.0.0.0 (IPv4, all interfaces)');

  const health = await fetch(`${app.url}/healthz`);
  const healthText = await health.text();
  assert.equal(health.status, 200);
  const statuses = JSON.parse(healthText).stores;
  for (const store of ['memory', 'redis', 'cloudant', 'cloudant-legacy', 'couchdb-nano']) {
    assert.equal(statuses[store], 'up', store);
  }
  // --no-embedded: a store with no bound service is unavailable, not stood in for.
  for (const store of ['tarantool', 'redis-cluster']) assert.equal(statuses[store], 'unavailable', store);

  const storesText = await assertServesBoundStores(app, {
    redis: `VCAP_SERVICES storebench-redis: redis://:***@127.0.0.1:${redis.port}`,
    couchdb: `VCAP_SERVICES storebench-cloudant: http://${couch.username}:***@127.0.0.1:${couchServer.port}/`,
  });
  const pageText = await (await fetch(`${app.url}/`)).text();
  assert.match(pageText, /\/cloudant\/key1/);

  // SIGTERM with a request in flight: Redis is paused, so /redis/key2 waits for it.
  const admin = createClient({ url: `redis://:${redisPassword}@127.0.0.1:${redis.port}` });
  admin.on('error', () => {});
  await admin.connect();
  t.after(() => admin.isOpen && admin.destroy());
  await admin.sendCommand(['CLIENT', 'PAUSE', '1500', 'ALL']);
  const inFlight = fetch(`${app.url}/redis/key2`);
  await sleep(200);
  const signalledAt = performance.now();
  app.child.kill('SIGTERM');

  const deadline = Date.now() + 3000;
  while (!(await refused(app.port))) {
    assert.ok(Date.now() < deadline, 'still accepting connections 3 s after SIGTERM');
    await sleep(50);
  }
  const drained = await inFlight;
  assert.equal(drained.status, 200, 'the in-flight request completes');
  assert.deepEqual(await drained.json(), payloadObjects.key2);
  const { code, at } = await app.exited;
  assert.equal(code, 0);
  const exitMs = Math.round(at - signalledAt);
  t.diagnostic(`exited ${exitMs} ms after SIGTERM (Redis was paused for 1.3 s of it)`);
  // Cloud Foundry kills the app 10 s after SIGTERM. Regression: a drained keep-alive
  // connection used to hold the exit until the 8 s grace period forced it.
  assert.ok(exitMs < 8000, `exited ${exitMs} ms after SIGTERM`);

  assert.match(app.output.stdout, /SIGTERM: finishing in-flight requests/);
  const outputs = [['/healthz', healthText], ['/stores', storesText], ['/', pageText]];
  for (const [where, text] of [...outputs, ['stdout', app.output.stdout], ['stderr', app.output.stderr]]) {
    assertNoSecrets(assert, text, secrets, where);
  }
});

test('with a wrong Cloudant password the app still serves, answers 503 for cloudant, shows no secret', async (t) => {
  if (!which('redis-server')) return unavailable(t, 'redis-server is not on PATH (apt-get install redis-server)');
  const redis = await startRedis({ password: redisPassword });
  t.after(() => redis.stop());
  const couchServer = await startCouchServer({ admin: couch });
  t.after(() => couchServer.stop());
  const wrongPassword = 'Wrong-Pa55-But-Secret-Too';
  const services = {
    rediscloud: [redisCloudBinding(redis.port)],
    cloudantNoSQLDB: [cloudantBinding(couchServer.port, wrongPassword)],
  };

  const app = await pushApp(t, services);
  const cloudant = await fetch(`${app.url}/cloudant/key1`);
  const cloudantText = await cloudant.text();
  assert.equal(cloudant.status, 503);
  assert.equal(JSON.parse(cloudantText).store, 'cloudant');
  assert.equal((await fetch(`${app.url}/redis/key1`)).status, 200);
  const storesText = await (await fetch(`${app.url}/stores`)).text();
  const listed = JSON.parse(storesText).stores.find((store) => store.name === 'cloudant');
  assert.equal(listed.status, 'unavailable');
  assert.match(listed.reason, /(401|unauthorized|incorrect|invalid credentials)/i);
  const pageText = await (await fetch(`${app.url}/`)).text();

  app.child.kill('SIGTERM');
  assert.equal((await app.exited).code, 0);
  const outputs = [['/cloudant/key1', cloudantText], ['/stores', storesText], ['/', pageText]];
  for (const [where, text] of [...outputs, ['stdout', app.output.stdout], ['stderr', app.output.stderr]]) {
    assertNoSecrets(assert, text, [wrongPassword, redisPassword], where);
  }
});

test('an IBM Databases for Redis binding (rediss:// and its base64 CA) is reached over verified TLS', async (t) => {
  if (!which('redis-server')) return unavailable(t, 'redis-server is not on PATH (apt-get install redis-server)');
  if (!which('openssl')) {
    return unavailable(t, 'openssl is not on PATH (apt-get install openssl): needed to make a test CA');
  }
  const dir = mkdtempSync(join(tmpdir(), 'storebench-tls-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name) => join(dir, name);
  const openssl = (...args) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('ca.key'), '-out', file('ca.pem'),
    '-days', '2', '-subj', '/CN=storebench test CA');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', file('server.key'), '-out', file('server.csr'),
    '-subj', '/CN=localhost');
  writeFileSync(file('ext.cnf'), 'subjectAltName=DNS:localhost\n');
  openssl('x509', '-req', '-in', file('server.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'), '-CAcreateserial',
    '-out', file('server.pem'), '-days', '2', '-extfile', file('ext.cnf'));
  const tls = { cert: file('server.pem'), key: file('server.key'), ca: file('ca.pem') };
  const redis = await startRedis({ password: redisPassword, tls });
  t.after(() => redis.stop());

  const rediss = {
    authentication: { method: 'direct', password: redisPassword, username: 'default' },
    certificate: { certificate_base64: readFileSync(file('ca.pem')).toString('base64'), name: 'test-ca' },
    composed: [`rediss://default:${redisPassword}@localhost:${redis.port}/0`],
    hosts: [{ hostname: 'localhost', port: redis.port }],
    scheme: 'rediss',
  };
  const binding = {
    credentials: { connection: { rediss } },
    label: 'databases-for-redis',
    name: 'storebench-ibm-redis',
    plan: 'standard',
    tags: [],
  };
  const services = { 'databases-for-redis': [binding] };
  // Without the CA the same URL is refused: the certificate really is verified.
  await assert.rejects(redisAdapter.open({ redis: { url: rediss.composed[0] } }), /self-signed certificate|unable to verify/i);

  const app = await pushApp(t, services);
  const response = await fetch(`${app.url}/redis/key1`);
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), payloadObjects.key1);
  app.child.kill('SIGTERM');
  assert.equal((await app.exited).code, 0);
  assertNoSecrets(assert, app.output.stdout + app.output.stderr, [redisPassword], 'output');
});

test('user-provided services (cf cups), by name and tag, reach Redis on 6379 and the CouchDB stand-in', async (t) => {
  // A TCP probe: node-redis's connect() to a closed port retries for ever instead of failing.
  if (!(await reachable('redis://127.0.0.1:6379'))) {
    return unavailable(t, 'no Redis on 127.0.0.1:6379 (start redis-server)');
  }
  const couchServer = await startCouchServer({ admin: couch });
  t.after(() => couchServer.stop());
  const services = {
    'user-provided': [
      { credentials: { uri: 'redis://127.0.0.1:6379' }, label: 'user-provided', name: 'team-redis', tags: [] },
      {
        credentials: { url: `http://127.0.0.1:${couchServer.port}`, username: couch.username, password: couch.password },
        label: 'user-provided',
        name: 'docs',
        tags: ['couchdb'],
      },
    ],
  };
  const app = await pushApp(t, services);
  const storesText = await assertServesBoundStores(app, {
    redis: 'VCAP_SERVICES team-redis: redis://127.0.0.1:6379',
    couchdb: `VCAP_SERVICES docs: http://${couch.username}:***@127.0.0.1:${couchServer.port}/`,
  });
  app.child.kill('SIGTERM');
  assert.equal((await app.exited).code, 0);
  assertNoSecrets(assert, storesText + app.output.stdout + app.output.stderr, [couch.password], 'output');
});

test('on the platform writes need the manifest\'s token: off when none is configured, else only with it', async (t) => {
  const manifestEnv = /^\s+STOREBENCH_WRITE_TOKEN: \(\(write_token\)\)$/m.test(readFileSync(join(root, 'manifest.yml'), 'utf8'));
  assert.ok(manifestEnv, 'manifest.yml sets STOREBENCH_WRITE_TOKEN from write_token');
  const put = (app, headers = {}) => fetch(`${app.url}/memory/cf-write`, { method: 'PUT', body: 'v', headers });

  const open = await pushApp(t, {});
  const disabled = (await (await put(open)).json()).code;
  assert.equal(disabled, 'WRITES_DISABLED', 'bound to 0.0.0.0: not loopback, whoever connects');
  open.child.kill('SIGTERM');
  await open.exited;

  const token = 'Cf-Write-Token-0123456789abcdef';
  const guarded = await pushApp(t, {}, { STOREBENCH_WRITE_TOKEN: token });
  assert.equal((await put(guarded)).status, 401);
  assert.equal((await put(guarded, { Authorization: `Bearer ${token}` })).status, 204);
  assert.equal(await (await fetch(`${guarded.url}/memory/cf-write`)).text(), 'v');
  guarded.child.kill('SIGTERM');
  assert.equal((await guarded.exited).code, 0);
  assertNoSecrets(assert, guarded.output.stdout + guarded.output.stderr, [token], 'output');
});
