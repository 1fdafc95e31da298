// node test --scenario as a user runs it: the list, bad input (exit 2, one line), and every
// scenario of the sweep kind end to end at --scale tiny against the real app.js and its real
// servers: its tables with the published figures beside ours, a verdict line per conclusion,
// and the same text again from the saved JSON (node test report) and in the HTML page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runDriverCli } from '../helpers/driver-cli.js';
import { reachable, testPostgresUrl, testRedisUrl, unavailable } from '../helpers/services.js';
import { listScenarios } from '../../studies/index.js';
import { formatFigure } from '../../report/scenario.js';

async function tempDir(t) {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-scenario-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const scenarios = await listScenarios();

test('--scenario list prints one line per scenario file: its name and summary', async () => {
  const { status, stdout } = await runDriverCli(['--scenario', 'list']);
  assert.equal(status, 0);
  const lines = stdout.trimEnd().split('\n');
  assert.equal(lines.length, scenarios.length);
  for (const scenario of scenarios) {
    assert.ok(lines.some((line) => line.startsWith(scenario.name) && line.endsWith(scenario.summary)), scenario.name);
  }
  assert.ok(lines.some((line) => line.startsWith('cloudant-vs-redis ')));
  assert.ok(lines.some((line) => line.startsWith('tarantool-vs-postgres ')));
});

test('bad scenario input exits 2 with one clear line, before anything starts', async () => {
  const cases = [
    [['--scenario', 'cloudant-vs-reddis'],
      'node test: unknown scenario "cloudant-vs-reddis" (did you mean cloudant-vs-redis?)'],
    [['--scenario', 'cloudant-vs-redis', '--scale', 'tinny'],
      'node test: --scale must be one of tiny, default, full, not "tinny" (did you mean tiny?)'],
    [['--scenario', 'cloudant-vs-redis', '-c', '5'],
      'node test: --concurrency conflicts with --scenario: the scenario sets its own load and targets'],
    [['--scenario', 'cloudant-vs-redis', '--stores', 'redis'],
      'node test: --stores conflicts with --scenario: the scenario sets its own load and targets'],
    [['--scenario', 'cloudant-vs-redis', '--cloudant-plan', 'standard'],
      'node test: --cloudant-plan must be one of lite, none, not "standard"'],
    [['--scale', 'tiny'], 'node test: --scale goes with --scenario NAME'],
    [['--client-rtt', '300'], 'node test: --client-rtt goes with --scenario NAME'],
    [['--scenario', 'cloudant-vs-redis', '--client-rtt', 'far'], 'node test: --client-rtt '],
    [['--scenario', 'redis-vs-memory', '--client-rtt', '50'],
      'node test: --client-rtt and --client-bandwidth apply to the scenarios that run over HTTP, not to ' +
      'redis-vs-memory (direct mode)'],
    [['--scenario', 'cluster-vs-document', '--store-rtt', '50'],
      'node test: --store-rtt, --store-jitter and --store-bandwidth do not apply to cluster-vs-document'],
    [['--scenario', 'cloudant-vs-redis', '--verdicts', 'redis-fastest'],
      'node test: --verdicts: cloudant-vs-redis has no conclusion "redis-fastest" (did you mean redis-faster?)'],
    [['--scenario', 'list', '--json', 'x.json'], 'node test: --json does not apply to --scenario list'],
  ];
  for (const [args, line] of cases) {
    const { status, stderr, stdout } = await runDriverCli(args);
    assert.equal(status, 2, `${args.join(' ')}: ${stderr}`);
    assert.ok(stderr.startsWith(line), `${args.join(' ')}: ${stderr}`);
    assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
    assert.equal(stdout, '');
  }
});

// The servers the scenarios' stores use: the shared Redis and PostgreSQL (the others start embedded).
async function servicesEnv(t) {
  for (const url of [testRedisUrl, testPostgresUrl]) {
    if (!(await reachable(url))) return unavailable(t, `${url} is not reachable`) && null;
  }
  return { ...process.env, REDIS_URL: testRedisUrl, POSTGRES_URL: testPostgresUrl };
}

// cloudant-vs-redis runs behind the study's network by default: every request pays the two 300 ms
// round trips, and the notes say so (checked on the end-to-end run: one run of the scenario, not two).
function assertStudyNetwork(record) {
  // The study's: 300 ms round trips, and 325 KB/s on each connection (key3's 263 KB took 0.79 s more).
  assert.deepEqual(record.clientDelay, { rttMs: 300, bandwidth: 325 * 1024, perConnection: true });
  assert.equal(record.storeDelay, null);
  assert.ok(record.notes.some((note) => note.startsWith('network between the driver and the app: RTT 300 ms')),
    record.notes.join('\n'));
  const sweep = record.measured[0];
  // A request without keep-alive: the handshake's round trip, then the request's.
  for (const row of sweep.rows) {
    assert.ok(sweep.cells[row].minLatencyMs >= 590, `${row}: ${sweep.cells[row].minLatencyMs} ms`);
  }
  // Closed loop: rps near concurrency / 0.6 s, so Redis's rps rises with the clients.
  assert.ok(sweep.cells['redis/key1 c=30'].rps > 2 * sweep.cells['redis/key1 c=5'].rps);
  const verdict = (id) => record.verdicts.find((v) => v.id === id).verdict;
  assert.match(verdict('json-parse-negligible'), /^(holds here|does not hold here)$/);
  // The round trip decides these two whatever the stores do: never printed as holding.
  for (const id of ['redis-rises', 'network-dominates']) {
    assert.equal(verdict(id), 'set by the emulation', id);
    assert.match(record.verdicts.find((v) => v.id === id).setBy, /^the 300 ms round trip between the driver and the app/);
  }
}

const BEHIND = { 'cloudant-vs-redis': ', behind the study\'s network', 'tarantool-vs-postgres': '' };
for (const name of ['cloudant-vs-redis', 'tarantool-vs-postgres']) {
  test(`${name} runs end to end at --scale tiny: our tables beside the published figures, a verdict per conclusion, ` +
    `the same again from its JSON and in its page${BEHIND[name]}`, async (t) => {
    const env = await servicesEnv(t);
    if (!env) return;
    const scenario = scenarios.find((candidate) => candidate.name === name);
    const dir = await tempDir(t);
    const [json, html, csv] = ['r.json', 'r.html', 'r.csv'].map((file) => join(dir, file));
    const { status, stdout, stderr } = await runDriverCli([
      '--scenario', name, '--scale', 'tiny', '--json', json, '--html', html, '--csv', csv,
    ], { env });
    assert.equal(status, 0, stderr);

    const saved = JSON.parse(await readFile(json, 'utf8'));
    const record = saved.scenario;
    assert.equal(record.name, name);
    assert.equal(record.scale, 'tiny');
    if (name === 'cloudant-vs-redis') assertStudyNetwork(record);
    // Study 000 was made with loadtest, which its scenario names; study 004 (ab) runs on the default.
    const engine = { 'cloudant-vs-redis': 'loadtest', 'tarantool-vs-postgres': 'fast' }[name];
    assert.equal(saved.settings.engine, engine);
    const why = engine === 'loadtest' ? 'engine loadtest [\\d.]+ \\(--engine loadtest\\)' : 'engine fast \\(default\\)';
    assert.match(stdout, new RegExp(`^System: +.* · ${why} · `, 'm'));
    // The load's tables, then the JSON parse table a scenario may time in the driver.
    assert.equal(record.measured.length, scenario.tables.length + (scenario.jsonParseTable ? 1 : 0));
    for (const [i, table] of record.measured.slice(0, scenario.tables.length).entries()) {
      const spec = scenario.tables[i];
      assert.deepEqual(table.columns.map((column) => column.id), spec.columns.map((column) => column.id));
      assert.ok(table.rows.length > 0, `${table.id} has rows`);
      // Every row measured: each cell a figure (the extras, when a store has no such stat, null).
      for (const row of table.rows) {
        for (const column of spec.columns.filter((c) => !c.metric.startsWith('extra:'))) {
          assert.equal(typeof table.cells[row][column.id], 'number', `${table.id} ${row} ${column.id}`);
        }
      }
      // A table of ours alone (no published figures to set beside it) is printed without "| published".
      const published = (scenario.published ?? []).some((candidate) => candidate.id === table.id);
      const heading = published ? `## ${table.title}: ours | published` : `## ${table.title}\n`;
      assert.ok(stdout.includes(heading), table.title);
    }
    // Every request answered 2xx: a 429 the Lite emulation sent was retried, never passed on.
    for (const step of saved.steps) {
      assert.equal(step.errors.total, 0, `${step.url} c=${step.concurrency}: ${JSON.stringify(step.errors.byKind)}`);
    }
    const stepsOfRun = (run) => run.options.concurrency.length * (run.options.keys?.length ?? 1);
    assert.equal(saved.steps.length, scenario.scales.tiny.runs.reduce((sum, run) => sum + stepsOfRun(run), 0));

    // The published figures are printed beside ours, cell by cell.
    for (const published of record.published) {
      const measured = record.measured.find((table) => table.id === published.id);
      for (const row of measured.rows.filter((r) => published.rows.includes(r))) {
        for (const column of measured.columns) {
          const value = published.cells[row][column.id];
          if (value === null) continue;
          const line = stdout.split('\n').find((text) => text.startsWith(`${row} `));
          // Padded to the column's widest published figure: "|  5.4" above "| 0.76".
          assert.match(line, new RegExp(`\\| +${formatFigure(value).replace(/[.]/g, '\\.')}( |$)`), `${row}: published ${column.id} ${value} in "${line}"`);
        }
      }
    }

    // One verdict line per conclusion, each one of the three verdicts.
    // ("! " in front: its figures come from steps with a warning that undermines them)
    const verdictLines = stdout.split('\n')
      .filter((line) => /^[ !] (holds here|does not hold here|not runnable here|set by the emulation|not proven here) /
        .test(line));
    assert.equal(verdictLines.length, scenario.conclusions.length);
    for (const conclusion of scenario.conclusions) {
      assert.ok(verdictLines.some((line) => line.includes(` ${conclusion.id}: `)), conclusion.id);
    }
    assert.equal(record.verdicts.length, scenario.conclusions.length);
    for (const conclusion of scenario.conclusions.filter((c) => c.notRunnable)) {
      assert.equal(record.verdicts.find((v) => v.id === conclusion.id).verdict,
        `not runnable here: ${conclusion.notRunnable}`);
    }
    assert.match(stdout, /Published: {3}on their hardware, not ours: /);
    assert.match(stdout, /^System: /m);

    // Each row names the steps behind it (a row per store: that store's steps); the steps'
    // warnings are listed by code after the tables, each with how many steps carry it.
    // (A row named after its run, such as cloudant/ for the cloudant-legacy store, or
    // single-threaded: that run's store.)
    const runs = scenario.scales.tiny.runs;
    const ofStore = (row, store) => row.includes(store) ||
      runs.some((run) => (row === run.id || row.startsWith(`${run.id}/`)) && run.options.stores === store);
    for (const table of record.measured.filter((candidate) => candidate.sources)) {
      for (const row of table.rows) {
        assert.ok(table.sources[row].length > 0, `${table.id} ${row}`);
        for (const i of table.sources[row]) {
          assert.ok(ofStore(row, saved.steps[i].store), `${table.id} ${row}: step ${i} is ${saved.steps[i].store}`);
        }
      }
    }
    const codes = [...new Set(saved.steps.flatMap((step) => step.warnings.map((warning) => warning.code)))];
    for (const code of codes) {
      const count = saved.steps.filter((step) => step.warnings.some((warning) => warning.code === code)).length;
      assert.match(stdout,
        new RegExp(`^ {2}${code} +${count} of ${saved.steps.length} steps, in \\d+ rows?: `, 'm'), code);
    }
    if (!codes.length) assert.doesNotMatch(stdout, /Warnings of the steps/);

    // node test report re-prints the scenario's text from the file; the page carries it too.
    const report = await runDriverCli(['report', json]);
    assert.equal(report.status, 0, report.stderr);
    assert.equal(report.stdout, stdout.slice(stdout.indexOf('# Scenario ')));
    const page = await readFile(html, 'utf8');
    assert.ok(page.includes(`Scenario ${name} (tiny)`));
    for (const conclusion of scenario.conclusions) assert.ok(page.includes(conclusion.id), conclusion.id);
    const csvLines = (await readFile(csv, 'utf8')).trimEnd().split('\n');
    assert.equal(csvLines.length, 1 + saved.steps.length);
  });
}

test('cloudant-vs-redis with Lite on shows the cloudant store\'s 429s and retries per step; ' +
  '--cloudant-plan none shows none', async (t) => {
  const env = await servicesEnv(t);
  if (!env) return;
  const runs = {};
  for (const plan of ['lite', 'none']) {
    const dir = await tempDir(t);
    const json = join(dir, 'r.json');
    // On loopback (no round trip, no bandwidth limit): 20 reads at up to 30 at once then overrun 20
    // lookups a second.
    const { status, stderr } = await runDriverCli([
      '--scenario', 'cloudant-vs-redis', '--scale', 'tiny', '--cloudant-plan', plan, '--client-rtt', '0',
      '--client-bandwidth', '0', '--json', json, '-q',
    ], { env });
    assert.equal(status, 0, stderr);
    runs[plan] = JSON.parse(await readFile(json, 'utf8')).scenario;
  }
  const cells = (record, prefix, column) => {
    const [table] = record.measured;
    return table.rows.filter((row) => row.startsWith(prefix)).map((row) => table.cells[row][column]);
  };
  // Three steps of 20 reads at up to 30 at once cannot all fit 20 lookups a second.
  assert.ok(cells(runs.lite, 'cloudant/', 'seen429').reduce((a, b) => a + b) > 0);
  assert.deepEqual(cells(runs.lite, 'cloudant/', 'seen429'), cells(runs.lite, 'cloudant/', 'retries'),
    'every 429 retried, none given up');
  assert.deepEqual(cells(runs.none, 'cloudant/', 'seen429'), [0, 0, 0]);
  assert.deepEqual(cells(runs.lite, 'redis/', 'seen429'), [null, null, null], 'redis has no such stat');
  // The run without Lite's limits is without them whatever the plan asked.
  assert.deepEqual(cells(runs.lite, 'cloudant-no-limits/', 'seen429'), [0, 0, 0]);
  assert.equal(runs.lite.clientDelay, null);
  assert.ok(runs.lite.notes.includes(
    'network between the driver and the app: none emulated (loopback), as the flags asked'));
  assert.equal(runs.lite.cloudantPlan, 'lite');
  assert.equal(runs.none.cloudantPlan, 'none');
});

test('a scenario store that is down: its cells empty, the verdicts that need it not runnable, ' +
  'the reason in the notes, exit 1 after the text and files', async (t) => {
  const env = await servicesEnv(t);
  if (!env) return;
  const dir = await tempDir(t);
  const json = join(dir, 'r.json');
  // Nothing listens on port 1 of loopback: tarantool is unavailable, the other three run.
  const down = { ...env, TARANTOOL_URL: 'tarantool://127.0.0.1:1', STOREBENCH_OPEN_TIMEOUT_MS: '2000' };
  const { status, stdout, stderr } = await runDriverCli([
    '--scenario', 'tarantool-vs-postgres', '--scale', 'tiny', '--json', json, '-q',
  ], { env: down });
  assert.equal(status, 1, stderr);
  assert.match(stderr, /^node test: tarantool was unavailable, so it was not measured: /m);
  const record = JSON.parse(await readFile(json, 'utf8')).scenario;
  const summary = record.measured.find((table) => table.id === 'summary');
  assert.deepEqual(summary.cells.tarantool, { readMs: null, writeMs: null, readRps: null, writeRps: null });
  assert.equal(typeof summary.cells.postgres.readRps, 'number');
  assert.ok(record.notes.some((note) => note.startsWith('tarantool was unavailable')));
  const verdict = (id) => record.verdicts.find((v) => v.id === id).verdict;
  assert.equal(verdict('tarantool-writes'), 'not runnable here: no figure for tarantool, writeRps');
  assert.match(verdict('cache-beats-postgres-reads'), /^(holds here|does not hold here)$/);
  assert.match(stdout, /^tarantool +- \| +57 +- \| +56/m);
});
