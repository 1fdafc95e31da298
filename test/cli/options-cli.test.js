// node test and node test-json as a user runs them with bad flags, --help, or a file or output
// path they cannot use: every problem printed, the exit code, and nothing run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseJsonArguments } from '../../cli/json-options.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const run = (script, args) =>
  spawnSync(process.execPath, [script, ...args], { cwd: root, encoding: 'utf8', timeout: 30_000 });

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
  assert.match(result.stdout, /^ {7}node test report FILE\.json \[--html OUT\] \[--assert EXPR\]\.\.\. \[--verbose\]$/m);
  assert.match(result.stdout,
    /^ {7}node test compare \[A\.json B\.json\] \[--fail-on-regression PCT \[--ignore-busy\]\]$/m);
  assert.match(result.stdout, /^ {7}node test runs: the runs kept in storebench-results\/, one line each$/m);
  for (const flag of [
    '--url', '--target', '--concurrency', '--requests', '--duration', '--warmup', '--no-keepalive', '--timeout',
    '--rps', '--stores', '--keys', '--json', '--csv', '--quiet', '--help', '--html', '--repeat', '--assert',
    '--verbose', '--no-save',
  ]) {
    assert.ok(result.stdout.includes(flag), `usage lacks ${flag}`);
  }
});

test('node test --help says the probe sends up to 50 untimed warm-up requests before its idle figures', () => {
  // Pins the review's finding: --help's --probe line left out the warm-up the README describes.
  const result = run('test.js', ['--help']);
  const probe = result.stdout.slice(result.stdout.indexOf('  --probe'), result.stdout.indexOf('\nLoad:'));
  assert.match(probe.replace(/\s+/g, ' '), /after up to 50 untimed warm-up requests/);
});

test('node test --help says what README says each of --direct, --probe, ' +
  '--threads and --value-shape refuses, within 100 columns', () => {
  // Pins the review's finding: these limits were in README's flag table but not in --help.
  const result = run('test.js', ['--help']);
  const flag = (name) => {
    const start = result.stdout.indexOf(`\n  ${name} `);
    const end = result.stdout.slice(start + 1).search(/\n {2}-|\n\n/);
    return result.stdout.slice(start, start + 1 + end).replace(/\s+/g, ' ');
  };
  assert.match(flag('--direct'), /not with --no-keepalive/);
  assert.match(flag('--probe'), /0\.1 s at the largest --rps/);
  assert.match(flag('--threads N|auto'), /Refuses workloads that insert \(insert, ycsb-d\); skips the read-back/);
  assert.match(flag('--value-shape SHAPE'), /hash needs a key space .* refuses append/);
  for (const line of result.stdout.split('\n')) assert.ok(line.length <= 100, `over 100 columns: ${line}`);
});

test('node test report with a file it cannot use prints one line: exit 1 unreadable, ' +
  'exit 2 not a results file', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-report-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const missing = run('test.js', ['report', join(dir, 'missing.json')]);
  assert.equal(missing.status, 1);
  assert.equal(missing.stderr, `node test: cannot read ${join(dir, 'missing.json')}: no such file\n`);
  assert.equal(missing.stdout, '');
  const cases = [
    ['not-json.json', 'hello {', /^node test: .*not-json\.json: not JSON \(.*\)\n$/],
    ['other.json', '{"format":"storebench-json/1","results":[]}', /^node test: .*other\.json: not a storebench results file \(its format is "storebench-json\/1", not storebench-results\/6\)\n$/],
    ['old.json', '{"format":"storebench-driver/1","steps":[]}', /^node test: .*old\.json: written in the older format storebench-driver\/1; this storebench reads storebench-results\/6 \(run the benchmark again to get one\)\n$/],
    ['broken.json', '{"format":"storebench-results/6","steps":[]}', /^node test: .*broken\.json: not a valid storebench-results\/6 file: interrupted is missing, expected true or false\n$/],
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

test('node test with a number past its bound exits 2 before anything runs', () => {
  const result = run('test.js', ['--url', 'http://127.0.0.1:9/a/b', '-c', '100000000000000000000', '-n', '5', '--timeout', '3000000000']);
  assert.equal(result.status, 2);
  assert.equal(result.stdout, '');
  assert.equal(result.stderr, [
    'node test: -c/--concurrency: "100000000000000000000" is out of range: each must be at most 10,000',
    'node test: --timeout must be at most 600,000 ms, not "3000000000"',
    'Run node test --help for usage.',
    '',
  ].join('\n'));
});

test('test-json --rounds has a bound, and says it', () => {
  assert.deepEqual(
    parseJsonArguments(['--rounds', '100000000']).problems,
    ['--rounds must be at most 1,000, not "100000000"'],
  );
  assert.deepEqual(parseJsonArguments(['--rounds', '1000']).problems, []);
  const result = run('test-json.js', ['--rounds', '100000000']);
  assert.equal(result.status, 2);
  assert.equal(
    result.stderr,
    'node test-json: --rounds must be at most 1,000, not "100000000"\nRun node test-json --help for usage.\n',
  );
});

// `--json README.md/out.json` (or --csv to a folder) ran the whole sweep and
// then printed a stack trace and wrote nothing; test-json died with Node's unhandled-error dump.
test('an output path that cannot be written is found before any load: one line per file, exit 2', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-out-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  // The URL would take 10 s to time out if the run started: it must not.
  const started = Date.now();
  const result = run('test.js', ['--url', 'http://10.255.255.1/a/b', '--json', 'README.md/out.json', '--csv', dir]);
  assert.equal(result.status, 2, result.stderr);
  assert.equal(result.stdout, '');
  assert.equal(
    result.stderr,
    'node test: --json README.md/out.json: README.md is a file, not a folder\n' +
    `node test: --csv ${dir}: it is a folder\n`,
  );
  assert.ok(Date.now() - started < 8000, 'nothing ran');
  const missing = run('test.js', ['--url', 'http://10.255.255.1/a/b', '--json', join(dir, 'no', 'such', 'x.json')]);
  assert.equal(missing.status, 2);
  assert.equal(
    missing.stderr,
    `node test: --json ${join(dir, 'no', 'such', 'x.json')}: the folder ${join(dir, 'no', 'such')} does not exist\n`,
  );
  const same = run('test.js', ['--url', 'http://10.255.255.1/a/b', '--json', join(dir, 'r'), '--csv', join(dir, 'r')]);
  assert.equal(same.stderr, `node test: --json and --csv name the same file (${join(dir, 'r')})\n`);
  const json = run('test-json.js', ['--json', 'README.md/y.json']);
  assert.equal(json.status, 2);
  assert.equal(json.stderr, 'node test-json: --json README.md/y.json: README.md is a file, not a folder\n');
  assert.equal(json.stdout, '', 'no timing ran');
});
