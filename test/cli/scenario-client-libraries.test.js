// node test --scenario client-libraries --scale tiny, end to end against a real redis-server
// and the embedded CouchDB stand-in: the study-shaped table of all five clients, the study's
// figures shown, the exact operation counts of each serial script, a verdict per conclusion.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDriverCli } from '../helpers/driver-cli.js';
import { reachable, testRedisUrl, unavailable } from '../helpers/services.js';
import { redactUrl } from '../../util/redact.js';
import { leftKeys } from '../helpers/redis-keys.js';
import scenario from '../../studies/scenarios/client-libraries.js';

const CLIENTS = ['redis', 'ioredis', 'cloudant', 'couchdb-nano', 'cloudant-legacy'];
const SCRIPTS = ['serial_put_large', 'serial_put_big', 'get_random', 'get_random_large', 'get_random_big'];
// Operations per script at the tiny scale: 3 and 2 put rounds of 4, 20 get pairs, 3 large gets, 1 big get.
const OPERATIONS = [12, 8, 40, 3, 1];

test('client-libraries at --scale tiny: five clients side by side in ms, the published Kyoto Tycoon figures, ' +
  'every script strictly serial', async (t) => {
  if (!(await reachable(testRedisUrl))) return void unavailable(t, `no Redis at ${redactUrl(testRedisUrl)}`);
  const dir = await mkdtemp(join(tmpdir(), 'storebench-scenario-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const [file, html, csv] = ['run.json', 'run.html', 'run.csv'].map((name) => join(dir, name));
  const { status, stdout, stderr } = await runDriverCli([
    '--scenario', 'client-libraries', '--scale', 'tiny', '--json', file, '--html', html, '--csv', csv,
  ], { env: { ...process.env, REDIS_URL: testRedisUrl } });
  assert.equal(status, 0, stderr);

  const result = JSON.parse(await readFile(file, 'utf8'));
  const record = result.scenario;
  const [scripts, cpu] = record.measured;
  assert.equal(scripts.id, 'scripts');
  assert.deepEqual(scripts.rows, SCRIPTS);
  assert.deepEqual(scripts.columns.map((column) => column.id), CLIENTS);
  assert.ok(scripts.columns.every((column) => column.unit === 'ms'));
  for (const row of SCRIPTS) {
    for (const client of CLIENTS) assert.ok(scripts.cells[row][client] > 0, `${row} ${client} was timed`);
  }
  // The CouchDB stores have no append: marked, and said how it was done.
  assert.deepEqual(scripts.columns.map((column) => column.label),
    ['node-redis', 'ioredis', '@ibm-cloud/cloudant*', 'nano*', '@cloudant/cloudant*']);
  assert.ok(record.notes.some((note) => note.startsWith(
    '* cloudant, couchdb-nano, cloudant-legacy: no append in the store, so each append is a get and then a set')));
  assert.ok(!record.notes.some((note) => /read back after the scripts|failed/.test(note)), record.notes.join('\n'));
  assert.equal(cpu.id, 'cpu');

  // Every script one operation at a time, with exactly its operations, and none failed; timed
  // twice at this scale (a cell is the median), each time a step the table's sources name.
  assert.equal(result.steps.length, CLIENTS.length * SCRIPTS.length * 2);
  assert.match(scripts.title, /each script: the median of 2 times/);
  for (const row of SCRIPTS) {
    const sources = scripts.sources[row].map((i) => result.steps[i]);
    assert.deepEqual(sources.map((step) => `${step.store} ${step.key} ${step.repeat}`),
      CLIENTS.flatMap((client) => [1, 2].map((repeat) => `${client} ${row} ${repeat}`)));
  }
  for (const step of result.steps) {
    const i = SCRIPTS.indexOf(step.key);
    assert.ok(i >= 0, step.key);
    assert.equal(step.mode, 'direct');
    assert.equal(step.concurrency, 1);
    assert.equal(step.peakInFlight, 1);
    assert.equal(step.requests, OPERATIONS[i], `${step.store} ${step.key}`);
    assert.equal(step.errors.total, 0);
  }
  const couchPut = result.steps.find((step) => step.store === 'cloudant' && step.key === 'serial_put_large');
  assert.deepEqual(couchPut.operations.map((operation) => [operation.operation, operation.requests]),
    [['read-modify-write', 6], ['write', 6]]);

  // The study's figures, as published, beside ours.
  const [published] = record.published;
  assert.equal(published.id, 'scripts');
  assert.deepEqual(published.cells.serial_put_large, { 'kyoto-client': 311, 'kyoto-tycoon': 2714 });
  assert.deepEqual(published.cells.serial_put_big, { 'kyoto-client': 316513, 'kyoto-tycoon': 242581 });
  assert.match(stdout, /## time per script, clients side by side \(each script: the median of 2 times\)\n/);
  assert.match(stdout, /## published: kyoto-client \(kc_test\.js\) then kyoto-tycoon/);
  assert.match(stdout, /serial_put_big\s+316,513\s+242,581/);
  assert.match(stdout, /Published:\s+on their hardware, not ours: /);

  // One verdict per conclusion; the Kyoto Tycoon ones not runnable, with the reason.
  assert.deepEqual(record.verdicts.map((verdict) => verdict.id),
    scenario.conclusions.map((conclusion) => conclusion.id));
  for (const { verdict } of record.verdicts) assert.match(verdict, /^(not proven here|not runnable here: .+)$/);
  assert.match(record.verdicts[0].verdict, /^not runnable here: neither kyoto-client nor kyoto-tycoon is in the npm registry/);
  for (const id of ['client-bound', 'redis-pair-like-study', 'couchdb-clients-like-study']) {
    const { verdict, outcome } = record.verdicts.find((candidate) => candidate.id === id);
    assert.match(`${verdict}, ${outcome}`, /^not proven here, (holds here|does not hold here)$/, id);
  }
  for (const { id } of scenario.conclusions) assert.match(stdout, new RegExp(`  ${id}: `));

  // The saved run prints the same again, and its page and CSV carry it (a CSV row per step, and
  // one per operation of a step of several).
  const report = await runDriverCli(['report', file]);
  assert.equal(report.status, 0, report.stderr);
  assert.equal(report.stdout, stdout.slice(stdout.indexOf('# Scenario ')));
  const page = await readFile(html, 'utf8');
  assert.ok(page.includes('Scenario client-libraries (tiny)'));
  const csvRows = (step) => 1 + (step.operations.length > 1 ? step.operations.length : 0);
  const rows = result.steps.reduce((sum, step) => sum + csvRows(step), 0);
  assert.equal((await readFile(csv, 'utf8')).trimEnd().split('\n').length, 1 + rows);

  // Nothing of the run is left on the shared server.
  assert.deepEqual(await leftKeys(testRedisUrl, ['kt:*']), []);
});
