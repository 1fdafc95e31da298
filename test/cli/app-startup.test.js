// node app.js as a user starts it: what it prints while it opens its stores, where it says it
// listens, and that no setting, however broken, keeps it from serving the stores that work.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Starts app.js with args and env; resolves once it prints its listening line, with every
 * stdout line and when it arrived (ms after the start), and stop() (SIGTERM, resolves to the exit code).
 */
function startApp(args, env = {}) {
  const child = spawn(process.execPath, ['app.js', ...args], {
    cwd: root, env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const startedAt = performance.now();
  const lines = [];
  let stderr = '';
  let pending = '';
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const output = () => `${lines.map((l) => l.text).join('\n')}\n${stderr}`;
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { stop(); reject(new Error(`not listening within 30 s:\n${output()}`)); }, 30_000);
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.stdout.on('data', (chunk) => {
      pending += chunk;
      const parts = pending.split('\n');
      pending = parts.pop();
      for (const text of parts) {
        lines.push({ text, at: performance.now() - startedAt });
        if (text.startsWith('storebench app listening on ')) {
          clearTimeout(timer);
          resolve({ lines, stderr: () => stderr, stop });
        }
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`app.js exited ${code} before listening:\n${output()}`));
    });
  });
}

test('bound to every interface, the app says so, and where this machine reaches it', async () => {
  // Pins #9.14: it printed "listening on http://127.0.0.1:3000" while bound to every interface.
  const wildcard = await startApp(['--port', '0', '--stores', 'memory', '--no-embedded']);
  const line = wildcard.lines.at(-1).text;
  assert.match(line, /^storebench app listening on all interfaces, IPv6 and IPv4 \(::\), port (\d+): http:\/\/127\.0\.0\.1:\1 from this machine$|^storebench app listening on all IPv4 interfaces \(0\.0\.0\.0\), port (\d+): http:\/\/127\.0\.0\.1:\2 from this machine$/);
  assert.equal(await wildcard.stop(), 0);
  const loopback = await startApp(['--port', '0', '--host', '127.0.0.1', '--stores', 'memory', '--no-embedded']);
  assert.match(loopback.lines.at(-1).text, /^storebench app listening on http:\/\/127\.0\.0\.1:\d+$/);
  assert.equal(await loopback.stop(), 0);
});

test('each store is printed as it comes up, not all at once when the slowest is done', async (t) => {
  // Pins #9.14: node app.js was silent for 5-20 s while servers started, then printed everything at once.
  const slowCouch = createServer((req, res) => {
    setTimeout(() => { res.writeHead(500); res.end('{"error":"slow"}'); }, 2000);
  });
  await new Promise((resolve) => slowCouch.listen(0, '127.0.0.1', resolve));
  t.after(() => { slowCouch.closeAllConnections(); slowCouch.close(); });
  const app = await startApp(['--port', '0', '--host', '127.0.0.1', '--stores', 'memory,cloudant', '--no-embedded'], { CLOUDANT_URL: `http://127.0.0.1:${slowCouch.address().port}` });
  t.after(() => app.stop());
  const [first, ...rest] = app.lines;
  assert.match(first.text, /^storebench app: opening stores\.\.\.$/);
  const memory = rest.find((line) => /^ {2}memory {11}up$/.test(line.text));
  const cloudant = rest.find((line) => /^ {2}cloudant {9}unavailable: /.test(line.text));
  assert.ok(memory && cloudant, app.lines.map((line) => line.text).join('\n'));
  assert.ok(cloudant.at - memory.at > 1000,
    `memory was printed ${Math.round(cloudant.at - memory.at)} ms before the slow cloudant, not as it came up`);
});

test('a server the embedded default starts is printed as soon as it is up, before the stores using it', async (t) => {
  const app = await startApp(['--port', '0', '--host', '127.0.0.1', '--stores', 'memory,cloudant']);
  t.after(() => app.stop());
  const texts = app.lines.map((line) => line.text);
  const server = texts.findIndex((text) => /^ {2}couchdb server started here: http:\/\/127\.0\.0\.1:\d+\/$/.test(text));
  const store = texts.findIndex((text) => /^ {2}cloudant {9}up \(embedded: http:\/\/127\.0\.0\.1:\d+\/\)$/.test(text));
  assert.ok(server > 0 && store > server, texts.join('\n'));
});

test('a malformed VCAP_SERVICES binding leaves its store unavailable, the app serving; no secret printed', async () => {
  // Pins #9.5: tags given as text stopped the app: "cannot start: (list ?? []).map is not a function", exit 1.
  const binding = {
    name: 'x', label: 'user-provided', tags: 'redis', credentials: { uri: 'redis://:Vcap5ecret77@127.0.0.1:6390' },
  };
  const vcap = { 'user-provided': [binding] };
  const args = ['--port', '0', '--host', '127.0.0.1', '--stores', 'memory,redis,postgres', '--no-embedded'];
  const app = await startApp(args, {
    VCAP_SERVICES: JSON.stringify(vcap),
    POSTGRES_URL: 'postgres://u:Pw/Slash5ecret@127.0.0.1:1/db',
  });
  const text = app.lines.map((line) => line.text).join('\n');
  assert.match(text, /^ {2}redis {12}unavailable: bound service "x" \(user-provided, matched by tag\) cannot be used for redis: its tags is text/m);
  assert.match(text, /^ {2}postgres {9}unavailable: POSTGRES_URL is not a valid postgres:\/\/ URL; /m);
  assert.match(text, /^ {2}memory {11}up$/m);
  assert.equal(await app.stop(), 0);
  for (const secret of ['Vcap5ecret77', 'Slash5ecret']) {
    assert.ok(!(text + app.stderr()).includes(secret), `output shows ${secret}`);
  }
});

test('--stores "" alone is a usage error (exit 2), as the driver\'s is', () => {
  // Pins #9.7: app.js --stores "" started with no store while the driver rejected the same input.
  const result = spawnSync(process.execPath, ['app.js', '--stores', ''], {
    cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH }, timeout: 10_000,
  });
  assert.equal(result.status, 2);
  assert.deepEqual(result.stderr.trim().split('\n'), [
    'app.js: --stores needs at least one store name',
    'Run node app.js --help for usage.',
  ]);
});
