import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CONCURRENCY, DEFAULT_DURATION_SECONDS, LIMITS } from '../../options/defaults.js';
import { parseArguments, usage } from '../../cli/options.js';
import { normalizeOptions } from '../../options/normalize.js';
import { parseJsonArguments, usage as jsonUsage } from '../../cli/json-options.js';
import { checkOutputPaths } from '../../cli/results-files.js';
import { OutputPathError, exitCodeOf } from '../../util/errors.js';

test('no flags: the embedded default with the original concurrency steps', () => {
  const { command, options, problems, help } = parseArguments([]);
  assert.deepEqual(problems, []);
  assert.equal(help, false);
  assert.equal(command, 'run');
  assert.deepEqual(options.concurrency, [5, 10, 20, 30]);
  assert.deepEqual(DEFAULT_CONCURRENCY, [5, 10, 20, 30]);
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
    '--workers', '3', '--engine', 'fast', '--seed', '7', '--order', 'sequential', '--warmup-max', '2.5',
    '--verbose', '--no-save',
  ], {});
  assert.deepEqual(problems, []);
  assert.deepEqual(options, {
    urls: [],
    target: 'http://127.0.0.1:3000',
    concurrency: [1, 2, 3],
    requests: 50,
    duration: undefined,
    rps: undefined,
    warmup: 0,
    warmupMaxSeconds: 2.5,
    order: 'sequential',
    control: true,
    keepAlive: false,
    timeoutMs: 250,
    stores: ['memory', 'redis'],
    keys: ['key1'],
    json: '-',
    csv: 'out.csv',
    quiet: true,
    verbose: true,
    save: false,
    direct: false,
    pipeline: 1,
    probe: false,
    engine: 'fast',
    engineChoice: 'option',
    html: undefined,
    repeat: 1,
    assert: [],
    // The seeded reads of key1..key3, as before workloads: no key space.
    workload: { name: 'read', mix: [{ operation: 'read', share: 1 }], distribution: 'uniform', load: true },
    keySpace: false,
    records: undefined,
    valueSize: undefined,
    distribution: null,
    seed: 7,
    load: false,
    verify: false,
    token: undefined,
    workers: 3,
    appWorkers: 1,
    // --target: its app serves on its own framework, and is profiled only with --profile.
    framework: null,
    profile: false,
    valueShape: 'bytes',
    storeDelay: null,
    // A split run (--part, --start-at, --parts N --local): none here.
    part: null,
    startAt: null,
    startAfterSeconds: null,
    parts: null,
    local: false,
    // The Result's settings, made from the above (options/result-settings.js): --warmup 0 has no
    // warm-up to cap, a running app its own workers, and no key space no workload seed.
    settings: {
      concurrency: [1, 2, 3],
      rps: null,
      requests: 50,
      duration: null,
      warmup: 0,
      warmupMaxSeconds: 0,
      order: 'sequential',
      control: true,
      orderSeed: 7,
      keepAlive: false,
      timeoutMs: 250,
      stores: ['memory', 'redis'],
      keys: ['key1'],
      repeat: 1,
      assert: [],
      workload: 'read',
      mix: { read: 1 },
      records: null,
      valueSizeMin: null,
      valueSizeMax: null,
      distribution: null,
      seed: null,
      load: false,
      verify: false,
      valueShape: 'bytes',
      workers: 3,
      appWorkers: null,
      framework: null,
      engine: 'fast',
      engineChoice: 'option',
      pipeline: 1,
    },
  });
});

test('--engine picks the HTTP engine: fast by default, loadtest on request, and the settings say which ' +
  'chose it; anything else, or with --direct, is a problem', () => {
  const byDefault = parseArguments([], {}).options;
  assert.equal(byDefault.engine, 'fast');
  assert.equal(byDefault.settings.engineChoice, 'default');
  const asked = parseArguments(['--engine', 'loadtest'], {}).options;
  assert.equal(asked.engine, 'loadtest');
  assert.equal(asked.settings.engineChoice, 'option');
  assert.equal(parseArguments(['--engine', 'fast'], {}).options.settings.engineChoice, 'option');
  assert.equal(parseArguments(['--direct'], {}).options.settings.engineChoice, 'default');
  assert.deepEqual(
    parseArguments(['--engine', 'undici'], {}).problems,
    ['--engine must be loadtest or fast, not "undici"'],
  );
  assert.deepEqual(
    parseArguments(['--direct', '--engine', 'fast'], {}).problems,
    ['--engine chooses what sends HTTP requests: --direct sends none (it calls the stores in this process)'],
  );
});

test('--value-shape hash is for a direct key-space run; over HTTP, without a key space, ' +
  'or with an unknown shape it is a problem', () => {
  const direct = parseArguments(
    ['--direct', '--value-shape', 'hash', '--workload', 'mixed:50/50', '--records', '200'],
    {},
  );
  assert.deepEqual(direct.problems, []);
  assert.equal(direct.options.valueShape, 'hash');
  assert.deepEqual(
    parseArguments(['--value-shape', 'hash', '--records', '200'], {}).problems,
    ['--value-shape hash needs --direct: over HTTP the app stores the bytes each request carries'],
  );
  assert.deepEqual(
    parseArguments(['--direct', '--value-shape', 'hash'], {}).problems,
    ['--value-shape hash applies to a key space: add --records N (or a --workload other than read)'],
  );
  assert.deepEqual(
    parseArguments(['--direct', '--value-shape', 'json', '--records', '5'], {}).problems,
    ['--value-shape must be bytes or hash, not "json"'],
  );
  assert.equal(parseArguments(['--value-shape', 'bytes', '--records', '5'], {}).options.valueShape, 'bytes');
  assert.deepEqual(
    parseArguments(['--direct', '--value-shape', 'hash', '--workload', 'append', '--records', '5'], {}).problems,
    ['--value-shape hash: append appends, and a hash has nothing to append to'],
  );
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
  assert.deepEqual(
    parseArguments(['-n', '10', '-t', '1']).problems,
    ['use either -n/--requests or -t/--duration, not both'],
  );
  assert.deepEqual(
    parseArguments(['--rps', '100', '-c', '5']).problems,
    ['--rps replaces the concurrency sweep: drop -c/--concurrency'],
  );
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

test('node test report FILE takes one file, and --html, --assert and --verbose', () => {
  assert.deepEqual(parseArguments(['report', 'saved.json']), {
    command: 'report',
    help: false,
    options: { file: 'saved.json', html: undefined, assert: [], verbose: false },
    problems: [],
  });
  assert.deepEqual(
    parseArguments(['report', 'saved.json', '--html', 'page.html', '--assert', 'p99<5ms']).options,
    { file: 'saved.json', html: 'page.html', assert: ['p99<5ms'], verbose: false },
  );
  assert.equal(parseArguments(['report', 'saved.json', '--verbose']).options.verbose, true);
  assert.deepEqual(parseArguments(['report', 'saved.json', '--verbose', '--html', 'page.html']).problems,
    ['--verbose is for the text: the page (--html) has it all']);
  assert.equal(parseArguments(['report', '--help']).help, true);
  assert.deepEqual(parseArguments(['report']).problems, ['report needs the FILE.json a run wrote with --json']);
  assert.deepEqual(
    parseArguments(['report', 'a.json', 'b.json', '-c', '5']).problems,
    ['unknown option -c', 'unexpected argument "b.json"', 'unexpected argument "5"'],
  );
  assert.deepEqual(
    parseArguments(['-c', '5', 'report']).problems,
    ['unexpected argument "report"'],
    'report comes first',
  );
});

test('test-json flags parse, and every problem is reported', () => {
  assert.deepEqual(
    parseJsonArguments(['--rounds', '5', '--json', 'x.json']),
    { help: false, problems: [], options: { rounds: 5, json: 'x.json' } },
  );
  assert.deepEqual(parseJsonArguments(['--nope', '--rounds', 'x', 'extra', '--json']).problems, [
    'unknown option --nope',
    '--json needs a value',
    'unexpected argument "extra"',
    '--rounds must be a positive whole number, not "x"',
  ]);
});

// No number had a bound: -c 100000000000000000000 -n 5 was accepted and grew
// to 673 MB, --timeout 3000000000 overflowed Node's timer (every request "timed out" after 1 ms),
// test-json --rounds 100000000 never ended. Each bound is enforced and shown in --help.
test('every number has a bound, named in the problem', () => {
  const problemsOf = (...args) => parseArguments(args).problems;
  assert.deepEqual(
    problemsOf('-c', '100000000000000000000', '-n', '5'),
    ['-c/--concurrency: "100000000000000000000" is out of range: each must be at most 10,000'],
  );
  assert.deepEqual(
    problemsOf('-c', '10001'),
    ['-c/--concurrency: "10001" is out of range: each must be at most 10,000'],
  );
  assert.deepEqual(problemsOf('-c', Array(101).fill(1).join(',')), ['-c/--concurrency has 101 values; at most 100']);
  assert.deepEqual(problemsOf('-n', '10000001'), ['-n/--requests must be at most 10,000,000, not "10000001"']);
  assert.deepEqual(problemsOf('-t', '3600.5'), ['-t/--duration must be at most 3,600 s, not "3600.5"']);
  assert.deepEqual(problemsOf('--rps', '0.001,100001'), [
    '--rps: "0.001" is out of range: each must be at least 0.01 per second',
    '--rps: "100001" is out of range: each must be at most 100,000 per second',
  ]);
  assert.deepEqual(problemsOf('--warmup', '1000001'), ['--warmup must be at most 1,000,000, not "1000001"']);
  assert.deepEqual(problemsOf('--timeout', '3000000000'), ['--timeout must be at most 600,000 ms, not "3000000000"']);
  assert.deepEqual(
    problemsOf('-c', '10000', '-n', '10000000', '--warmup', '1000000', '--timeout', '600000'),
    [],
    'each bound itself is allowed',
  );
  assert.deepEqual(problemsOf('-t', '3600', '--rps', '0.01,100000'), []);
  assert.deepEqual(problemsOf('--records', '100000001'), ['--records must be at most 100,000,000, not "100000001"']);
  assert.deepEqual(
    problemsOf('--records', '5', '--seed', '4294967296'),
    ['--seed must be at most 4,294,967,295, not "4294967296"'],
  );
  assert.deepEqual(problemsOf('--warmup-max', '601'), ['--warmup-max must be at most 600 s, not "601"']);
  assert.deepEqual(
    problemsOf('--direct', '--pipeline', '1001'),
    ['--pipeline must be at most 1,000, not "1001"'],
  );
  assert.deepEqual(LIMITS, {
    concurrency: 10_000,
    requests: 10_000_000,
    duration: 3600,
    rps: 100_000,
    pipeline: 1000,
    minRps: 0.01,
    warmup: 1_000_000,
    warmupMax: 600,
    timeout: 600_000,
    steps: 100,
    records: 100_000_000,
    seed: 4_294_967_295,
  });
});

test('--order takes interleaved or sequential; --quick is a one-minute overview unless a flag says otherwise', () => {
  assert.deepEqual(
    parseArguments(['--order', 'random']).problems,
    ['--order must be interleaved or sequential, not "random"'],
  );
  assert.equal(parseArguments([]).options.order, 'interleaved');
  const quick = parseArguments(['--quick']).options;
  assert.deepEqual([quick.keys, quick.concurrency, quick.duration], [['key1'], [5, 20], 1]);
  const told = parseArguments(['--quick', '-c', '7', '--keys', 'key2', '-t', '3']).options;
  assert.deepEqual([told.keys, told.concurrency, told.duration], [['key2'], [7], 3]);
  assert.equal(
    parseArguments(['--quick', '--records', '10']).options.keys,
    undefined,
    'a key space picks its own keys',
  );
});

test('--seed is the run\'s: without a key space it seeds the order, and one is picked when not given', () => {
  assert.equal(parseArguments(['--seed', '42']).options.seed, 42);
  assert.deepEqual(parseArguments(['--seed', '42']).problems, []);
  assert.ok(Number.isInteger(parseArguments([]).options.seed));
});

test('--help shows every bound', () => {
  for (const bound of [
    'each 1 to 10,000', '1 to 10,000,000', 'at most 3,600', 'each 0.01 to 100,000', '0 to 1,000,000', '1 to 600,000',
    'at most 100 values', '1 to 100,000,000', '0 to 4,294,967,295', '1 byte to 16 MB',
  ]) {
    assert.ok(usage.includes(bound), `--help lacks "${bound}"`);
  }
  assert.match(jsonUsage, /--rounds N +timed batches per operation, 1 to 1,000 /);
});

test('checkOutputPaths accepts a new file in a folder and an existing file, and leaves no probe behind', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-out-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'old.csv'), 'kept');
  await checkOutputPaths({ json: join(dir, 'new.json'), csv: join(dir, 'old.csv') });
  await checkOutputPaths({ json: '-' });
  assert.deepEqual(await readdir(dir), ['old.csv']);
  assert.equal(await readFile(join(dir, 'old.csv'), 'utf8'), 'kept', 'an existing file is not touched before the run');
  await assert.rejects(
    checkOutputPaths({ json: dir }),
    (error) => error instanceof OutputPathError && exitCodeOf(error) === 2,
  );
});

test('--repeat, --html and --assert are read and checked', async (t) => {
  const { options, problems } = parseArguments([
    '--repeat', '5', '--html', 'report.html', '--assert', 'p99<5ms', '--assert', 'redis:rps>=100',
  ]);
  assert.deepEqual(problems, []);
  assert.deepEqual([options.repeat, options.html, options.assert], [5, 'report.html', ['p99<5ms', 'redis:rps>=100']]);
  assert.equal(parseArguments([]).options.repeat, 1, 'one run per step by default');
  assert.deepEqual(
    parseArguments(['--repeat', '0', '--html', '-']).problems,
    ['--html needs a file name', '--repeat must be a whole number from 1 to 100, not "0"'],
  );
  assert.deepEqual(parseArguments(['--repeat', '101']).problems, ['--repeat must be at most 100, not "101"']);
  assert.deepEqual(
    parseArguments(['--repeat', '2.5']).problems,
    ['--repeat must be a whole number from 1 to 100, not "2.5"'],
  );
  assert.deepEqual(
    parseArguments(['--html', 'x.json', '--json', 'x.json']).problems,
    ['--html and --json name the same file (x.json)'],
  );
  const dir = await mkdtemp(join(tmpdir(), 'storebench-out-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await assert.rejects(
    checkOutputPaths({ html: join(dir, 'missing', 'report.html') }),
    (error) =>
      error instanceof OutputPathError &&
      error.problems[0] ===
        `--html ${join(dir, 'missing', 'report.html')}: the folder ${join(dir, 'missing')} does not exist`,
  );
});

test('--threads takes 1 to 256 or auto (one per core less one, at least 1); 0, ' +
  '257 or a word is one line each', async () => {
  const { autoWorkers } = await import('../../options/defaults.js');
  assert.equal(parseArguments([]).options.workers, 1);
  assert.equal(parseArguments(['--threads', '256']).options.workers, 256);
  assert.equal(parseArguments(['--threads', 'auto']).options.workers, autoWorkers());
  assert.equal(autoWorkers(1), 1);
  assert.equal(autoWorkers(2), 1);
  assert.equal(autoWorkers(16), 15);
  for (const bad of ['0', '257', 'two', '1.5', '-1']) {
    assert.deepEqual(
      parseArguments(['--threads', bad]).problems,
      [`--threads must be a whole number from 1 to 256 or auto, not "${bad}"`],
    );
  }
});

test('--workers, --threads\' old name, is still taken with a one-line note; both at once is a problem', () => {
  const old = parseArguments(['--workers', '3']);
  assert.deepEqual(old.problems, []);
  assert.equal(old.options.workers, 3);
  assert.deepEqual(old.notices, ['--workers is now --threads: the driver\'s threads (app.js --workers is the app\'s ' +
    'processes: --app-workers here)']);
  assert.deepEqual(parseArguments(['--threads', '3']).notices, []);
  assert.deepEqual(parseArguments(['--workers', '2', '--threads', '3']).problems,
    ['--workers is --threads\'s old name: give one of them']);
});

test('--threads over 1 refuses a workload that inserts: each insert takes the next new key in turn', () => {
  assert.deepEqual(parseArguments(['--threads', '2', '-w', 'ycsb-d']).problems, [
    '--threads 2: ycsb-d inserts, and each insert takes the next new key in turn, ' +
    'which only one thread can do: use --threads 1',
  ]);
  assert.deepEqual(parseArguments(['--threads', '2', '-w', 'ycsb-a']).problems, []);
});

// No round trip through text: code's numbers are judged as numbers, by the rule the command line's
// text is, and a list's strings are split at commas as on the command line.
test('numbers from code are read as numbers, with the command line\'s rules and wording', () => {
  const given = {
    direct: true,
    stores: ['memory', 'redis,tarantool'],
    concurrency: ['5,10', 20],
    requests: 100,
    warmup: -0,
    seed: 7,
    workers: 2,
    storeRtt: 40,
    workload: 'ycsb-b',
    records: 50,
    valueSize: 100,
    repeat: 2,
  };
  const read = normalizeOptions(given, {});
  assert.deepEqual(read.problems, []);
  assert.deepEqual(read.options.stores, ['memory', 'redis', 'tarantool']);
  assert.deepEqual(read.options.concurrency, [5, 10, 20]);
  assert.ok(Object.is(read.options.warmup, 0), '-0 is 0');
  assert.deepEqual([read.options.requests, read.options.workers, read.options.repeat], [100, 2, 2]);
  assert.deepEqual(read.options.storeDelay, { rttMs: 40 });
  assert.deepEqual(read.options.valueSize, { min: 100, max: 100 });

  const bad = { concurrency: [5, 2.5, -1], requests: 1.5, workers: 0, repeat: 0.5 };
  assert.equal(normalizeOptions(bad, {}).problems.length, 5);
  assert.deepEqual(normalizeOptions(bad, {}).problems,
    parseArguments(['-c', '5,2.5,-1', '-n', '1.5', '--workers', '0', '--repeat', '0.5'], {}).problems);
  assert.deepEqual(normalizeOptions({ duration: Number.NaN }, {}).problems,
    ['-t/--duration must be a positive number of seconds, not "NaN"']);
  assert.deepEqual(normalizeOptions({ duration: 0.5, warmupMax: 1e-7 }, {}).problems, [],
    'a small number is a number, whatever its text would look like');
  for (const valueSize of [2.5, -5]) {
    assert.deepEqual(normalizeOptions({ workload: 'ycsb-a', records: 10, valueSize }, {}).problems, [
      '--value-size must be a size in bytes such as 100, 10KB or 1MB, ' +
        `or a range such as 100-1000, not "${valueSize}"`,
    ]);
  }
  assert.deepEqual(normalizeOptions({ stores: [{ name: 'redis' }] }, {}).problems,
    ['--stores takes a string, a number or an array of them, not an array']);
});
