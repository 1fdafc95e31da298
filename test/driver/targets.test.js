import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runDriverCli } from '../helpers/driver-cli.js';
import { fetchStoreListing, selectTargets, joinUrl, checkReachable } from '../../driver/targets.js';
import { targetFromUrl } from '../../util/url-target.js';
import { RunError } from '../../util/errors.js';
import { closedPort } from '../helpers/driver-servers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function serve(t, handler) {
  const server = createServer(handler);
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return `http://127.0.0.1:${server.address().port}`;
}

const listing = [
  { name: 'memory', status: 'up', keys: ['key1', 'key2', 'key3'] },
  { name: 'redis', status: 'up', keys: ['key1', 'key2', 'key3'] },
  { name: 'cloudant', status: 'unavailable', reason: 'cloudant: no CLOUDANT_URL', keys: ['key1', 'key2', 'key3'] },
];

test('every store that is up x every key it lists is swept; the others are skipped with the reason', () => {
  const { targets, skipped, problems } = selectTargets(listing, 'http://127.0.0.1:3000');
  assert.deepEqual(problems, []);
  assert.deepEqual(targets.map((t) => t.url), [
    'http://127.0.0.1:3000/memory/key1', 'http://127.0.0.1:3000/memory/key2', 'http://127.0.0.1:3000/memory/key3',
    'http://127.0.0.1:3000/redis/key1', 'http://127.0.0.1:3000/redis/key2', 'http://127.0.0.1:3000/redis/key3',
  ]);
  // The listing's reason starts with the store's name (as older apps wrote it): the skip line names it once.
  assert.deepEqual(skipped, [{ store: 'cloudant', status: 'unavailable', reason: 'no CLOUDANT_URL' }]);
});

test('--stores and --keys narrow the sweep, and names the listing lacks are problems', () => {
  const chosen = selectTargets(listing, 'https://app.example.com/prefix/', { stores: ['redis'], keys: ['key2'] });
  assert.deepEqual(chosen.targets, [{ url: 'https://app.example.com/prefix/redis/key2', store: 'redis', key: 'key2' }]);
  assert.deepEqual(chosen.skipped, []);
  const bad = selectTargets(listing, 'http://h', { stores: ['mongo', 'redis'], keys: ['key9'] });
  assert.deepEqual(bad.problems, [
    '--stores: http://h/ has no store "mongo" (it has: memory, redis, cloudant)',
    '--keys: no store at http://h/ lists key "key9" (known: key1, key2, key3)',
  ]);
});

// `--stores redis --keys key1` with Redis unavailable blamed the key ("no store
// at http://127.0.0.1:39091/ lists key "key1" (known: none)") and exited 2: a store that is not
// up lists no keys, so the key cannot be judged; the store is skipped with its reason instead.
test('a key is not a problem when no store chosen is up to list it: the store is skipped with its reason', () => {
  const down = [
    { name: 'memory', status: 'up', keys: ['key1'] },
    { name: 'redis', status: 'unavailable', reason: 'no REDIS_URL and no redis-server on PATH', keys: [] },
  ];
  const chosen = selectTargets(down, 'http://127.0.0.1:39091', { stores: ['redis'], keys: ['key1'], label: 'the embedded app.js' });
  assert.deepEqual(chosen.problems, []);
  assert.deepEqual(chosen.targets, []);
  assert.deepEqual(chosen.skipped, [
    { store: 'redis', status: 'unavailable', reason: 'no REDIS_URL and no redis-server on PATH' },
  ]);
  // With a store up to judge by, an unknown key is still a problem, named by the label.
  assert.deepEqual(selectTargets(down, 'http://x', { keys: ['key9'], label: 'the embedded app.js' }).problems, [
    '--keys: no store at the embedded app.js lists key "key9" (known: key1)',
  ]);
});

test('a store name in /stores is path-encoded in the URL swept (postgres+redis -> postgres%2Bredis)', () => {
  const { targets } = selectTargets([{ name: 'postgres+redis', status: 'up', keys: ['key1'] }], 'http://h:1');
  assert.deepEqual(targets, [{ url: 'http://h:1/postgres%2Bredis/key1', store: 'postgres+redis', key: 'key1' }]);
});

test('URLs given with --url are labelled store/key from their path', () => {
  assert.deepEqual(targetFromUrl('http://h:1/redis/key1'), { url: 'http://h:1/redis/key1', store: 'redis', key: 'key1' });
  assert.equal(targetFromUrl('http://h:1/').key, '/');
  assert.equal(joinUrl('http://h:1/base/?q=1', 'stores'), 'http://h:1/base/stores');
});

test('a /stores that is not JSON fails with one clear message', async (t) => {
  const url = await serve(t, (req, res) => res.end('<html>hello</html>'));
  await assert.rejects(fetchStoreListing(url), (error) => error instanceof RunError && /stores did not return JSON \(is this a storebench app\?\)/.test(error.message));
});

test('a /stores JSON without a stores list fails clearly', async (t) => {
  const url = await serve(t, (req, res) => res.end('{"hello":1}'));
  await assert.rejects(fetchStoreListing(url), /returned JSON without a "stores" list/);
});

test('an unreachable target fails with the reason and never shows a password', async () => {
  const port = await closedPort();
  await assert.rejects(fetchStoreListing(`http://user:hunter2@127.0.0.1:${port}`), (error) => {
    assert.ok(error instanceof RunError);
    assert.match(error.message, /^cannot reach http:\/\/user:\*\*\*@127\.0\.0\.1:\d+\/stores: ECONNREFUSED$/);
    return true;
  });
  await assert.rejects(checkReachable(`http://127.0.0.1:${port}/x`), /cannot reach .*ECONNREFUSED/);
});

test('node test --target at a closed port exits 1 with one line', async () => {
  const port = await closedPort();
  const result = await runDriverCli(['--target', `http://127.0.0.1:${port}`, '-q']);
  assert.equal(result.status, 1);
  assert.equal(result.stderr, `node test: cannot reach http://127.0.0.1:${port}/stores: ECONNREFUSED\n`);
});

test('node test --target whose /stores is not JSON exits 1', async (t) => {
  const url = await serve(t, (req, res) => res.end('not json'));
  const result = await runDriverCli(['--target', url, '-q']);
  assert.equal(result.status, 1);
  assert.match(result.stderr, /^node test: http:\/\/127\.0\.0\.1:\d+\/stores did not return JSON/);
});

test('node test --target with a store the target does not have exits 2', async (t) => {
  const url = await serve(t, (req, res) => res.end(JSON.stringify({ stores: listing })));
  const result = await runDriverCli(['--target', url, '--stores', 'mongo', '-q']);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /node test: --stores: http:\/\/127\.0\.0\.1:\d+\/ has no store "mongo"/);
});

test('node test --url at a closed port exits 1', async () => {
  const port = await closedPort();
  const result = spawnSync(process.execPath, ['test.js', '--url', `http://127.0.0.1:${port}/redis/key1`], { cwd: root, encoding: 'utf8' });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /cannot reach http:\/\/127\.0\.0\.1:\d+\/redis\/key1: ECONNREFUSED/);
});

test('the embedded default refuses a store this checkout does not have, exit 2', () => {
  const result = spawnSync(process.execPath, ['test.js', '--stores', 'nosuchstore'], { cwd: root, encoding: 'utf8' });
  assert.equal(result.status, 2);
  assert.match(result.stderr, /--stores: unknown store "nosuchstore" \(known: memory/);
});

test('credentials in --target go out as basic auth, as loadtest sends them', async (t) => {
  let authorization;
  const url = await serve(t, (req, res) => {
    authorization = req.headers.authorization;
    res.end(JSON.stringify({ stores: listing }));
  });
  const stores = await fetchStoreListing(url.replace('http://', 'http://bench:s3cret@'));
  assert.equal(stores.length, 3);
  assert.equal(authorization, `Basic ${Buffer.from('bench:s3cret').toString('base64')}`);
});

// Ports fetch() (undici) refuses as "bad ports", nearest to 6666 first.
const BLOCKED_PORTS = [6666, 6665, 6667, 6668, 6669, 6000, 6566, 5060, 5061];

async function listenOnBlockedPort(t, handler) {
  for (const port of BLOCKED_PORTS) {
    const server = createServer(handler);
    const bound = await new Promise((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue;
    t.after(() => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }));
    return port;
  }
  return null;
}

// --url/--target checked reachability with fetch(), which refuses the ports
// browsers block: a live server on 6666 that curl reaches gave "cannot reach ...: bad port", exit 1.
test('--url and --target reach a server on a port fetch() refuses (6666), as the load itself does', async (t) => {
  const port = await listenOnBlockedPort(t, (req, res) => {
    if (req.url === '/stores') {
      return res.end(JSON.stringify({ stores: [{ name: 'memory', status: 'up', keys: ['key1'] }] }));
    }
    res.end('{"message":"Text data"}');
  });
  if (port === null) {
    return t.skip(`every port fetch() blocks that this test tries is taken: ${BLOCKED_PORTS.join(', ')}`);
  }
  const base = `http://127.0.0.1:${port}`;
  assert.equal(await checkReachable(`${base}/memory/key1`), 200);
  assert.equal((await fetchStoreListing(base)).length, 1);
  for (const args of [['--url', `${base}/memory/key1`], ['--target', base]]) {
    const result = await runDriverCli([...args, '-c', '1', '-n', '5', '--warmup', '0', '-q']);
    assert.equal(result.status, 0, `${args.join(' ')}: ${result.stderr}`);
    assert.ok(result.stdout.includes(`## ${base}/memory/key1\n`), result.stdout);
  }
});

test('every /stores entry the driver cannot use is named with why, never dropped', async (t) => {
  // Pins #30.4: an entry whose keys was not a list was dropped in silence, and the run said
  // "none of the 0 store(s) listed is up (the skipped lines above say why)" with no skipped line.
  const entries = [
    { name: 'memory', status: 'up', keys: ['key1'] },
    { name: 'redis', status: 'up', keys: 'key1' },
    { name: 'tarantool', status: 'up', keys: [1] },
    { name: 42, status: 'up', keys: ['key1'] },
    { status: 'up', keys: ['key1'] },
    'postgres',
    null,
    { name: 'memcached', status: { up: true }, keys: ['key1'] },
    { name: 'cloudant', status: 'unavailable', reason: ['x'], keys: [] },
    { name: 'ioredis', status: 'up' },
    { name: 'redis-cluster', status: 'up', keys: [] },
  ];
  const url = await serve(t, (req, res) => res.end(JSON.stringify({ stores: entries })));
  const listed = await fetchStoreListing(url);
  assert.equal(listed.length, entries.length, 'one entry in, one entry out');
  const { targets, skipped } = selectTargets(listed, url);
  assert.deepEqual(targets.map((target) => `${target.store}/${target.key}`), ['memory/key1']);
  assert.deepEqual(skipped.map(({ store, status, reason }) => `${store}: ${status}: ${reason}`), [
    'redis: refused: not swept: its "keys" is a string, not a list',
    'tarantool: refused: not swept: it lists a key that is not a key (a key is 1 to 250 characters, not empty): "1"',
    '(entry 4): refused: not swept: its "name" is a number, not text',
    '(entry 5): refused: not swept: it has no "name"',
    '(entry 6): refused: not swept: the entry is a string, not a store',
    '(entry 7): refused: not swept: the entry is null, not a store',
    'memcached: refused: not swept: its "status" is an object, not text',
    'cloudant: refused: not swept: its "reason" is a list, not text',
    'ioredis: no keys: it is up but lists no keys to read',
    'redis-cluster: no keys: it is up but lists no keys to read',
  ]);
  const narrowed = selectTargets(listed, url, { keys: ['key2'] });
  assert.deepEqual(narrowed.skipped.find((skip) => skip.store === 'memory'),
    { store: 'memory', status: 'no keys', reason: 'it lists none of --keys key2 (it has: key1)' });
});

test('node test --target whose only store lists its keys as a string names it and exits 1', async (t) => {
  const listing = { stores: [{ name: 'memory', status: 'up', keys: 'key1' }] };
  const url = await serve(t, (req, res) => res.end(JSON.stringify(listing)));
  const result = await runDriverCli(['--target', url, '-q']);
  assert.equal(result.status, 1);
  assert.match(result.stdout, /^skipped memory: refused \(not swept: its "keys" is a string, not a list\)$/m);
  assert.match(result.stderr, /^node test: nothing to sweep: none of the 1 store\(s\) listed can be swept/m);
});
