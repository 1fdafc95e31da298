import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDriverCli } from '../helpers/driver-cli.js';
import { startHoldServer } from '../helpers/driver-servers.js';
import { validate } from '../helpers/json-schema.js';
import { resultsSchema } from '../../result/schema.js';
import { fromJson } from '../../result/format.js';

async function tempDir(t) {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-merge-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const stepRps = (result) => result.steps[0].rps;

// The server holds each request 50 ms, so rps is set by the concurrency (10 clients: 200 rps),
// not by this machine's CPU: two drivers of 10 clients are one load of 20 clients.
test('two drivers run at once, merged, match one driver with twice the concurrency: ' +
  'rps within 10%, count the sum', async (t) => {
  const server = await startHoldServer(t, [50]);
  const dir = await tempDir(t);
  const url = `${server.url}/hold/key1`;
  const run = (concurrency, file) => runDriverCli([
    '--url', url, '-c', String(concurrency), '-t', '3', '--warmup', '40', '-q', '--json', join(dir, file),
  ]);
  const [a, b] = await Promise.all([run(10, 'a.json'), run(10, 'b.json')]);
  assert.equal(a.status, 0, a.stderr);
  assert.equal(b.status, 0, b.stderr);
  const single = await run(20, 'single.json');
  assert.equal(single.status, 0, single.stderr);

  const merge = await runDriverCli([
    'merge', join(dir, 'a.json'), join(dir, 'b.json'), '--json', join(dir, 'all.json'),
  ]);
  assert.equal(merge.status, 0, merge.stderr);
  const text = await readFile(join(dir, 'all.json'), 'utf8');
  assert.deepEqual(validate(resultsSchema(), JSON.parse(text)), []);
  const merged = fromJson(text);
  const readRun = async (file) => fromJson(await readFile(join(dir, file), 'utf8'));
  const [runA, runB, one] = await Promise.all(['a.json', 'b.json', 'single.json'].map(readRun));
  const [step] = merged.steps;
  assert.equal(step.responses, runA.steps[0].responses + runB.steps[0].responses);
  assert.equal(step.requests, runA.steps[0].requests + runB.steps[0].requests);
  assert.equal(step.latency.count, step.responses);
  assert.equal(step.concurrency, 20);
  assert.ok(Math.abs(step.rps - stepRps(one)) / stepRps(one) < 0.1,
    `merged ${step.rps} rps vs one driver's ${stepRps(one)}`);
  assert.deepEqual(step.machines.map((machine) => machine.file), [join(dir, 'a.json'), join(dir, 'b.json')]);
  assert.deepEqual(merged.merged.map((entry) => entry.file), [join(dir, 'a.json'), join(dir, 'b.json')]);
  assert.ok(!step.warnings.some((warning) => warning.code === 'NO_OVERLAP'), 'drivers run at once overlap');
  // The busiest machine's figures: the most any driver's thread waited for a CPU among them.
  const waits = [runA, runB].map((part) => part.steps[0].machine.cpuWaitPercent);
  if (waits.every(Number.isFinite)) assert.equal(step.machine.cpuWaitPercent, Math.max(...waits));
  // The per-machine rows are printed beside the total, and node test report renders the file.
  assert.match(merge.stdout, /^total +\d+/m);
  const report = await runDriverCli(['report', join(dir, 'all.json')]);
  assert.equal(report.status, 0, report.stderr);
  assert.match(report.stdout, /Merged from 2 files/);
});

// Two saved runs to merge, from the fixture run (a sweep of real servers): `change(b)` edits the second.
async function pair(t, change) {
  const dir = await tempDir(t);
  const text = await readFile(new URL('../fixtures/runs/before.json', import.meta.url), 'utf8');
  const b = JSON.parse(text);
  change(b);
  await writeFile(join(dir, 'a.json'), text);
  await writeFile(join(dir, 'b.json'), JSON.stringify(b));
  return { dir, a: join(dir, 'a.json'), b: join(dir, 'b.json') };
}

async function refused(t, change, pattern) {
  const { a, b } = await pair(t, change);
  const result = await runDriverCli(['merge', a, b]);
  assert.equal(result.status, 2, result.stderr);
  assert.equal(result.stdout, '');
  const lines = result.stderr.trim().split('\n');
  assert.equal(lines.length, 1, result.stderr);
  assert.match(lines[0], pattern);
}

test('merge refuses runs of another target, naming it (exit 2, one line)', (t) => refused(t, (b) => {
  b.system.target = 'http://10.0.0.9:3000';
}, /differ in target/));

test('merge refuses runs whose settings differ, naming the setting', (t) => refused(t, (b) => {
  b.settings.duration = 5;
}, /differ in settings\.duration \(0\.3 in one, 5 in the other\)/));

test('merge refuses runs of another workload, naming it', (t) => refused(t, (b) => {
  b.settings.workload = 'ycsb-b';
}, /differ in settings\.workload/));

test('merge refuses a run missing a step the other has, naming the step', (t) => refused(t, (b) => {
  b.steps.pop();
}, /differ in steps: .* has "[^"]+", .* has not/));

test('merge refuses a step whose URL differs, naming it', (t) => refused(t, (b) => {
  b.steps[0].url = 'http://127.0.0.1:1/other/key1';
}, /differ in ".*": url/));

test('merge of a file that is not a results file, or of another format version, is one line and exit 2', async (t) => {
  const { dir, a } = await pair(t, () => {});
  await writeFile(join(dir, 'other.json'), '{"hello": 1}');
  const old = JSON.parse(await readFile(a, 'utf8'));
  old.format = 'storebench-results/4';
  await writeFile(join(dir, 'old.json'), JSON.stringify(old));
  for (const [file, pattern] of [['other.json', /not a storebench results file/], ['old.json', /older format storebench-results\/4/]]) {
    const result = await runDriverCli(['merge', a, join(dir, file)]);
    assert.equal(result.status, 2, result.stderr);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.match(result.stderr, pattern);
  }
});

test('merge needs two files or more, and will not overwrite one of them', async (t) => {
  const { a, b } = await pair(t, () => {});
  const one = await runDriverCli(['merge', a]);
  assert.equal(one.status, 2);
  assert.match(one.stderr, /merge needs two or more results files/);
  const over = await runDriverCli(['merge', a, b, '--json', b]);
  assert.equal(over.status, 2);
  assert.match(over.stderr, /is one of the files to merge/);
});

test('runs whose steps did not overlap in time merge with a NO_OVERLAP warning on each step', async (t) => {
  const hour = 3600_000;
  const later = (iso) => new Date(Date.parse(iso) + hour).toISOString();
  const { dir, a, b } = await pair(t, (run) => {
    for (const step of run.steps) {
      Object.assign(step, { startedAt: later(step.startedAt), finishedAt: later(step.finishedAt) });
    }
  });
  const result = await runDriverCli(['merge', a, b, '--json', join(dir, 'all.json')]);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stderr, /time windows do not overlap \(NO_OVERLAP\)/);
  const merged = fromJson(await readFile(join(dir, 'all.json'), 'utf8'));
  for (const step of merged.steps) assert.ok(step.warnings.some((warning) => warning.code === 'NO_OVERLAP'));
  // Adding a run to itself doubles every count: the merge sums, never averages.
  const original = fromJson(await readFile(a, 'utf8'));
  assert.deepEqual(merged.steps.map((step) => step.responses), original.steps.map((step) => step.responses * 2));
});

test('merge refuses one run given twice (same host, same step start times): ' +
  'it would double every rps', (t) => refused(t, () => {
  // Pins the review's bug: `node test merge before.json before.json` exited 0 with every rps doubled.
}, /cannot merge .*a\.json and .*b\.json: they are the same run \(host vm, every step started at the same moment\)/));

test('merge of a file that does not exist says "no such file" (exit 1, one line)', async (t) => {
  // Pins the review's finding: it printed "cannot read …: ENOENT".
  const { dir, a } = await pair(t, () => {});
  const result = await runDriverCli(['merge', join(dir, 'missing.json'), a]);
  assert.equal(result.status, 1, result.stderr);
  assert.equal(result.stderr, `node test: cannot read ${join(dir, 'missing.json')}: no such file\n`);
});

// Two --direct runs of the fixture: every step in direct mode, each target's servers as
// `servers(store)` gives for that file, b a moment later (not the same run) on host `hostB`.
async function directPair(t, { serversA, serversB = serversA, hostB = 'vm' }) {
  const dir = await tempDir(t);
  const text = await readFile(new URL('../fixtures/runs/before.json', import.meta.url), 'utf8');
  const [a, b] = [JSON.parse(text), JSON.parse(text)];
  for (const [run, servers] of [[a, serversA], [b, serversB]]) {
    for (const step of run.steps) step.mode = 'direct';
    for (const target of run.targets) {
      const own = servers(target.store);
      if (own === undefined) delete target.servers;
      else target.servers = own;
    }
  }
  const later = (iso) => new Date(Date.parse(iso) + 10).toISOString();
  for (const step of b.steps) {
    Object.assign(step, { startedAt: later(step.startedAt), finishedAt: later(step.finishedAt) });
  }
  b.system.hostname = hostB;
  await writeFile(join(dir, 'a.json'), JSON.stringify(a));
  await writeFile(join(dir, 'b.json'), JSON.stringify(b));
  return runDriverCli(['merge', join(dir, 'a.json'), join(dir, 'b.json')]);
}

test('merge adds --direct runs only when they loaded one shared server; else one line, exit 2', async (t) => {
  // Pins the review's finding: two --direct runs, each against its own embedded server or
  // in-process store, were summed.
  const shared = () => ({ redis: 'REDIS_URL: redis://10.0.0.5:6379' });
  const loopback = () => ({ redis: 'REDIS_URL: redis://127.0.0.1:6379/8' });
  for (const [name, setup, pattern] of [
    ['in-process', { serversA: () => ({}) }, /"memory key1 closed concurrency 2 repeat 1 direct" ran in --direct mode, and memory lives inside each driver's own process; their sum is no load one server saw/],
    ['embedded', { serversA: () => ({ redis: 'embedded: redis://127.0.0.1:40411' }) }, /and each driver started its own embedded server/],
    ['different', { serversA: shared, serversB: () => ({ redis: 'REDIS_URL: redis://10.0.0.6:6379' }) }, /differ in the servers "memory key1 closed concurrency 2 repeat 1 direct" reached/],
    ['loopback on two hosts', { serversA: loopback, hostB: 'other' }, /its server is at a loopback address, which is each machine's own/],
    ['unrecorded', { serversA: () => undefined }, /b\.json does not say which server it reached|a\.json does not say which server it reached/],
  ]) {
    const result = await directPair(t, setup);
    assert.equal(result.status, 2, `${name}: ${result.stderr}`);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    assert.match(result.stderr, pattern, name);
  }
  const accepted = [
    ['one shared server, two hosts', { serversA: shared, hostB: 'other' }],
    ['loopback, one host', { serversA: loopback }],
  ];
  for (const [name, setup] of accepted) {
    const result = await directPair(t, setup);
    assert.equal(result.status, 0, `${name}: ${result.stderr}`);
  }
});

test('two runs from one host merge with that host\'s CPUs counted once and each step warned once', async (t) => {
  // Pins the review's finding: two runs from a 2-core VM printed "4 x" and "BUSY_MACHINE 2" for one step.
  const later = (iso) => new Date(Date.parse(iso) + 10).toISOString();
  const { dir, a, b } = await pair(t, (run) => {
    for (const step of run.steps) {
      Object.assign(step, { startedAt: later(step.startedAt), finishedAt: later(step.finishedAt) });
    }
  });
  const original = fromJson(await readFile(a, 'utf8'));
  const busy = original.steps.filter((step) => step.warnings.some((warning) => warning.code === 'BUSY_MACHINE')).length;
  assert.ok(busy > 0, 'the fixture has BUSY_MACHINE steps');
  const result = await runDriverCli(['merge', a, b, '--json', join(dir, 'all.json')]);
  assert.equal(result.status, 0, result.stderr);
  const merged = fromJson(await readFile(join(dir, 'all.json'), 'utf8'));
  assert.equal(merged.system.cpuCount, original.system.cpuCount);
  assert.match(result.stdout, new RegExp(` ${original.system.cpuCount} x ${original.system.cpuModel.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  assert.match(result.stdout,
    new RegExp(`Machine: .* of ${merged.steps.length} steps warned: .*BUSY_MACHINE ${busy}\\b`));

  // Two hosts: each host's CPUs are added.
  const other = JSON.parse(await readFile(b, 'utf8'));
  other.system.hostname = 'vm2';
  other.system.cpuCount = 8;
  await writeFile(b, JSON.stringify(other));
  const two = await runDriverCli(['merge', a, b, '--json', join(dir, 'two.json')]);
  assert.equal(two.status, 0, two.stderr);
  assert.equal(fromJson(await readFile(join(dir, 'two.json'), 'utf8')).system.cpuCount, original.system.cpuCount + 8);
});

test('merge of a file that is not JSON says where, never quoting its text (exit 2, one line)', async (t) => {
  const { dir, a } = await pair(t, () => {});
  const secret = join(dir, 'passwd');
  await writeFile(secret, 'root:x:0:0:root:/root:/bin/bash\ndb:hunter2\n');
  for (const args of [['merge', secret, a], ['report', secret]]) {
    const result = await runDriverCli(args);
    assert.equal(result.status, 2, result.stderr);
    assert.equal(result.stderr, `node test: ${secret}: not JSON (it stops being JSON at line 1, column 1)\n`);
    assert.doesNotMatch(result.stderr, /root:x|hunter2/);
  }
});
