// The workload figures of npm run perf: what a write costs the app next to
// a read, what a write costs the driver next to a read, how fast the bulk route loads a million
// records, and what the driver's memory does over a 10,000,000-record key space. Each part
// returns lines to print; a part that cannot run here says why in one line instead.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureStep } from '../driver/step.js';
import { loadtestEngine } from '../driver/engines/loadtest.js';
import { httpRequest } from '../driver/http-request.js';
import { createWorkload } from '../driver/workloads/workload.js';
import { parseWorkload } from '../options/workload.js';
import { loadRecords } from '../driver/workloads/load.js';
import { RECORDS_MEDIA_TYPE, encodeRecords } from '../util/records.js';
import { forkListening } from '../util/fork-child.js';
import { median } from '../util/stats.js';
import { wrk } from './wrk.js';

const verdict = (met, target) => `(target ${target}: ${met ? 'met' : 'NOT met'})`;
// The app's error code from an answer's JSON body, or `none` when it has none.
function codeOf(answer) {
  try {
    return JSON.parse(answer.body.toString()).code ?? 'none';
  } catch {
    return 'none';
  }
}
const shown = (value) => Math.round(value).toLocaleString('en-US');

/** A workload of `name` over `records` records of `valueSize` bytes, for the store at path `basePath`. */
function benchWorkload(name, { records, valueSize = 100, basePath, token = null, seed = 1 }) {
  const { value } = parseWorkload(name);
  const distribution = value.distribution ? { name: value.distribution } : null;
  return createWorkload({
    ...value,
    distribution,
    records,
    valueSize: { min: valueSize, max: valueSize },
    seed,
  }, { basePath, token });
}

/** Why the app at `url` refused a write (a line), or null when PUT /memory/<key> answers 2xx. */
export async function writeRoutesMissing(url, token) {
  const answer = await httpRequest(`${url}/memory/storebench-perf-probe`, {
    method: 'PUT',
    body: Buffer.alloc(100),
    headers: { authorization: `Bearer ${token}` },
  });
  if (answer.status >= 200 && answer.status < 300) return null;
  return `app.js refused a write (PUT /memory/<key> answered ${answer.status}, code ${codeOf(answer)})`;
}

// A wrk Lua script that PUTs `bytes` bytes to a new key of 100,000 per request.
const putScript = (bytes, token) => `
local counter = 0
local body = string.rep("x", ${bytes})
local headers = { ["Content-Type"] = "application/octet-stream", ["Authorization"] = "Bearer ${token}" }
request = function()
  counter = counter + 1
  return wrk.format("PUT", string.format("/memory/user%010d", counter % 100000), headers, body)
end
`;

/** PUT /memory/<key> of 100 B with wrk, against `getKey1` (wrk's result for GET /memory/key1). */
export async function putVersusGet({ appUrl, token, connections, seconds, getKey1, missing }) {
  if (missing) return [`PUT /memory/<key> vs GET /memory/key1 skipped: ${missing}`];
  const dir = await mkdtemp(join(tmpdir(), 'storebench-perf-'));
  try {
    const script = join(dir, 'put.lua');
    await writeFile(script, putScript(100, token), { mode: 0o600 });
    await wrk(appUrl, { connections, seconds: 1, script }); // warm-up
    const put = await wrk(appUrl, { connections, seconds, script });
    const ratio = put.rps / getKey1.rps;
    return [
      `${'PUT /memory/<key> 100 B'.padEnd(22)} ${put.rps.toFixed(0).padStart(8)} rps  ` +
        `mean ${put.meanLatencyMs.toFixed(2).padStart(6)} ms${put.errors ? `  ${put.errors} errors` : ''}`,
      `${'PUT 100 B / GET /memory/key1'.padEnd(44)} ${ratio.toFixed(2)}  ${verdict(ratio >= 0.8, '>= 0.8')}`,
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// The driver's CPU per request over one step of `workload`, from process.cpuUsage.
async function cpuPerRequest(url, workload, { concurrency, seconds }) {
  const before = process.cpuUsage();
  const step = await measureStep(loadtestEngine, { url, concurrency, durationSeconds: seconds, workload });
  const cpu = process.cpuUsage(before);
  return { us: (cpu.user + cpu.system) / step.requests, rps: step.rps };
}

// The sink's hold for the CPU comparison: reads and writes then go at the same rate (set by the
// hold, not by what each costs the sink), so neither gets more requests per event-loop turn.
export const CPU_SINK_HOLD_MS = 10;

/**
 * The driver's CPU per write against per read: the same server (the sink started with
 * --hold-ms CPU_SINK_HOLD_MS, answering a read with a 100 B value and a write with 204,
 * keeping nothing), alternating read and write steps; the medians of `rounds` rounds. On a
 * shared machine single rounds swing by 20% either way: the medians are the figures.
 */
export async function driverCpu({ sinkUrl, concurrency = 20, seconds = 2, rounds = 7 }) {
  const url = `${sinkUrl}/memory`;
  const read = () => benchWorkload('read', { records: 100_000, basePath: '/memory' });
  const write = () => benchWorkload('write', { records: 100_000, basePath: '/memory' });
  await cpuPerRequest(url, read(), { concurrency, seconds: 1 }); // warm-up: JIT, sockets
  await cpuPerRequest(url, write(), { concurrency, seconds: 1 });
  const reads = [];
  const writes = [];
  for (let round = 0; round < rounds; round += 1) {
    const pair = round % 2 ? [[writes, write], [reads, read]] : [[reads, read], [writes, write]];
    for (const [list, make] of pair) list.push(await cpuPerRequest(url, make(), { concurrency, seconds }));
  }
  const readUs = median(reads.map((figures) => figures.us));
  const writeUs = median(writes.map((figures) => figures.us));
  const rps = (list) => Math.round(median(list.map((figures) => figures.rps)));
  const ratio = writeUs / readUs;
  return [
    `driver CPU per request (medians of ${rounds} rounds of ${seconds} s, concurrency ${concurrency}, ` +
      `against a sink holding each request ${CPU_SINK_HOLD_MS} ms): ` +
      `read of 100 B ${readUs.toFixed(1)} µs at ${rps(reads)} rps, ` +
      `write of 100 B ${writeUs.toFixed(1)} µs at ${rps(writes)} rps`,
    `${'driver CPU per write / per read'.padEnd(44)} ${ratio.toFixed(2)}  ` +
      verdict(ratio <= 1.1, 'a write within 10% of a read: <= 1.10'),
  ];
}

/** Loads 1,000,000 records of 100 B into `store` of the app through its bulk route, timed. */
export async function bulkLoad({ appUrl, store, token, records = 1_000_000, targetSeconds, status }) {
  const label = `bulk load ${shown(records)} x 100 B into ${store}`;
  if (status !== 'up') return [`${label} skipped: ${store} is ${status ?? 'not in the app'}`];
  const probe = encodeRecords([['storebench-perf-probe', Buffer.from('x')]]);
  const answer = await httpRequest(`${appUrl}/${store}`, {
    method: 'POST',
    body: probe,
    headers: { 'content-type': RECORDS_MEDIA_TYPE, authorization: `Bearer ${token}` },
  });
  if (answer.status !== 200) {
    return [`${label} skipped: app.js refused the bulk load ` +
      `(POST /${store} answered ${answer.status}, code ${codeOf(answer)})`];
  }
  const workload = benchWorkload('read', { records, basePath: `/${store}` });
  const load = await loadRecords({ url: `${appUrl}/${store}`, workload, token });
  const errors = load.errors.total
    ? `, ${load.errors.total} failed batches (${Object.keys(load.errors.byKind).join(', ')})`
    : '';
  const met = verdict(load.loaded === records && load.seconds <= targetSeconds, `<= ${targetSeconds} s`);
  return [`${label.padEnd(44)} ${load.seconds.toFixed(1)} s, ${shown(load.rps)} records/s, ` +
    `p99 batch ${load.latency.p99Ms?.toFixed(0)} ms${errors}  ${met}`];
}

const SINK = fileURLToPath(new URL('./sink-server.js', import.meta.url));

/** Starts the sink server (bench/sink-server.js, with `args`) as a child process: { url, stop() }. */
export async function startSinkServer(args = []) {
  const { message, stop } = await forkListening(SINK, args, { name: 'sink server', output: 'inherit' });
  return { url: message.url, stop };
}

/**
 * The driver's memory over a key space of `records` records: the load phase, then a write
 * step, against the sink (so the app's memory is not part of it); the peak RSS sampled every
 * 100 ms. The verification's memory is its sample, 1,000 keys, whatever the key space.
 */
export async function driverMemory({ sinkUrl, records = 10_000_000, seconds = 3 }) {
  const url = `${sinkUrl}/memory`;
  let peak = process.memoryUsage().rss;
  const before = peak;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 100);
  try {
    const workload = benchWorkload('update', { records, basePath: '/memory' });
    const load = await loadRecords({ url, workload });
    await measureStep(loadtestEngine, { url, concurrency: 20, durationSeconds: seconds, workload });
    peak = Math.max(peak, process.memoryUsage().rss);
    const mb = (bytes) => (bytes / (1024 * 1024)).toFixed(0);
    return [`driver RSS over ${shown(records)} records ` +
      `(load in ${load.seconds.toFixed(1)} s, then ${seconds} s of updates): ` +
      `${mb(before)} MB before, ${mb(peak)} MB at most  ${verdict(peak < 300 * 1024 * 1024, '< 300 MB')}`];
  } finally {
    clearInterval(timer);
  }
}
