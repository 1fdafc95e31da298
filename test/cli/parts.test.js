// One run split over several drivers: --part I/N, --start-at and node test --parts N --local,
// against a real HTTP server (a child process holding each request), merged by node test merge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDriverCli } from '../helpers/driver-cli.js';
import { startHoldServer } from '../helpers/driver-servers.js';
import { validate } from '../helpers/json-schema.js';
import { resultsSchema } from '../../result/schema.js';
import { fromJson } from '../../result/format.js';

async function tempDir(t) {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-parts-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}
const read = async (file) => fromJson(await readFile(file, 'utf8'));

test('--parts 4 --local: four processes, one start, merged counts exactly -n, each part its share', async (t) => {
  const server = await startHoldServer(t, [5]);
  const dir = await tempDir(t);
  const out = join(dir, 'all.json');
  const run = await runDriverCli([
    '--parts', '4', '--local', '--url', `${server.url}/hold/key1`, '-c', '10', '-n', '1001',
    '--warmup', '0', '--seed', '42', '--start-at', '+6s', '--json', out,
  ]);
  assert.equal(run.status, 0, run.stderr);
  const text = await readFile(out, 'utf8');
  assert.deepEqual(validate(resultsSchema(), JSON.parse(text)), []);
  const merged = fromJson(text);
  const [step] = merged.steps;
  assert.equal(step.requests, 1001, 'the parts\' -n shares add up to -n exactly');
  assert.equal(step.responses, 1001);
  assert.equal(step.latency.count, 1001);
  assert.equal(step.concurrency, 10);
  // 10 clients over 4 parts: 3, 3, 2, 2; -n in proportion to them: 301, 300, 200, 200.
  assert.deepEqual(step.machines.map((machine) => machine.requests), [301, 300, 200, 200]);
  assert.equal(merged.settings.part, undefined, 'the merged run is no part');
  assert.equal(merged.settings.orderSeed, 42);
  assert.equal(merged.start.parts.length, 4);
  assert.ok(merged.start.spreadMs <= merged.start.toleranceMs, `parts began ${merged.start.spreadMs} ms apart`);
  assert.deepEqual(merged.start.warnings, []);
  for (const part of merged.start.parts) {
    assert.equal(part.at, merged.start.at);
    assert.ok(Date.parse(part.began) >= Date.parse(part.at), 'no part began before the barrier');
    assert.equal(part.clock.source, 'date-header', 'the server\'s Date header read');
    assert.ok(Math.abs(part.clock.offsetMs) < 1000, 'one machine: the clocks agree to within the header\'s second');
  }
  assert.ok(Date.parse(step.startedAt) >= Date.parse(merged.start.at));
  assert.match(run.stdout, /Merged from 4 files: part-1-of-4\.json/);
});

test('--parts 2 --local with the app started here on two workers and fastify: the shared app takes them, ' +
  'the parts run against it', async (t) => {
  // Pins the shared app started without --workers while each part was given --app-workers with
  // --target, which a part refuses (issue 38).
  const dir = await tempDir(t);
  const out = join(dir, 'all.json');
  const run = await runDriverCli([
    '--parts', '2', '--local', '--app-workers', '2', '--framework', 'fastify', '--stores', 'memory',
    '--keys', 'key1', '-c', '4', '-t', '1', '--warmup', '0', '--seed', '7', '--start-at', '+6s', '--json', out,
  ]);
  assert.equal(run.status, 0, run.stderr);
  const merged = await read(out);
  assert.equal(merged.steps[0].framework, 'fastify', 'the shared app serves on the framework asked');
  assert.ok(merged.steps[0].responses > 0);
  const answered = merged.steps[0].tiers?.app?.detail?.filter((process) => process.role === 'worker') ?? [];
  assert.ok(answered.length === 0 || answered.length === 2, 'its two workers, where the tiers were read');
});

test('merge refuses parts of a run with one missing or one given twice; --start-at already past exits 1', async (t) => {
  const server = await startHoldServer(t, [2]);
  const dir = await tempDir(t);
  const startAt = new Date(Date.now() + 5000).toISOString();
  const part = (index) => runDriverCli([
    '--url', `${server.url}/hold/key1`, '-c', '3', '-n', '60', '--warmup', '0', '--seed', '7',
    '--part', `${index}/3`, '--start-at', startAt, '-q', '--json', join(dir, `p${index}.json`),
  ]);
  const runs = await Promise.all([part(1), part(2)]);
  for (const run of runs) assert.equal(run.status, 0, run.stderr);
  const [one, two] = [await read(join(dir, 'p1.json')), await read(join(dir, 'p2.json'))];
  assert.deepEqual(one.settings.part, { index: 1, count: 3 });
  assert.equal(one.steps[0].concurrency, 1);
  assert.equal(one.steps[0].runLoad, 3);
  assert.equal(one.steps[0].requests, 20);
  assert.equal(one.settings.orderSeed, two.settings.orderSeed, 'one order for all parts');

  const missing = await runDriverCli(['merge', join(dir, 'p1.json'), join(dir, 'p2.json')]);
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /cannot merge: part 3 of 3 is missing/);
  await copyFile(join(dir, 'p2.json'), join(dir, 'p2-again.json'));
  const twice = await runDriverCli(['merge', join(dir, 'p1.json'), join(dir, 'p2.json'), join(dir, 'p2-again.json')]);
  assert.equal(twice.status, 2);
  assert.match(twice.stderr, /part 2 of 3 is there twice/);
  assert.equal(twice.stderr.trim().split('\n').length, 1, 'one line');

  const past = new Date(Date.now() - 1000).toISOString();
  const late = await runDriverCli([
    '--url', `${server.url}/hold/key1`, '-c', '1', '-n', '5', '--warmup', '0', '--start-at', past, '-q',
  ]);
  assert.equal(late.status, 1);
  assert.match(late.stderr, /^node test: not ready in time for --start-at .*: ready \d+\.\d{3} s after it/m);
});

test('split-run flags: --part needs --seed, --parts needs --local, bad values exit 2 with one line each', async () => {
  const cases = [
    [['--part', '2/4', '-u', 'http://127.0.0.1:9/x/y'], /--part needs --seed N/],
    [['--part', '5/4', '--seed', '1', '-u', 'http://127.0.0.1:9/x/y'], /--part must be I\/N/],
    [['--start-at', 'tomorrow', '-u', 'http://127.0.0.1:9/x/y'], /--start-at must be an ISO time/],
    [['--start-at', '2030-01-01T00:00:00', '-u', 'http://127.0.0.1:9/x/y'], /with its zone/],
    [['--parts', '3', '-u', 'http://127.0.0.1:9/x/y'], /--parts N needs where to run them/],
    [['--part', '1/4', '--seed', '1', '-c', '2', '-u', 'http://127.0.0.1:9/x/y'], /-c 2 cannot be split into 4 parts/],
  ];
  for (const [args, pattern] of cases) {
    const run = await runDriverCli(args);
    assert.equal(run.status, 2, args.join(' '));
    assert.match(run.stderr, pattern);
    assert.doesNotMatch(run.stderr, /\n\s+at /, 'no stack trace');
  }
});
