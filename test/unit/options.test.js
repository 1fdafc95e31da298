import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArguments, DEFAULT_CONCURRENCY, DEFAULT_DURATION_SECONDS } from '../../driver/options.js';
import { parseJsonArguments } from '../../driver/json-options.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = (script, args) => spawnSync(process.execPath, [script, ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 });

test('no flags: the embedded default with the original concurrency steps', () => {
  const { command, options, problems, help } = parseArguments([]);
  assert.deepEqual(problems, []);
  assert.equal(help, false);
  assert.equal(command, 'run');
  assert.deepEqual(options.concurrency, [5, 10, 15, 20, 25, 30]);
  assert.deepEqual(DEFAULT_CONCURRENCY, [5, 10, 15, 20, 25, 30]);
  assert.equal(options.requests, undefined, 'steps are timed by default');
  assert.equal(options.duration, DEFAULT_DURATION_SECONDS);
  assert.equal(DEFAULT_DURATION_SECONDS, 2);
  assert.equal(options.keepAlive, true);
  assert.deepEqual(options.urls, []);
  assert.equal(options.target, undefined);
});

test('every flag is read', () => {
  const { options, problems } = parseArguments([
    '--target', 'http://127.0.0.1:3000', '-c', '1, 2,3', '-n', '50', '--warmup', '0', '--no-keepalive',
    '--timeout', '250', '--stores', 'memory,redis', '--keys', 'key1', '--json', '-', '--csv', 'out.csv', '-q',
  ]);
  assert.deepEqual(problems, []);
  assert.deepEqual(options, {
    urls: [],
    target: 'http://127.0.0.1:3000',
    concurrency: [1, 2, 3],
    requests: 50,
    duration: undefined,
    rps: undefined,
    warmup: 0,
    keepAlive: false,
    timeoutMs: 250,
    stores: ['memory', 'redis'],
    keys: ['key1'],
    json: '-',
    csv: 'out.csv',
    quiet: true,
  });
});

test('--url repeats, -t replaces the request count, --rps takes a list of rates', () => {
  const { options, problems } = parseArguments(['--url', 'http://a/redis/key1', '-u', 'https://b/x', '-t', '2.5', '--rps', '100,250.5']);
  assert.deepEqual(problems, []);
  assert.deepEqual(options.urls, ['http://a/redis/key1', 'https://b/x']);
  assert.equal(options.duration, 2.5);
  assert.equal(options.requests, undefined);
  assert.deepEqual(options.rps, [100, 250.5]);
});

test('every problem is reported at once, not just the first', () => {
  const { problems } = parseArguments(['--bogus', '-c', 'x,0', '-n', '-3', '--url', 'ftp://x', '--target', 'http://a', 'extra', '--json']);
  assert.deepEqual(problems, [
    'unknown option --bogus',
    '--json needs a value',
    'unexpected argument "extra"',
    '--url "ftp://x" is not an http:// or https:// URL',
    'use either --url or --target, not both',
    '-c/--concurrency: "x" is not a positive whole number',
    '-c/--concurrency: "0" is not a positive whole number',
    '-n/--requests must be a positive whole number, not "-3"',
  ]);
});

test('contradictory flags are problems', () => {
  assert.deepEqual(parseArguments(['-n', '10', '-t', '1']).problems, ['use either -n/--requests or -t/--duration, not both']);
  assert.deepEqual(parseArguments(['--rps', '100', '-c', '5']).problems, ['--rps replaces the concurrency sweep: drop -c/--concurrency']);
  assert.deepEqual(parseArguments(['--url', 'http://a/b', '--stores', 'redis']).problems, [
    '--stores and --keys choose from a /stores listing; with --url, list the URLs you want',
  ]);
  assert.deepEqual(parseArguments(['--csv', '-']).problems, ['--csv needs a file name ("-" is only for --json)']);
  assert.deepEqual(parseArguments(['--timeout', '1.5', '-t', '0', '--rps', 'fast']).problems, [
    '-t/--duration must be a positive number of seconds, not "0"',
    '--rps: "fast" is not a positive rate (requests per second)',
    '--timeout must be a positive whole number of milliseconds, not "1.5"',
  ]);
  assert.deepEqual(parseArguments(['--quiet=yes']).problems, ['--quiet takes no value']);
});

test('node test with bad flags prints every problem and exits 2', () => {
  const result = run('test.js', ['--bogus', '-c', 'x']);
  assert.equal(result.status, 2);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /node test: unknown option --bogus/);
  assert.match(result.stderr, /node test: -c\/--concurrency: "x" is not a positive whole number/);
  assert.match(result.stderr, /Run node test --help for usage\./);
});

test('node test --help prints the usage and exits 0', () => {
  const result = run('test.js', ['--help']);
  assert.equal(result.status, 0);
  assert.match(result.stdout, /^Usage: node test \[options\]/);
  assert.match(result.stdout, /^ {7}node test report FILE\.json$/m);
  for (const flag of ['--url', '--target', '--concurrency', '--requests', '--duration', '--warmup', '--no-keepalive', '--timeout', '--rps', '--stores', '--keys', '--json', '--csv', '--quiet', '--help']) {
    assert.ok(result.stdout.includes(flag), `usage lacks ${flag}`);
  }
});

test('node test report FILE takes one file and no other flag', () => {
  assert.deepEqual(parseArguments(['report', 'saved.json']), { command: 'report', help: false, options: { file: 'saved.json' }, problems: [] });
  assert.equal(parseArguments(['report', '--help']).help, true);
  assert.deepEqual(parseArguments(['report']).problems, ['report needs the FILE.json a run wrote with --json']);
  assert.deepEqual(parseArguments(['report', 'a.json', 'b.json', '-c', '5']).problems, ['unknown option -c', 'unexpected argument "b.json"', 'unexpected argument "5"']);
  assert.deepEqual(parseArguments(['-c', '5', 'report']).problems, ['unexpected argument "report"'], 'report comes first');
});

test('node test report with a file it cannot use prints one line: exit 1 unreadable, exit 2 not a results file', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-report-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const missing = run('test.js', ['report', join(dir, 'missing.json')]);
  assert.equal(missing.status, 1);
  assert.equal(missing.stderr, `node test: cannot read ${join(dir, 'missing.json')}: ENOENT\n`);
  assert.equal(missing.stdout, '');
  const cases = [
    ['not-json.json', 'hello {', /^node test: .*not-json\.json: not JSON \(.*\)\n$/],
    ['other.json', '{"format":"storebench-json/1","results":[]}', /^node test: .*other\.json: not a storebench results file \(its format is "storebench-json\/1", not storebench-results\/3\)\n$/],
    ['old.json', '{"format":"storebench-driver/1","steps":[]}', /^node test: .*old\.json: written in the older format storebench-driver\/1; this storebench reads storebench-results\/3 \(run the benchmark again to get one\)\n$/],
    ['broken.json', '{"format":"storebench-results/3","steps":[]}', /^node test: .*broken\.json: not a valid storebench-results\/3 file: interrupted is missing, expected true or false\n$/],
  ];
  for (const [name, content, pattern] of cases) {
    await writeFile(join(dir, name), content);
    const result = run('test.js', ['report', join(dir, name)]);
    assert.equal(result.status, 2, `${name}: ${result.stderr}`);
    assert.match(result.stderr, pattern);
    assert.equal(result.stdout, '');
  }
});

test('node test-json with a bad flag exits 2 with the reason', () => {
  const result = run('test-json.js', ['--rounds', '0']);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /--rounds must be a positive whole number, not "0"/);
  assert.equal(run('test-json.js', ['--nope']).status, 2);
});

test('test-json flags parse, and every problem is reported', () => {
  assert.deepEqual(parseJsonArguments(['--rounds', '5', '--json', 'x.json']), { help: false, problems: [], options: { rounds: 5, json: 'x.json' } });
  assert.deepEqual(parseJsonArguments(['--nope', '--rounds', 'x', 'extra', '--json']).problems, [
    'unknown option --nope',
    '--json needs a value',
    'unexpected argument "extra"',
    '--rounds must be a positive whole number, not "x"',
  ]);
});
