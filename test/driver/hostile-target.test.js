// A hostile target cannot write to the user's terminal: node test --target checks the store
// names and keys a /stores listing gives against the alphabets, and prints whatever else came
// over the network (reasons, statuses, a body quoted in an error) without control characters,
// one line each. The HTML report escapes the same text.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runDriverCli } from '../helpers/driver-cli.js';

const ESC = '\x1b';
const BEL = '\x07';
// Sets the window title, erases the line, moves up one: then a line of its own.
const ATTACK = `${ESC}]0;OWNED-TITLE${BEL}${ESC}[2K${ESC}[1A\nall good: every store up, 0 errors\r\n`;
const FAKE_LINE = /^all good/m;
const MARKUP = '<script>alert(1)</script><img src=x onerror=alert(2)>';

/** A real HTTP server on port 0 answering `routes` (path -> [status, body]); records every path asked for. */
async function hostileServer(t, routes) {
  const asked = [];
  const server = createServer((req, res) => {
    asked.push(req.url);
    const [status, body] = routes[req.url] ?? [404, '{"error":"no"}'];
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${server.address().port}`, asked };
}

const listing = {
  stores: [
    { name: 'memory', status: 'up', keys: ['key1'] },
    { name: 'redis', status: `down${ESC}[31m`, reason: `${ATTACK}${MARKUP}`, keys: [] },
    { name: `evil${ESC}[2K${ESC}[1A`, status: 'up', keys: ['key1'] },
    { name: 'sneaky', status: 'up', keys: [`key1${ESC}]0;OWNED-TITLE${BEL}`] },
    { name: 'c1\u009b2Kc1', status: 'up', keys: ['key1'] },
  ],
  limits: {},
};

/** Asserts text holds no control character but line breaks, and no line of the target's own. */
function assertInert(text, where) {
  const isControl = (c) => {
    const code = c.codePointAt(0);
    return c !== '\n' && (code < 0x20 || (code >= 0x7f && code <= 0x9f));
  };
  const controls = [...text].filter(isControl).map((c) => `U+${c.codePointAt(0).toString(16).padStart(4, '0')}`);
  assert.deepEqual(controls, [], `${where} holds control characters`);
  assert.doesNotMatch(text, FAKE_LINE, `${where} holds the target's fake line`);
}

test('node test --target prints a hostile /stores listing inertly ' +
  'and sweeps only the stores with valid names and keys', async (t) => {
  // Pins #18.2: a target's reasons, store names and keys were printed as they came, escape
  // sequences and a fake "all good" line included.
  const target = await hostileServer(t, { '/stores': [200, listing], '/memory/key1': [200, { message: 'Text data' }] });
  const dir = mkdtempSync(join(tmpdir(), 'storebench-hostile-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const html = join(dir, 'report.html');
  const result = await runDriverCli(['--target', target.url, '-c', '1', '-n', '20', '--warmup', '0', '--html', html]);
  assert.equal(result.status, 0, result.stderr);
  assertInert(result.stdout, 'stdout');
  assertInert(result.stderr, 'stderr');
  assert.match(result.stdout, /^## http:\/\/127\.0\.0\.1:\d+\/memory\/key1$/m);
  // One line per skipped store, each saying what it was, with what the target said made inert
  assert.match(result.stdout, /^skipped redis: down\[31m \(\]0;OWNED-TITLE\[2K\[1A all good: every store up, 0 errors <script>/m);
  assert.match(result.stdout, /^skipped evil\[2K\[1A: refused \(not swept: its name is not a store name \(a store name is 1 to 250 characters of A-Z a-z 0-9 \. _ : ~ - \+\)\)$/m);
  assert.match(result.stdout, /^skipped sneaky: refused \(not swept: it lists a key that is not a key \(a key has only the characters A-Z a-z 0-9 \. _ : ~ -, not U\+001B\): "key1\]0;OWNED-TITLE"\)$/m);
  assert.match(result.stdout, /^skipped c12Kc1: refused /m);
  // Nothing was asked of a store whose name or keys were refused
  assert.deepEqual([...new Set(target.asked)].sort(), ['/memory/key1', '/stores']);
  // The HTML report escapes the same text (it is not made for a terminal: it keeps it, escaped)
  const page = readFileSync(html, 'utf8');
  assert.ok(page.includes('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;'),
    'the reason, escaped');
  assert.ok(!page.includes(MARKUP) && !page.includes('<img src=x'), 'no markup of the target\'s in the page');
});

test('a store named with --stores that a hostile target says is down fails in one inert line per store', async (t) => {
  const target = await hostileServer(t, { '/stores': [200, listing], '/memory/key1': [200, { message: 'Text data' }] });
  const result = await runDriverCli([
    '--target', target.url, '--stores', 'memory,redis', '-c', '1', '-n', '20', '--warmup', '0', '-q',
  ]);
  assert.equal(result.status, 1, result.stderr);
  assertInert(result.stderr, 'stderr');
  assert.match(result.stderr, /^node test: redis is down\[31m, so it was not swept: \]0;OWNED-TITLE\[2K\[1A all good/m);
  assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
});

test('a target whose /stores is not JSON is quoted inertly', async (t) => {
  const target = await hostileServer(t, { '/stores': [200, `${ESC}]0;OWNED${BEL}\u009b2K\nall good`] });
  const result = await runDriverCli(['--target', target.url, '-q']);
  assert.equal(result.status, 1);
  assertInert(result.stderr, 'stderr');
  assert.match(result.stderr, /did not return JSON \(is this a storebench app\?\): "\]0;OWNED2K all good"/);
});
