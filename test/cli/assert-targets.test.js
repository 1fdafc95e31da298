// `--assert` naming a store the run does not sweep was found only after the whole run
// (`--stores memory --assert 'redis:p99<5ms'` swept memory, then exited 3): now exit 2 before any load.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { runDriverCli } from '../helpers/driver-cli.js';
import { startTestServer } from '../helpers/driver-servers.js';

const USAGE_HINT = 'Run node test --help for usage.\n';
const SMALL = ['-c', '1', '-n', '10', '--warmup', '0'];
const notSwept = (threshold, store, sweeps) =>
  `node test: --assert "${threshold}" names ${store}, which this run does not sweep (${sweeps})\n${USAGE_HINT}`;

// A target app on port 0 whose /stores lists memory up and redis unavailable; it counts every
// other request, so a test can tell that no load was sent.
async function startListingServer(t) {
  const loaded = [];
  const server = createServer((request, response) => {
    if (request.url === '/stores') {
      response.writeHead(200, { 'content-type': 'application/json' });
      const stores = [
        { name: 'memory', status: 'up', keys: ['key1'] },
        { name: 'redis', status: 'unavailable', reason: 'no REDIS_URL', keys: [] },
      ];
      response.end(JSON.stringify({ stores }));
      return;
    }
    loaded.push(request.url);
    response.end('{"message":"Text data"}');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  }));
  return { url: `http://127.0.0.1:${server.address().port}`, loaded };
}

test('--stores memory --assert redis:...: exit 2 at once, one line, nothing started', async () => {
  const asserts = ['--assert', 'redis:p99<5ms', '--assert', 'memory:errors=0'];
  const result = await runDriverCli(['--stores', 'memory', ...asserts, ...SMALL]);
  assert.equal(result.status, 2, result.stderr);
  assert.equal(result.stdout, '', 'no table, not even the header: the app was never started');
  assert.equal(result.stderr, notSwept('redis:p99<5ms', 'redis', '--stores: memory'));
});

test('--url: a threshold on a store no URL measures exits 2 before a request is sent', async (t) => {
  const server = await startTestServer(t);
  const url = `${server.url}/memory/key1`;
  const result = await runDriverCli(['--url', url, '--assert', 'redis:rps>=1', ...SMALL]);
  assert.equal(result.status, 2, result.stderr);
  assert.equal(result.stderr, notSwept('redis:rps>=1', 'redis', 'the --url list: memory'));
  assert.equal(server.heldMs.length, 0, 'no request reached the server');
  const fine = await runDriverCli(['--url', url, '--assert', 'memory:errors=0', ...SMALL]);
  assert.equal(fine.status, 0, 'a threshold on a store the run measures is checked after it, as before');
  assert.equal(server.heldMs.length, 11, 'its 10 requests and the reachability check');
});

test('--target: a store /stores lists as unavailable is found once the listing is read, before any load', async (t) => {
  const target = await startListingServer(t);
  const result = await runDriverCli(['--target', target.url, '--assert', 'redis:p99<5ms', ...SMALL]);
  assert.equal(result.status, 2, result.stderr);
  assert.equal(result.stderr, notSwept('redis:p99<5ms', 'redis', `${target.url}/: memory; redis is unavailable there`));
  assert.deepEqual(target.loaded, [], 'only /stores was asked for');
  const unlisted = await runDriverCli(['--target', target.url, '--assert', 'tarantool:errors=0', ...SMALL]);
  assert.equal(unlisted.status, 2);
  assert.equal(unlisted.stderr, notSwept('tarantool:errors=0', 'tarantool', `${target.url}/: memory`));
  assert.deepEqual(target.loaded, []);
});

test('the embedded default: a store name this checkout does not know exits 2 before app.js starts', async () => {
  const started = Date.now();
  const result = await runDriverCli(['--assert', 'nosuch:p99<5ms', '-c', '1', '-n', '10']);
  assert.equal(result.status, 2, result.stderr);
  assert.match(result.stderr, /^node test: --assert: unknown store "nosuch" \(known: memory, redis, .*\)\n/);
  assert.ok(result.stderr.endsWith(`)\n${USAGE_HINT}`));
  assert.equal(result.stdout, '');
  assert.ok(Date.now() - started < 5000, 'no app.js and no servers were started');
});
