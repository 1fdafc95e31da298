// node test --scenario cluster-vs-document --scale tiny, end to end against real servers: the
// embedded Redis Cluster (3 + 3) and Tarantool, the test Redis and PostgreSQL. Five phases on
// each of four stores in direct mode with --probe, each phase's best step in the study's shape
// beside its published Redis Cluster and Couchbase figures, every step kept, a verdict per
// conclusion, nothing left behind on the shared servers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { runDriverCli } from '../helpers/driver-cli.js';
import { reachable, testPostgresUrl, testRedisUrl, unavailable } from '../helpers/services.js';
import { redactUrl } from '../../util/redact.js';
import { which } from '../../util/which.js';
import { leftKeys } from '../helpers/redis-keys.js';
import { validate } from '../helpers/json-schema.js';
import scenario from '../../studies/scenarios/cluster-vs-document.js';

const STORES = ['redis-cluster', 'redis', 'tarantool-memtx', 'postgres'];
const PHASES = ['a. 100 B writes', 'b. 100 B bulk writes', 'c. 10 KB writes', 'd. 100 B reads', 'e. 10 KB reads'];
// Requests a step at --scale tiny, by phase, and the phases in the order they ran (reads after the writes they read).
const REQUESTS = { a: 500, b: 1000, c: 500, d: 500, e: 500 };
const RUN_ORDER = ['a', 'b', 'd', 'c', 'e'];
const CONCURRENCY = [5, 20, 50];
// The phase past its memory (c) on the Redis server the run started: the embedded cluster (redis
// is the shared test server here, which the run leaves unlimited). Its nodes, with no maxmemory,
// are killed at their limit, as the study's were, and its phase e, reading them, does not run.
const overfilled = (phase, store) => store === 'redis-cluster' && /^c\./.test(phase);
const afterKill = (phase, store) => store === 'redis-cluster' && /^e\./.test(phase);

async function rowsLeft(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("select key from storebench where key like 'user%' order by key");
    return rows.map((row) => row.key);
  } finally {
    await client.end();
  }
}

// Keys present after the run that were not there before it: what it left behind. (Its clean-up
// may also remove rows of the same names another run left, such as tarantool-vs-postgres's
// key space: those are not its own to keep.)
const added = (before, after) => after.filter((key) => !before.includes(key));

test('cluster-vs-document at --scale tiny: five phases on four stores with the probe, ' +
  'best step per phase beside the published figures', async (t) => {
  if (!which('redis-server') || !which('redis-cli')) {
    return void unavailable(t, 'redis-server and redis-cli are not installed (the embedded Redis Cluster)');
  }
  if (!which('tarantool')) return void unavailable(t, 'tarantool is not installed (apt-get install tarantool)');
  if (!(await reachable(testRedisUrl))) return void unavailable(t, `no Redis at ${redactUrl(testRedisUrl)}`);
  if (!(await reachable(testPostgresUrl))) return void unavailable(t, `no PostgreSQL at ${redactUrl(testPostgresUrl)}`);
  const dir = await mkdtemp(join(tmpdir(), 'storebench-scenario-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const [file, html, csv] = ['run.json', 'run.html', 'run.csv'].map((name) => join(dir, name));
  // What other runs left on the shared servers is theirs: this run must leave nothing of its own.
  const rowsBefore = await rowsLeft(testPostgresUrl);
  const keysBefore = await leftKeys(testRedisUrl, ['user*', 'storebench-probe']);
  const { REDIS_CLUSTER_URLS: _cluster, TARANTOOL_URL: _tarantool, ...env } = process.env;
  const { status, stdout, stderr } = await runDriverCli([
    '--scenario', 'cluster-vs-document', '--scale', 'tiny', '--json', file, '--html', html, '--csv', csv,
  ], {
    env: { ...env, REDIS_URL: testRedisUrl, POSTGRES_URL: testPostgresUrl },
  });
  assert.equal(status, 0, stderr);

  const result = JSON.parse(await readFile(file, 'utf8'));
  const record = result.scenario;
  const [phases, steps] = record.measured;
  assert.equal(phases.id, 'phases');
  assert.deepEqual(phases.rows,
    PHASES.flatMap((phase) => [...STORES, 'couchbase'].map((store) => `${phase} / ${store}`)));
  assert.deepEqual(phases.columns.map((column) => column.id),
    ['ops', 'meanMs', 'probeIdleMs', 'probeLoadMs', 'concurrency', 'serverBound', 'errors', 'requests']);
  for (const phase of PHASES) {
    for (const store of STORES) {
      const cells = phases.cells[`${phase} / ${store}`];
      if (afterKill(phase, store)) {
        assert.ok(Object.values(cells).every((value) => value === null), `${phase} / ${store}: not run`);
        continue;
      }
      for (const column of ['ops', 'meanMs', 'probeIdleMs', 'probeLoadMs']) {
        assert.ok(cells[column] > 0, `${phase} / ${store}: ${column}`);
      }
      assert.ok(CONCURRENCY.includes(cells.concurrency));
      // Every read found its key (a missing one is a 404, counted as an error), every write landed;
      // but phase c fills the cluster's nodes past their memory, as the study's were: they are
      // killed, and the writes after fail, so this test asks for errors there, not for none.
      if (overfilled(phase, store)) {
        assert.ok(cells.errors > 0, `${phase} / ${store}: the phase exceeds the nodes' memory, so writes fail`);
      } else assert.equal(cells.errors, 0, `${phase} / ${store}`);
      assert.equal(cells.requests, REQUESTS[phase.at(0)] * CONCURRENCY.length, `${phase} / ${store}: requests`);
    }
    assert.ok(Object.values(phases.cells[`${phase} / couchbase`]).every((value) => value === null),
      'Couchbase: no figure of ours');
  }

  // Every step kept: a row each in the steps table, and in the Result, in the order they ran,
  // each probed idle and under its load, with the phase's exact request count.
  assert.equal(steps.id, 'steps');
  assert.equal(steps.rows.length, (PHASES.length * STORES.length - 1) * CONCURRENCY.length);
  assert.equal(result.steps.length, steps.rows.length);
  const expected = STORES.flatMap((store) => RUN_ORDER
    .filter((phase) => !(store === 'redis-cluster' && phase === 'e'))
    .flatMap((phase) => CONCURRENCY.map((concurrency) => ({ store, phase, concurrency }))));
  for (const [i, step] of result.steps.entries()) {
    const { store, phase, concurrency } = expected[i];
    assert.equal(step.store, store);
    assert.equal(step.concurrency, concurrency);
    assert.equal(step.mode, 'direct');
    assert.equal(step.requests, REQUESTS[phase], `${store} ${phase} c=${concurrency}`);
    const full = overfilled(PHASES.find((name) => name.startsWith(`${phase}.`)), store);
    if (!full) assert.equal(step.errors.total, 0);
    assert.equal(step.probe.thread, 'worker');
    const { idle, underLoad } = step.probe;
    assert.ok(idle.count + idle.errors > 0 && underLoad.count + underLoad.errors > 0, `${store} ${phase}: probed`);
    if (!full) assert.equal(step.probe.idle.errors + step.probe.underLoad.errors, 0);
  }
  // The best step is the one shown.
  const redisInserts = result.steps.filter((step) => step.store === 'redis' && step.workload === 'insert');
  const bestA = redisInserts.slice(0, 3).reduce((a, b) => (b.rps > a.rps ? b : a));
  assert.equal(phases.cells['a. 100 B writes / redis'].ops, bestA.rps);
  assert.equal(phases.cells['a. 100 B writes / redis'].probeLoadMs, bestA.probe.underLoad.meanMs);

  // The study's figures beside ours, as published: Redis Cluster's beside its row, Couchbase's on rows of their own.
  const [published] = record.published;
  assert.deepEqual(published.cells['a. 100 B writes / redis-cluster'], {
    ops: 200000,
    meanMs: null,
    probeIdleMs: 0.21,
    probeLoadMs: 2.09,
    concurrency: 2000,
    serverBound: null,
    errors: null,
    requests: null,
  });
  assert.deepEqual(published.cells['d. 100 B reads / couchbase'], {
    ops: 510000,
    meanMs: null,
    probeIdleMs: 0.35,
    probeLoadMs: 7.04,
    concurrency: 3000,
    serverBound: null,
    errors: null,
    requests: null,
  });
  assert.match(stdout, /a\. 100 B writes \/ redis-cluster\s+[\d,.]+ \| +200,000\s+[\d.]+ \| +-\s+[\d.]+ \| +0\.21\s+[\d.]+ \| +2\.1/);
  assert.match(stdout, /d\. 100 B reads \/ couchbase\s+- \| +510,000\s+- \| +-\s+- \| +0\.35\s+- \| +7\.0/);
  assert.match(stdout, /e\. 10 KB reads \/ couchbase\s+- \| +90,000/);
  assert.match(stdout, /phase c: redis-cluster: no maxmemory; each of the 6 node\(s\) of the redis-cluster server this run started held to [\d.]+ MB more than it held \((cgroup v[12]|prlimit --as)\), cluster-node-timeout 1000 ms: .* is 1\.25x the room/);
  assert.match(stdout, /phase c: redis-cluster: \d of the 6 node\(s\) of the redis-cluster server stopped during the phase/);
  assert.match(stdout, /redis-cluster, phase e: not run, its server lost \d node\(s\) in phase c/);
  // Phase e's probe read 10 KB, as the study's did.
  assert.match(record.runs.find((run) => run.id === 'e').flags, /--probe-size 10240/);

  // A verdict per conclusion: the checkable ones judged, Couchbase's not runnable with the reason.
  assert.deepEqual(record.verdicts.map((verdict) => verdict.id),
    scenario.conclusions.map((conclusion) => conclusion.id));
  // The two judged on the steps a server was the limit of need each step's bottleneck; where the
  // steps name none, or a server limited none, they cannot be judged, and say so.
  const serverJudged = {
    'probe-slower-under-load': /^not runnable here: no row with server the limit at least 1/,
    saturation: /^not runnable here: no figure for .*, serverBound/,
  };
  for (const { id, notRunnable, noCounter } of scenario.conclusions) {
    const { verdict, outcome } = record.verdicts.find((candidate) => candidate.id === id);
    if (notRunnable) assert.match(verdict, /^not runnable here: .*Couchbase/, id);
    else if (serverJudged[id] && serverJudged[id].test(verdict)) assert.ok(true);
    else if (noCounter) assert.match(`${verdict}, ${outcome}`, /^not proven here, (holds here|does not hold here)$/, id);
    else assert.match(verdict, /^(holds here|does not hold here)$/, id);
    assert.match(stdout, new RegExp(`  ${id}: `));
  }
  // The nodes killed for memory as the study's were: unstable.
  assert.equal(record.verdicts.find((candidate) => candidate.id === 'large-writes-redis-unstable').verdict,
    'holds here');

  // The Result says what the whole run was, not its first phase's settings (those are in runs).
  const schema = JSON.parse(await readFile(new URL('../../docs/results.schema.json', import.meta.url), 'utf8'));
  assert.deepEqual(validate(schema, result), []);
  assert.equal(result.settings.workload, 'scenario cluster-vs-document');
  assert.deepEqual(result.settings.stores, STORES);
  assert.equal(result.settings.records, null);
  assert.deepEqual(Object.keys(result.settings.mix).sort(), ['insert', 'read', 'write']);
  assert.deepEqual(record.runs.map((run) => run.id), RUN_ORDER);
  assert.match(record.runs[0].flags, /--workload insert --records 1 --value-size 100 --requests 500 --concurrency 5,20,50 --warmup 0 --value-shape hash/);
  // Values as the study's HashMap: hashes on the Redis stores, JSON elsewhere.
  for (const run of record.runs) assert.match(run.flags, /--value-shape hash/, run.id);
  assert.equal(result.settings.valueShape, 'hash');
  assert.ok(record.notes.some((note) => /a hash on redis and redis-cluster \(HSET of the 10 fields/.test(note) && /JSON document of the same fields .* on tarantool-memtx and postgres/.test(note)), record.notes.join('\n'));
  assert.ok(!record.notes.some((note) => /no store here holds a hash/.test(note)));

  // The saved run prints the same again; its page and CSV carry it (a CSV row per step).
  const report = await runDriverCli(['report', file]);
  assert.equal(report.status, 0, report.stderr);
  assert.equal(report.stdout, stdout.slice(stdout.indexOf('# Scenario ')));
  assert.ok((await readFile(html, 'utf8')).includes('Scenario cluster-vs-document (tiny)'));
  assert.equal((await readFile(csv, 'utf8')).trimEnd().split('\n').length, 1 + result.steps.length);

  // Nothing of the run is left on the shared servers.
  assert.deepEqual(added(keysBefore, await leftKeys(testRedisUrl, ['user*', 'storebench-probe'])), []);
  const rowsAfter = await rowsLeft(testPostgresUrl);
  assert.deepEqual(added(rowsBefore, rowsAfter), [], 'the run left no rows of its own in PostgreSQL');
});
