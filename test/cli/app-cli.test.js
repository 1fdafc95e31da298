// node app.js as a user runs it: every bad flag reported at once, exit 2; --help, exit 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const runApp = (args, env = {}) => spawnSync(process.execPath, ['app.js', ...args], {
  cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH, ...env }, timeout: 10_000,
});

test('bad flags and settings: every problem on its own line, worded like the driver\'s, ' +
  'then exit 2 without starting', () => {
  const result = runApp(['--bogus', '--port', 'x', '--stores', '', 'stray'], { POSTGRES_POOL_SIZE: '0' });
  assert.equal(result.status, 2);
  assert.equal(result.stdout, '');
  assert.deepEqual(result.stderr.trim().split('\n'), [
    'app.js: unknown option --bogus',
    'app.js: unexpected argument "stray"',
    'app.js: --port must be a whole number from 0 to 65535, not "x"',
    'app.js: --stores needs at least one store name',
    'app.js: POSTGRES_POOL_SIZE must be a positive whole number, not "0"',
    'Run node app.js --help for usage.',
  ]);
});

test('--host "" is a usage error like --port "": one line, exit 2, nothing bound', () => {
  // Pins #18.9: --host "" was accepted and bound every interface, while --port "" was refused.
  const cases = [
    ['--host', 'app.js: --host needs an address, such as 127.0.0.1, :: or 0.0.0.0 (every IPv4 interface)'],
    ['--port', 'app.js: --port must be a whole number from 0 to 65535'],
  ];
  for (const [flag, problem] of cases) {
    const result = runApp([flag, '', '--stores', 'memory', '--no-embedded']);
    assert.equal(result.status, 2, `${flag} "": ${result.stdout}`);
    assert.equal(result.stdout, '', `${flag} "" started nothing`);
    assert.deepEqual(result.stderr.trim().split('\n'), [problem, 'Run node app.js --help for usage.']);
  }
});

test('HTTP deadlines are settings: a bad one, or a headers deadline past the request\'s, is a usage error', () => {
  const result = runApp(['--stores', 'memory', '--no-embedded'], {
    STOREBENCH_HEADERS_TIMEOUT_MS: '20000',
    STOREBENCH_REQUEST_TIMEOUT_MS: '5000',
    STOREBENCH_BODY_IDLE_TIMEOUT_MS: '5m',
  });
  assert.equal(result.status, 2);
  assert.deepEqual(result.stderr.trim().split('\n'), [
    'app.js: STOREBENCH_BODY_IDLE_TIMEOUT_MS must be a whole number of milliseconds from 1 to 600000, not "5m"',
    'app.js: STOREBENCH_HEADERS_TIMEOUT_MS (20000 ms) must not be longer than ' +
      'STOREBENCH_REQUEST_TIMEOUT_MS (5000 ms): the headers are part of the request',
    'Run node app.js --help for usage.',
  ]);
});

test('usage problems never show a configured secret', () => {
  const result = runApp(['--port', '-1'], { REDIS_URL: 'redis://:Hidden-Pa55@h:1' });
  assert.equal(result.status, 2);
  assert.ok(!result.stderr.includes('Hidden-Pa55'));
});

test('--help prints the usage and exits 0', () => {
  const result = runApp(['--help']);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /^Usage: node app\.js \[options\]/);
  assert.match(result.stdout, /CLOUDANT_APIKEY/);
});

test('package.json\'s bins (npx storebench, npx storebench-app) run as programs: ' +
  'a node shebang and the executable bit', () => {
  const { bin } = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
  assert.deepEqual(bin, { storebench: 'test.js', 'storebench-app': 'app.js' });
  for (const file of Object.values(bin)) {
    assert.match(readFileSync(`${root}/${file}`, 'utf8'), /^#!\/usr\/bin\/env node\n/, file);
    const result = spawnSync(`${root}/${file}`, ['--help'], { cwd: root, encoding: 'utf8', timeout: 10_000 });
    assert.equal(result.status, 0, `${file}: ${result.error?.message ?? result.stderr}`);
    assert.match(result.stdout, /^Usage: /, file);
  }
});
