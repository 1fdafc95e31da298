// The app's /metrics (--metrics) and the driver's --metrics-port, scraped by a real Prometheus
// during a short run: what it stored must equal the run's own counts, and every query of the
// Grafana dashboard in docs/ must run against it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp } from '../../app/start-app.js';
import { parseArguments } from '../../cli/options.js';
import { runBenchmark } from '../../driver/run.js';
import { createDriverMetrics, serveMetrics } from '../../driver/metrics-server.js';
import { unavailable } from '../helpers/services.js';

const PROMETHEUS = process.env.PROMETHEUS_BIN ?? '/usr/bin/prometheus';
// A scrape must also finish while the run keeps the app busy: its timeout is the interval's.
const SCRAPE_INTERVAL = '1s';
const DASHBOARD = new URL('../../docs/grafana-dashboard.json', import.meta.url);

const freePort = () => new Promise((resolve, reject) => {
  const server = createServer();
  server.once('error', reject);
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts Prometheus scraping the given targets; resolves to its query(expr), or throws why it could not start. */
async function startPrometheus(t, { app, driver }) {
  const dir = await mkdtemp(join(tmpdir(), 'storebench-prometheus-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const config = [
    'global:',
    `  scrape_interval: ${SCRAPE_INTERVAL}`,
    `  scrape_timeout: ${SCRAPE_INTERVAL}`,
    'scrape_configs:',
    '  - job_name: storebench-app',
    `    static_configs: [{ targets: ['${app}'] }]`,
    '  - job_name: storebench-driver',
    `    static_configs: [{ targets: ['${driver}'] }]`,
    '',
  ].join('\n');
  await writeFile(join(dir, 'prometheus.yml'), config);
  const port = await freePort();
  const child = spawn(PROMETHEUS, [
    `--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => { stderr += chunk; });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  t.after(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  const base = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries += 1) {
    if (child.exitCode !== null) throw new Error(`prometheus exited: ${stderr.trim().split('\n').pop()}`);
    const ready = await fetch(`${base}/-/ready`).then((res) => res.ok, () => false);
    if (ready) break;
    if (tries > 100) throw new Error('prometheus not ready after 10 s');
    await sleep(100);
  }
  return async (expr) => {
    const res = await fetch(`${base}/api/v1/query?query=${encodeURIComponent(expr)}`);
    return res.json();
  };
}

/** The single value of a query's vector result, or null when it has none. */
const valueOf = (answer) => (answer.data?.result?.length ? Number(answer.data.result[0].value[1]) : null);

/**
 * Polls expr until it gives want (a scrape after the run's end has landed), or 15 s pass;
 * resolves to the last value.
 */
async function settled(query, expr, want) {
  let value = null;
  for (let tries = 0; tries < 150; tries += 1) {
    value = valueOf(await query(expr));
    if (value === want) break;
    await sleep(100);
  }
  return value;
}

test('Prometheus scraping the app\'s /metrics and the driver\'s --metrics-port ' +
  'stores exactly the run\'s requests and errors', async (t) => {
  if (!existsSync(PROMETHEUS)) return unavailable(t, `no Prometheus at ${PROMETHEUS} (apt-get install prometheus)`);
  const app = await startApp({ port: 0, host: '127.0.0.1', stores: ['memory'], metrics: true, env: {} });
  t.after(() => app.close());
  const metrics = createDriverMetrics();
  const server = await serveMetrics(metrics, 0);
  t.after(() => server.close());
  let query;
  try {
    query = await startPrometheus(t, { app: new URL(app.url).host, driver: `127.0.0.1:${server.port}` });
  } catch (error) {
    return unavailable(t, `Prometheus cannot start: ${error.message}`);
  }

  const { options, problems } = parseArguments([
    '--url', `${app.url}/memory/key1`, '--url', `${app.url}/memory/no-such-key`,
    '-c', '1,2', '-n', '1000', '--warmup', '0', '--order', 'sequential',
  ]);
  assert.deepEqual(problems, []);
  // What the app really received, counted at its HTTP server, apart from anything /metrics does.
  const received = new Map();
  app.server.on('request', (req) => received.set(req.url, (received.get(req.url) ?? 0) + 1));
  const result = await runBenchmark(options, { onProgress: metrics.onProgress });
  metrics.onResult(result);
  const measured = [...result.steps, ...(result.control ? [result.control.step] : [])];
  const of = (key) => measured.filter((step) => step.key === key);
  const sum = (steps, field) => steps.reduce((total, step) => total + field(step), 0);
  const requests = sum(of('key1'), (step) => step.requests);
  const missing = sum(of('no-such-key'), (step) => step.errors.byKind['http 404'] ?? 0);
  assert.ok(requests >= 2000 && missing >= 2000, `the run sent its requests (${requests} to key1, ${missing} 404s)`);

  const driverRequests = 'sum(storebench_driver_requests_total{store="memory",key="key1"})';
  assert.equal(await settled(query, driverRequests, requests), requests,
    'the driver\'s request counter for memory/key1');
  const driverErrors = 'sum(storebench_driver_errors_total{store="memory",key="no-such-key",kind="http 404"})';
  assert.equal(await settled(query, driverErrors, missing), missing, 'the driver\'s 404 counter');
  const key1Errors = 'sum(storebench_driver_errors_total{key="key1"}) or vector(0)';
  assert.equal(await settled(query, key1Errors, 0), 0, 'no errors on key1');
  const latencyCount = 'sum(storebench_driver_latency_seconds_count{store="memory",key="key1"})';
  assert.equal(await settled(query, latencyCount, requests), requests,
    'every key1 response is in the latency histogram');

  // The app counts what reached it: the steps' requests and the driver's check of each URL.
  const [key1, noKey] = [received.get('/memory/key1'), received.get('/memory/no-such-key')];
  assert.ok(key1 >= requests && noKey >= missing, `the app received the steps' requests (${key1}, ${noKey})`);
  const appOk = 'sum(storebench_app_requests_total{store="memory",route="/:store/:key",status="200"})';
  assert.equal(await settled(query, appOk, key1), key1, 'the app\'s 200 counter for memory');
  const appMissing = 'sum(storebench_app_requests_total{store="memory",route="/:store/:key",status="404"})';
  assert.equal(await settled(query, appMissing, noKey), noKey, 'the app\'s 404 counter for memory');
  const gets = 'sum(storebench_app_store_operation_duration_seconds_count{store="memory",operation="get"})';
  assert.equal(await settled(query, gets, key1 + noKey), key1 + noKey, 'one store get per request');
  assert.ok(valueOf(await query('storebench_app_nodejs_eventloop_lag_p99_seconds')) >= 0,
    'the event loop delay is scraped');

  // Every query of the dashboard runs against this Prometheus, Grafana's variables filled in.
  const dashboard = JSON.parse(await readFile(DASHBOARD, 'utf8'));
  const exprs = dashboard.panels.flatMap((panel) => panel.targets.map((target) => target.expr));
  assert.ok(exprs.length >= 4);
  for (const expr of exprs) {
    const answer = await query(expr.replaceAll('$__rate_interval', '1m').replaceAll('$__interval', '15s'));
    assert.equal(answer.status, 'success', `${expr}: ${answer.error ?? ''}`);
  }
  // rate() needs two samples in its window: scrapes go on after the run.
  const rpsExpr = exprs.find((expr) => expr.startsWith('sum by (store) (rate(storebench_app_requests_total'))
    .replaceAll('$__rate_interval', '1m');
  let rps;
  for (let tries = 0; tries < 50 && !rps?.data.result.length; tries += 1) {
    rps = await query(rpsExpr);
    if (!rps.data.result.length) await sleep(100);
  }
  assert.ok(rps.data.result.some((series) => series.metric.store === 'memory'),
    `the rps panel shows memory: ${JSON.stringify(rps)}`);
  // Operations in flight: scraped for every open store, none left once the run is over.
  const inFlight = await query('storebench_app_store_operations_in_flight{store="memory"}');
  assert.deepEqual(inFlight.data.result.map((series) => series.value[1]), ['0'], JSON.stringify(inFlight));
});

test('without --metrics the app answers /metrics with its JSON 404 and records nothing', async (t) => {
  const app = await startApp({ port: 0, host: '127.0.0.1', stores: ['memory'], env: {} });
  t.after(() => app.close());
  await fetch(`${app.url}/memory/key1`).then((res) => res.arrayBuffer());
  const res = await fetch(`${app.url}/metrics`);
  assert.equal(res.status, 404);
  assert.match(res.headers.get('content-type'), /application\/json/);
  assert.equal(typeof (await res.json()).code, 'string');
  assert.equal(app.stores.observer, null, 'no store operation is timed');
});
