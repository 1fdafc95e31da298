// node test --scenario redis-vs-memory --scale tiny, end to end against a real redis-server:
// the study's table shape (store and method x count, ms) with its figures beside ours, each
// "para" method's operations all in flight at once, a verdict per conclusion.
import { test } from 'node:test';
import { createServer } from 'node:net';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDriverCli } from '../helpers/driver-cli.js';
import { reachable, testRedisUrl, unavailable } from '../helpers/services.js';
import { redactUrl } from '../../util/redact.js';
import { leftKeys } from '../helpers/redis-keys.js';
import scenario from '../../studies/scenarios/redis-vs-memory.js';

const METHODS = ['set once', 'set para', 'get once', 'get para', 'update in one key', 'update own key'];
const COUNTS = [10, 100, 1000];

test('redis-vs-memory at --scale tiny: the study\'s method x count table for memory, redis and ioredis, ' +
  'its figures beside, para all at once', async (t) => {
  if (!(await reachable(testRedisUrl))) return void unavailable(t, `no Redis at ${redactUrl(testRedisUrl)}`);
  const dir = await mkdtemp(join(tmpdir(), 'storebench-scenario-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const [file, html, csv] = ['run.json', 'run.html', 'run.csv'].map((name) => join(dir, name));
  const { status, stdout, stderr } = await runDriverCli([
    '--scenario', 'redis-vs-memory', '--scale', 'tiny', '--json', file, '--html', html, '--csv', csv,
  ], { env: { ...process.env, REDIS_URL: testRedisUrl } });
  assert.equal(status, 0, stderr);

  const result = JSON.parse(await readFile(file, 'utf8'));
  const record = result.scenario;
  const [table] = record.measured;
  assert.equal(table.id, 'methods');
  assert.deepEqual(table.rows,
    ['redis', 'ioredis', 'memory (cache)'].flatMap((store) => METHODS.map((method) => `${store} ${method}`)));
  assert.deepEqual(table.columns, [
    { id: 'c1', label: '10 users (published: 1,000)', unit: 'ms' },
    { id: 'c2', label: '100 users (published: 10,000)', unit: 'ms' },
    { id: 'c3', label: '1,000 users (published: 100,000)', unit: 'ms' },
  ]);
  for (const row of table.rows) {
    for (const column of ['c1', 'c2', 'c3']) assert.ok(table.cells[row][column] > 0, `${row} ${column} was timed`);
  }

  // The measured steps: six methods (the study's four, our two updates) x three counts per
  // store, each timed twice (a cell is their median, its steps named in the table's sources),
  // para with every operation in flight at once.
  assert.equal(result.steps.length, 3 * 3 * 6 * 2);
  assert.equal(result.settings.repeat, 2);
  assert.match(table.title, /median of 2 times$/);
  for (const row of table.rows) {
    const sources = table.sources[row].map((i) => result.steps[i]);
    assert.equal(sources.length, 3 * 2, row);
    assert.deepEqual(sources.map((step) => step.repeat).sort(), [1, 1, 1, 2, 2, 2], row);
    for (const step of sources) assert.ok(row.endsWith(step.key.replace(/ \d+$/, '')), `${row}: ${step.store} ${step.key}`);
  }
  for (const step of result.steps) {
    const [, method, count] = /^(.+) (\d+)$/.exec(step.key);
    const n = method.endsWith('para') ? Number(count) : 1;
    assert.ok(COUNTS.includes(Number(count)));
    assert.equal(step.mode, 'direct');
    assert.equal(step.requests, n, `${step.store} ${step.key}`);
    assert.equal(step.concurrency, n);
    assert.equal(step.peakInFlight, n, `${step.store} ${step.key}: all at once`);
    assert.equal(step.errors.total, 0);
  }

  // The study's figures beside ours, as published.
  const [published] = record.published;
  assert.deepEqual(published.cells['redis set para'], { c1: 24.306, c2: 179.134, c3: 1146 });
  assert.deepEqual(published.cells['memory (cache) get once'], { c1: 0.017, c2: 0.012, c3: 0.023 });
  assert.match(stdout, /redis set para\s+[\d.,]+ \| +24\.3\s+[\d.,]+ \| +179\.1\s+[\d.,]+ \| +1,146/);
  // get para lists its keys first, as the study's code did, and the listing is in its time.
  assert.ok(record.notes.some((note) => note.startsWith('get para lists the keys first (KEYS user_* on Redis')));
  assert.ok(record.notes.some((note) => /^get para includes the key listing, .*: redis get para [\d.e+]+ ms of it at 1,000/
    .test(note)), record.notes.join('\n'));

  assert.deepEqual(record.verdicts.map((verdict) => verdict.id),
    scenario.conclusions.map((conclusion) => conclusion.id));
  assert.match(record.verdicts.find((verdict) => verdict.id === 'memory-faster').verdict,
    /^(holds here|does not hold here)$/);
  // No counter-run can turn these: not proven, with what was measured beside.
  for (const id of ['once-faster', 'gap-narrows', 'split-when-large-and-hot']) {
    const { verdict, outcome } = record.verdicts.find((candidate) => candidate.id === id);
    assert.match(`${verdict}, ${outcome}`, /^not proven here, (holds here|does not hold here)$/, id);
  }
  // Each update row changed one user: a single write.
  for (const step of result.steps.filter((candidate) => candidate.key.startsWith('update '))) {
    assert.equal(step.requests, 1, step.key);
  }
  for (const { id } of scenario.conclusions) assert.match(stdout, new RegExp(`  ${id}: `));

  // The saved run prints the same again, and its page and CSV carry it (a CSV row per step, and
  // one per operation of a step of several).
  const report = await runDriverCli(['report', file]);
  assert.equal(report.status, 0, report.stderr);
  assert.equal(report.stdout, stdout.slice(stdout.indexOf('# Scenario ')));
  const page = await readFile(html, 'utf8');
  assert.ok(page.includes('Scenario redis-vs-memory (tiny)'));
  const csvRows = (step) => 1 + (step.operations.length > 1 ? step.operations.length : 0);
  const rows = result.steps.reduce((sum, step) => sum + csvRows(step), 0);
  assert.equal((await readFile(csv, 'utf8')).trimEnd().split('\n').length, 1 + rows);

  // Nothing of the run is left on the shared server.
  assert.deepEqual(await leftKeys(testRedisUrl, ['user_*', 'all-users']), []);
});

test('redis-vs-memory with its Redis down: memory still measured, the reason in the notes, ' +
  'the verdicts needing Redis not runnable, exit 1', async () => {
  // A loopback port nothing listens on: a server opened and closed again.
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  const { status, stdout, stderr } = await runDriverCli(['--scenario', 'redis-vs-memory', '--scale', 'tiny'], { env: { ...process.env, REDIS_URL: `redis://127.0.0.1:${port}/14` } });
  assert.equal(status, 1, stderr);
  assert.match(stderr, /^node test: ioredis did not run: .*ECONNREFUSED/m);
  assert.match(stdout, /^ {2}- redis did not run: /m);
  assert.match(stdout, /^memory \(cache\) set para\s+[\d.]+ \| +4\.2/m);
  assert.match(stdout, /^redis set para\s+- \| +24\.3/m);
  assert.match(stdout, /^ {2}not runnable here {2}memory-faster: .* -- no figure for redis set once, c1 \(a store was down, an operation failed, or the run stopped early\)$/m);
});
