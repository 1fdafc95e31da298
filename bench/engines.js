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
//   thread, thread CPU), against the saturated bare server; target: within 10%.
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

async function workers(url) {
  const figures = [];
  for (const count of [1, 2]) {
    await driverCpuPerRequest(url, { workers: count, concurrency, seconds: 1, engine: HTTP_ENGINES.fast }); // warm-up
    const figure = await driverCpuPerRequest(url, { workers: count, concurrency, seconds, engine: HTTP_ENGINES.fast });
    figures.push(figure);
    console.log(`  fast engine, ${count} worker${count > 1 ? 's' : ''}: ${fixed(figure.threadsUs)} µs per request ` +
      `(threads' own CPU; whole process ${fixed(figure.processUs)} µs), ${Math.round(figure.rps)} rps`);
  }
  const [one, two] = figures;
  if (one.threadsUs === null || two.threadsUs === null) {
    return console.log('  2 workers / 1 worker: n/a (this platform cannot read a thread\'s own CPU)');
  }
  const ratio = two.threadsUs / one.threadsUs;
  console.log(`  2 workers / 1 worker = ${ratio.toFixed(2)}  ${verdict(Math.abs(ratio - 1) <= 0.1, 'within 10%')}`);
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
    console.log('\n--workers 2 against 1, fast engine, bare server (saturated): CPU per request');
    await withMachine('workers', [bareUrl], () => workers(bareUrl));
  }
  const machine = total.stop();
  console.log(`\nmachine over the whole benchmark: CPU steal ${fixed(machine.stealPercent)}%, ` +
    `other processes ${fixed(machine.othersCpuPercent, 0)}% of a core, load average ${fixed(machine.loadAverage, 2)}`);
} finally {
  await bareServer.stop();
  await sinkServer.stop();
}
