// npm run perf:engines: the HTTP engines against each other and against other load generators
// (a benchmark, not a test: it prints figures and targets, and never fails on speed).
//
//   npm run perf:engines -- [--parts bare,sink,loadtest,workers] [-c 20] [-t 5] [--rounds 3]
//
// - bare: the fast engine, autocannon and wrk (one thread each, concurrency -c) against a bare
//   node:http server, interleaved (the order rotates each round), rps per round and medians;
//   targets: the fast engine at 0.8 of autocannon's rps at least, aiming for wrk's.
// - sink: each engine's CPU per request against bench/sink-server.js holding every request
//   10 ms (so every client runs at the same rate, set by the hold); target: fast <= 30 µs.
// - loadtest: the loadtest engine against loadtest alone (its own API, the same concurrency
//   and keep-alive, no storebench around it), same sink, interleaved; target: at most 1.2x.
// - workers: the fast engine's CPU per request with 2 worker threads against 1 (each in a
//   thread, thread CPU), interleaved rounds: against the saturated bare server with the same
//   concurrency split in two (target: within 10%), with each thread given the single one's
//   concurrency, and on the sink; with the process's user and kernel time and wake-ups.
// Every part prints how busy the machine was meanwhile (CPU steal, other processes' CPU:
// driver/machine-load.js): on a shared machine, re-run where those are near 0.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { loadTest } from 'loadtest';
import { measureStep } from '../driver/step.js';
import { HTTP_ENGINES } from '../driver/engines/index.js';
import { machineMonitorFor } from '../driver/machine-load.js';
import { systemInfo } from '../util/system-info.js';
import { renderSystemLine } from '../report/system.js';
import { median } from '../util/stats.js';
import { which } from '../util/which.js';
import { startBareServer } from './bare-server-process.js';
import { CPU_SINK_HOLD_MS, startSinkServer } from './workload-perf.js';
import { driverCpuPerRequest } from './cpu-per-request.js';
import { wrk } from './wrk.js';

const run = promisify(execFile);
const PARTS = ['bare', 'sink', 'loadtest', 'workers'];
const { values } = parseArgs({
  options: {
    parts: { type: 'string', default: PARTS.join(',') },
    concurrency: { type: 'string', short: 'c', default: '20' },
    duration: { type: 'string', short: 't', default: '5' },
    rounds: { type: 'string', default: '3' },
  },
});
const parts = new Set(values.parts.split(',').map((part) => part.trim()).filter(Boolean));
const concurrency = Number(values.concurrency);
const seconds = Number(values.duration);
const rounds = Number(values.rounds);
const unknownPart = [...parts].some((part) => !PARTS.includes(part));
if (unknownPart || !parts.size || !(concurrency > 0) || !(seconds > 0) || !(rounds > 0)) {
  console.error(`usage: npm run perf:engines -- [--parts ${PARTS.join(',')}] [-c N] [-t SECONDS] [--rounds N]`);
  process.exit(2);
}
const AUTOCANNON = fileURLToPath(new URL('../node_modules/autocannon/autocannon.js', import.meta.url));

const fixed = (value, digits = 1) => (value === null || value === undefined ? 'n/a' : value.toFixed(digits));
const verdict = (met, target) => `(target ${target}: ${met ? 'met' : 'NOT met'})`;

// How busy the machine was while `body` ran: steal and other processes' CPU (this process, its
// children and the servers it started count as ours).
async function withMachine(label, urls, body) {
  const sample = machineMonitorFor(urls).start();
  const value = await body();
  const { stealPercent, othersCpuPercent, loadAverage } = sample.stop();
  console.log(`  machine during ${label}: CPU steal ${fixed(stealPercent)}%, ` +
    `other processes ${fixed(othersCpuPercent, 0)}% of a core, load average ${fixed(loadAverage, 2)}`);
  return value;
}

// One step of `engine` in this process; CPU per request from process.cpuUsage (this process
// does nothing else meanwhile).
async function engineStep(engine, url, runSeconds = seconds) {
  const before = process.cpuUsage();
  const step = await measureStep(engine, { url, concurrency, durationSeconds: runSeconds, keepAlive: true });
  const cpu = process.cpuUsage(before);
  return {
    rps: step.rps,
    meanMs: step.latency.meanMs,
    us: (cpu.user + cpu.system) / step.responses,
    errors: step.errors.total,
  };
}

// loadtest alone: its own API, no requestGenerator, no storebench meter.
async function loadtestAlone(url, runSeconds = seconds) {
  const before = process.cpuUsage();
  const result = await loadTest({ url, concurrency, maxSeconds: runSeconds, agentKeepAlive: true, quiet: true });
  const cpu = process.cpuUsage(before);
  return {
    rps: result.rps,
    meanMs: result.meanLatencyMs,
    us: (cpu.user + cpu.system) / result.totalRequests,
    errors: result.totalErrors,
  };
}

// autocannon in a child process (its CLI, one thread): rps and mean from its JSON.
async function autocannon(url, runSeconds = seconds) {
  const args = [AUTOCANNON, '-c', String(concurrency), '-d', String(runSeconds), '--json', url];
  const { stdout } = await run(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 });
  const result = JSON.parse(stdout);
  return {
    rps: result.requests.total / result.duration,
    meanMs: result.latency.mean,
    errors: result.errors + result.non2xx,
  };
}

const wrkRun = async (url, runSeconds = seconds) => {
  const result = await wrk(url, { connections: concurrency, seconds: runSeconds, threads: 1 });
  return { rps: result.rps, meanMs: result.meanLatencyMs, errors: result.errors };
};

// Little's law gap: mean latency against concurrency / rps.
const littleGap = ({ rps, meanMs }) => (meanMs / ((concurrency / rps) * 1000) - 1) * 100;

async function bare(url) {
  const tools = [
    ['fast', (runSeconds) => engineStep(HTTP_ENGINES.fast, url, runSeconds)],
    ['autocannon', (runSeconds) => autocannon(url, runSeconds)],
  ];
  if (which('wrk')) tools.push(['wrk', (runSeconds) => wrkRun(url, runSeconds)]);
  else console.log('  wrk is not installed (apt-get install wrk): left out');
  for (const [, tool] of tools) await tool(1); // warm-up: JIT, the server's too
  const figures = new Map(tools.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round += 1) {
    const order = tools.map((_, index) => tools[(index + round) % tools.length]);
    for (const [name, tool] of order) figures.get(name).push(await tool());
    console.log(`  round ${round + 1} (${order.map(([name]) => name).join(', ')}): ${order.map(([name]) => {
      const last = figures.get(name).at(-1);
      const little = last.meanMs ? `${littleGap(last) >= 0 ? '+' : ''}${littleGap(last).toFixed(1)}%` : 'n/a';
      return `${name} ${Math.round(last.rps)} rps (Little ${little})`;
    }).join(', ')}`);
  }
  const rps = (name) => median(figures.get(name).map((figure) => figure.rps));
  for (const [name] of tools) console.log(`  ${name.padEnd(10)} median ${Math.round(rps(name))} rps`);
  const ratio = rps('fast') / rps('autocannon');
  console.log(`  fast / autocannon = ${ratio.toFixed(2)}  ${verdict(ratio >= 0.8, '>= 0.8')}`);
  if (figures.has('wrk')) console.log(`  fast / wrk        = ${(rps('fast') / rps('wrk')).toFixed(2)}  (aim: 1.0)`);
}

async function sink(url) {
  for (const engine of Object.values(HTTP_ENGINES)) await engineStep(engine, url, 1); // warm-up
  const figures = { fast: [], loadtest: [] };
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 ? ['loadtest', 'fast'] : ['fast', 'loadtest'];
    for (const name of order) figures[name].push(await engineStep(HTTP_ENGINES[name], url));
  }
  for (const [name, list] of Object.entries(figures)) {
    const us = median(list.map((figure) => figure.us));
    const rps = median(list.map((figure) => figure.rps));
    console.log(`  ${name.padEnd(8)} engine: ${fixed(us)} µs per request at ${Math.round(rps)} rps ` +
      `(rounds: ${list.map((figure) => figure.us.toFixed(1)).join(', ')} µs)`);
  }
  const fastUs = median(figures.fast.map((figure) => figure.us));
  console.log(`  fast engine CPU per request ${fastUs.toFixed(1)} µs  ${verdict(fastUs <= 30, '<= 30 µs')}`);
}

async function loadtestVersusAlone(url) {
  await engineStep(HTTP_ENGINES.loadtest, url, 1);
  await loadtestAlone(url, 1);
  const ours = [];
  const alone = [];
  for (let round = 0; round < rounds; round += 1) {
    const engine = [ours, (u) => engineStep(HTTP_ENGINES.loadtest, u)];
    const pair = round % 2 ? [[alone, loadtestAlone], engine] : [engine, [alone, loadtestAlone]];
    for (const [list, measure] of pair) list.push(await measure(url));
    const [engineRun, aloneRun] = [ours.at(-1), alone.at(-1)];
    console.log(`  round ${round + 1}: ` +
      `loadtest engine ${engineRun.us.toFixed(1)} µs at ${Math.round(engineRun.rps)} rps, ` +
      `loadtest alone ${aloneRun.us.toFixed(1)} µs at ${Math.round(aloneRun.rps)} rps`);
  }
  const ratio = median(ours.map((figure) => figure.us)) / median(alone.map((figure) => figure.us));
  console.log(`  loadtest engine / loadtest alone, CPU per request = ${ratio.toFixed(2)}  ` +
    verdict(ratio <= 1.2, '<= 1.2'));
}

// --workers 2 against 1 on the fast engine, interleaved (the order turns each round), three
// loads: the target's (concurrency c split over the threads, the bare server saturated), each
// thread given the single thread's c (2c in all), and the sink. Besides the threads' CPU per
// request, the whole process's split into user and kernel time and its wake-ups per response:
// where the two-thread figure differs, these say whether the code does more per request or the
// threads wake more often for fewer responses each.
async function workers(bareUrl, sinkUrl) {
  const half = Math.max(1, Math.round(concurrency / 2));
  const loads = [
    { label: `1 worker, c=${concurrency}, bare`, url: bareUrl, workers: 1, concurrency },
    { label: `2 workers, c=${concurrency}, bare`, url: bareUrl, workers: 2, concurrency },
    { label: `2 workers, c=${2 * concurrency}, bare`, url: bareUrl, workers: 2, concurrency: 2 * concurrency },
    // One thread with as many clients as each of the two above has: the split's cost without a second thread.
    { label: `1 worker, c=${half}, bare`, url: bareUrl, workers: 1, concurrency: half },
    { label: `1 worker, c=${concurrency}, sink`, url: sinkUrl, workers: 1, concurrency },
    { label: `2 workers, c=${2 * concurrency}, sink`, url: sinkUrl, workers: 2, concurrency: 2 * concurrency },
  ];
  const figures = loads.map(() => []);
  const measure = (load) => driverCpuPerRequest(load.url, { ...load, seconds, engine: HTTP_ENGINES.fast });
  for (let round = 0; round < rounds; round += 1) {
    const order = loads.map((_, i) => (i + round) % loads.length);
    for (const i of order) figures[i].push(await measure(loads[i]));
    console.log(`  round ${round + 1}: ` + figures.map((list) => fixed(list.at(-1).threadsUs)).join(' / ') +
      ' µs (threads\' CPU per request, in the order of the table below)');
  }
  const medianOf = (list, name) =>
    (list.some((figure) => figure[name] === null) ? null : median(list.map((figure) => figure[name])));
  console.log('  medians:          threads µs  process µs (user + kernel)  wake-ups/response  rps');
  const rows = loads.map((load, i) => {
    const row = Object.fromEntries(['threadsUs', 'processUs', 'userUs', 'systemUs', 'wakeUpsPerResponse', 'rps']
      .map((name) => [name, medianOf(figures[i], name)]));
    const threads = fixed(row.threadsUs).padStart(6);
    console.log(`  ${load.label.padEnd(24)} ${threads}  ${fixed(row.processUs).padStart(10)} ` +
      `(${fixed(row.userUs)} + ${fixed(row.systemUs)})  ${fixed(row.wakeUpsPerResponse, 2).padStart(14)}  ` +
      `${Math.round(row.rps)}`);
    return row;
  });
  if (rows.some((row) => row.threadsUs === null)) {
    return console.log('  2 workers / 1 worker: n/a (this platform cannot read a thread\'s own CPU)');
  }
  const ratio = (a, b) => rows[a].threadsUs / rows[b].threadsUs;
  console.log(`  2 workers / 1 worker, c=${concurrency} split (the target) = ${ratio(1, 0).toFixed(2)}  ` +
    verdict(Math.abs(ratio(1, 0) - 1) <= 0.1, 'within 10%'));
  console.log(`  2 workers at c=${2 * concurrency} / 1 at c=${concurrency} = ${ratio(2, 0).toFixed(2)} (bare), ` +
    `${ratio(5, 4).toFixed(2)} (sink); 1 worker at c=${half} / 1 at c=${concurrency} = ${ratio(3, 0).toFixed(2)}`);
}

const bareServer = await startBareServer();
const sinkServer = await startSinkServer(['--hold-ms', String(CPU_SINK_HOLD_MS)]);
try {
  const bareUrl = `${bareServer.url}/key1`;
  const sinkUrl = `${sinkServer.url}/memory/key1`;
  console.log(renderSystemLine(systemInfo({ engine: 'loadtest' })));
  console.log(`concurrency ${concurrency}, ${seconds} s per run, ${rounds} rounds, keep-alive; ` +
    'each tool on one thread');
  const total = machineMonitorFor([bareUrl, sinkUrl]).start();
  if (parts.has('bare')) {
    console.log('\nbare node:http server (the client is the limit): rps');
    await withMachine('bare', [bareUrl], () => bare(bareUrl));
  }
  if (parts.has('sink')) {
    console.log(`\nsink holding each request ${CPU_SINK_HOLD_MS} ms: driver CPU per request`);
    await withMachine('sink', [sinkUrl], () => sink(sinkUrl));
  }
  if (parts.has('loadtest')) {
    console.log('\nthe loadtest engine against loadtest alone, same sink: CPU per request');
    await withMachine('loadtest', [sinkUrl], () => loadtestVersusAlone(sinkUrl));
  }
  if (parts.has('workers')) {
    console.log('\n--workers 2 against 1, fast engine, bare server (saturated) and sink: CPU per request');
    await withMachine('workers', [bareUrl, sinkUrl], () => workers(bareUrl, sinkUrl));
  }
  const machine = total.stop();
  console.log(`\nmachine over the whole benchmark: CPU steal ${fixed(machine.stealPercent)}%, ` +
    `other processes ${fixed(machine.othersCpuPercent, 0)}% of a core, load average ${fixed(machine.loadAverage, 2)}`);
} finally {
  await bareServer.stop();
  await sinkServer.stop();
}
