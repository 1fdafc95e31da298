// Accuracy check (a benchmark, not a test): each HTTP engine and wrk against the same endpoint at
// the same concurrency, in the same run, taking turns. Targets for the default engine: rps within
// 5% of wrk's, mean latency within 10% of wrk's mean; on the `timer` server (issue 37) mean
// latency within 3% of wrk's and at most 300 µs of driver CPU per response.
//
//   npm run perf:accuracy -- [--server app|bare|sleep|busy|timer] [--engines fast,loadtest] [-c 20]
//     [-t 10] [--rounds 4] [--wrk-threads 1] [--loadtest-alone] [--cpu-only]
//
// Each round runs wrk and every engine of --engines (default: every HTTP engine, the default
// first), the order turning by one each round, and prints each one's rps, mean latency and CPU
// µs per response (the engine's thread; wrk's from the shell's `times`), and its ratios to wrk's
// in that round; the medians of those ratios are judged. --loadtest-alone adds loadtest run by
// its own API (no storebench around it; its mean is concurrency / rps, since loadtest floors
// every latency to whole ms): the floor of what lightening the loadtest engine could reach.
//
// Then the driver's CPU per request: one step each with 1 and 2 worker threads (--workers) of
// the default engine, beside wrk's where wrk is installed; target: 2 workers within 10% of 1
// worker (splitting the load and adding the histograms cost nothing per request). Without wrk,
// or with --cpu-only, only this part runs; on the timer server only the rounds do.
//
// Servers (each in a child process): app = app.js serving /memory/key1 (the real target);
// bare = a bare node:http server (so fast that a Node client, not the server, is the limit);
// sleep = the bare server holding each request --sleep-ms (default 5) ms, so neither client
// is CPU-bound; timer = the same holding each request 20 ms, at -c 5 unless -c says otherwise,
// 4 s rounds unless -t does (about 240 rps: the driver's own cost per response shows in the
// mean); busy = the bare server spending --busy-us (default 400) µs of CPU per request, so the
// server is the bottleneck.
import { parseArgs } from 'node:util';
import { loadTest } from 'loadtest';
import { measureStep } from '../driver/step.js';
import { HTTP_ENGINES } from '../driver/engines/index.js';
import { DEFAULT_HTTP_ENGINE, HTTP_ENGINE_NAMES } from '../config/run-defaults.js';
import { threadCpuMicros } from '../driver/thread-cpu.js';
import { startAppProcess } from '../driver/app-process.js';
import { which } from '../util/which.js';
import { systemInfo } from '../util/system-info.js';
import { renderSystemLine } from '../report/system.js';
import { startBareServer } from './bare-server-process.js';
import { median } from '../util/stats.js';
import { driverCpuPerRequest, wrkCpuPerRequest } from './cpu-per-request.js';
import { TIMER_TARGETS, medianRatio, timerVerdict } from './verdicts.js';

const RPS_TOLERANCE = 0.05;
const MEAN_TOLERANCE = 0.1;
const WARMUP_SECONDS = 5;
const CPU_SPLIT_TOLERANCE = 0.1;
const TIMER_MS = 20;
const LOADTEST_ALONE = 'loadtest alone';
// Every HTTP engine, the default first.
const ENGINES_DEFAULT = [DEFAULT_HTTP_ENGINE, ...HTTP_ENGINE_NAMES.filter((name) => name !== DEFAULT_HTTP_ENGINE)]
  .join(',');

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: 'app' },
    engines: { type: 'string', default: ENGINES_DEFAULT },
    concurrency: { type: 'string', short: 'c' },
    duration: { type: 'string', short: 't' },
    rounds: { type: 'string', default: '4' },
    'wrk-threads': { type: 'string', default: '1' },
    'sleep-ms': { type: 'string', default: '5' },
    'busy-us': { type: 'string', default: '400' },
    'loadtest-alone': { type: 'boolean', default: false },
    'cpu-only': { type: 'boolean', default: false },
  },
});
const timer = values.server === 'timer';
const concurrency = Number(values.concurrency ?? (timer ? 5 : 20));
const seconds = Number(values.duration ?? (timer ? 4 : 10));
const rounds = Number(values.rounds);
const engines = values.engines.split(',').map((name) => name.trim()).filter(Boolean);
const knownServer = ['app', 'bare', 'sleep', 'busy', 'timer'].includes(values.server);
const knownEngines = engines.length && engines.every((name) => HTTP_ENGINE_NAMES.includes(name));
if (!knownServer || !knownEngines || !(concurrency > 0) || !(seconds > 0) || !(rounds > 0)) {
  console.error('usage: node bench/accuracy.js [--server app|bare|sleep|busy|timer] [--engines fast,loadtest] ' +
    '[--sleep-ms N] [--busy-us N] [-c N] [-t SECONDS] [--rounds N] [--wrk-threads N] [--loadtest-alone] [--cpu-only]');
  process.exit(2);
}
const haveWrk = Boolean(which('wrk'));
const wrkRounds = haveWrk && !values['cpu-only'];
if (!haveWrk) {
  console.error('wrk is not installed (Debian: apt-get install wrk): only the driver\'s CPU per request is measured');
}

async function startServer() {
  const bare = (args) => startBareServer(args).then((server) => ({ ...server, url: `${server.url}/key1` }));
  if (values.server === 'bare') return bare([]);
  if (values.server === 'sleep') return bare(['--sleep-ms', values['sleep-ms']]);
  if (timer) return bare(['--sleep-ms', String(TIMER_MS)]);
  if (values.server === 'busy') return bare(['--busy-us', values['busy-us']]);
  const app = await startAppProcess({ stores: ['memory'] });
  return { url: `${app.url}/memory/key1`, stop: app.stop };
}

const ratioText = (ratio) => `${ratio.toFixed(3)} (${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%)`;

const server = await startServer();
const serverLabel = {
  app: 'app.js (child process)',
  bare: 'bare node:http (child process)',
  sleep: `node:http holding each request ${values['sleep-ms']} ms (child process)`,
  timer: `node:http answering every request after a ${TIMER_MS} ms timer (child process)`,
  busy: `node:http spending ${values['busy-us']} µs of CPU per request (child process)`,
}[values.server];
const system = systemInfo({ target: `${serverLabel} ${server.url}`, engine: DEFAULT_HTTP_ENGINE });
console.log(renderSystemLine(system, { engine: DEFAULT_HTTP_ENGINE, choice: 'default' }));
console.log(`Target: ${system.target}; concurrency ${concurrency}; ${seconds} s per run; keep-alive on; ` +
  `${rounds} round(s) of wrk and ${engines.join(', ')}${values['loadtest-alone'] ? `, ${LOADTEST_ALONE}` : ''}, ` +
  'the order turning each round');
let compared = true;
let cpuOk = true;
try {
  if (wrkRounds) compared = await compareWithWrk();
  // At the timer server's 240 rps a thread's wake-ups, not its work, set its CPU: the rounds above
  // already give each engine's CPU per response there.
  if (timer && wrkRounds) console.log('\n(--workers 2 against 1: not on the timer server)');
  else cpuOk = await cpuPerRequest();
} finally {
  await server.stop();
}

// One engine's step, with the CPU its thread used per response.
async function engineRun(engine, runSeconds = seconds) {
  const before = threadCpuMicros();
  const step = await measureStep(engine, { url: server.url, concurrency, durationSeconds: runSeconds });
  const cpuMicros = before === null ? null : threadCpuMicros() - before;
  return {
    rps: step.rps,
    meanMs: step.latency.meanMs,
    p99Ms: step.latency.p99Ms,
    errors: step.errors.total,
    cpuUs: cpuMicros === null ? null : cpuMicros / step.responses,
    reported: step.engineReported,
  };
}

async function wrkRun(runSeconds = seconds) {
  const figure = await wrkCpuPerRequest(server.url, {
    connections: concurrency, seconds: runSeconds, threads: Number(values['wrk-threads']),
  });
  return { rps: figure.rps, meanMs: figure.meanLatencyMs, cpuUs: figure.us, errors: 0 };
}

// loadtest by its own API: its rps, and concurrency / rps for its mean (its own floors to whole ms).
async function loadtestAloneRun(runSeconds = seconds) {
  const before = threadCpuMicros();
  const result = await loadTest({
    url: server.url, concurrency, maxSeconds: runSeconds, agentKeepAlive: true, quiet: true,
  });
  const cpuMicros = threadCpuMicros() - before;
  return {
    rps: result.rps,
    meanMs: (concurrency / result.rps) * 1000,
    cpuUs: cpuMicros / result.totalRequests,
    errors: result.totalErrors,
  };
}

// Each round every client once, the order turning by one; true when the default engine met its targets.
async function compareWithWrk() {
  const clients = [
    ['wrk', wrkRun],
    ...engines.map((name) => [name, (runSeconds) => engineRun(HTTP_ENGINES[name], runSeconds)]),
    ...(values['loadtest-alone'] ? [[LOADTEST_ALONE, loadtestAloneRun]] : []),
  ];
  // Warm the server up with every client first (JIT, connections, caches); not counted.
  for (const [, measure] of clients) await measure(Math.min(WARMUP_SECONDS, seconds));
  const figures = [];
  for (let round = 1; round <= rounds; round += 1) {
    const shift = (round - 1) % clients.length;
    const order = [...clients.slice(shift), ...clients.slice(0, shift)];
    const figure = {};
    for (const [name, measure] of order) figure[name] = await measure();
    figures.push(figure);
    console.log(`\nround ${round} (${order.map(([name]) => name).join(', ')})`);
    const { wrk } = figure;
    for (const [name] of clients) {
      const { rps, meanMs, cpuUs, errors } = figure[name];
      const cpu = cpuUs === null ? 'n/a' : `${cpuUs.toFixed(0)} µs`;
      const versus = name === 'wrk'
        ? ''
        : ` · rps/wrk ${ratioText(rps / wrk.rps)}, mean/wrk ${ratioText(meanMs / wrk.meanMs)}`;
      console.log(`  ${name.padEnd(15)} ${rps.toFixed(0).padStart(6)} rps, mean ${meanMs.toFixed(3)} ms, ` +
        `CPU ${cpu} per response${errors ? `, ${errors} errors` : ''}${versus}`);
    }
    // Little's law for each: in a closed loop mean latency should equal concurrency / rps.
    const little = ([name]) =>
      `${name} ${((concurrency / figure[name].rps) * 1000).toFixed(3)} vs ${figure[name].meanMs.toFixed(3)} ms`;
    console.log(`  Little's law (concurrency/rps vs mean): ${clients.map(little).join('; ')}`);
  }
  console.log(`\nmedians over ${rounds} round(s), each round's ratio to wrk's:`);
  let defaultMet = true;
  for (const [name] of clients.slice(1)) {
    const rpsRatio = medianRatio(figures, name, 'wrk', (figure) => figure.rps);
    const meanRatio = medianRatio(figures, name, 'wrk', (figure) => figure.meanMs);
    const cpuUs = median(figures.map((figure) => figure[name].cpuUs).filter((value) => value !== null));
    const isDefault = name === DEFAULT_HTTP_ENGINE;
    const rpsOk = Math.abs(rpsRatio - 1) <= RPS_TOLERANCE;
    const meanOk = Math.abs(meanRatio - 1) <= MEAN_TOLERANCE;
    console.log(`  ${name}${isDefault ? ' (the default)' : ''}: rps/wrk ${ratioText(rpsRatio)}, ` +
      `mean/wrk ${ratioText(meanRatio)}, CPU ${cpuUs.toFixed(0)} µs per response`);
    if (name === LOADTEST_ALONE) continue;
    console.log(`    targets: rps within ${RPS_TOLERANCE * 100}% ${rpsOk ? 'met' : 'MISSED'}, ` +
      `mean within ${MEAN_TOLERANCE * 100}% ${meanOk ? 'met' : 'MISSED'}`);
    let met = rpsOk && meanOk;
    if (timer) {
      const verdict = timerVerdict(figures, name);
      console.log(`    ${TIMER_MS} ms timer targets: mean within ${TIMER_TARGETS.meanWithin * 100}% of wrk's ` +
        `${verdict.meanMet ? 'met' : 'MISSED'}, at most ${TIMER_TARGETS.cpuMicros} µs of CPU per response ` +
        `${verdict.cpuMet ? 'met' : 'MISSED'}`);
      met = met && verdict.met;
    }
    if (isDefault) defaultMet = met;
  }
  const wrkCpu = median(figures.map((figure) => figure.wrk.cpuUs));
  console.log(`  wrk: CPU ${wrkCpu.toFixed(0)} µs per response`);
  return defaultMet;
}

// The default engine's CPU per request with 1 and 2 worker threads, and wrk's; true when 2
// workers cost within CPU_SPLIT_TOLERANCE of one per request.
async function cpuPerRequest() {
  const us = (value) => (value === null ? 'n/a' : `${value.toFixed(1)} µs`);
  console.log(`\nCPU per request of the default engine, ${DEFAULT_HTTP_ENGINE} (one ${seconds} s step each, ` +
    `concurrency ${concurrency}):`);
  const figures = [];
  for (const workers of [1, 2]) {
    const figure = await driverCpuPerRequest(server.url, {
      workers, concurrency, seconds, engine: HTTP_ENGINES[DEFAULT_HTTP_ENGINE],
    });
    figures.push(figure);
    const threads = workers > 1 ? `, summed over its ${workers} worker threads` : ', its worker thread';
    console.log(`  driver, ${workers} worker${workers > 1 ? 's' : ''}: ${us(figure.threadsUs)} per request${threads} ` +
      `(whole process ${us(figure.processUs)}), ${figure.rps.toFixed(0)} rps`);
  }
  if (haveWrk) {
    const figure = await wrkCpuPerRequest(server.url, {
      connections: concurrency,
      seconds,
      threads: Number(values['wrk-threads']),
    });
    const label = `wrk -t${values['wrk-threads']}:`;
    console.log(`  ${label}           ${us(figure.us)} per request, ${figure.rps.toFixed(0)} rps`);
  }
  const [one, two] = figures;
  if (one.threadsUs === null || two.threadsUs === null) {
    console.log('  2 workers / 1 worker: n/a (this platform cannot read a thread\'s own CPU)');
    return true;
  }
  const ratio = two.threadsUs / one.threadsUs;
  const ok = Math.abs(ratio - 1) <= CPU_SPLIT_TOLERANCE;
  console.log(`  2 workers / 1 worker = ${ratioText(ratio)}  ` +
    `target within ${CPU_SPLIT_TOLERANCE * 100}%: ${ok ? 'met' : 'MISSED'}`);
  return ok;
}

process.exit(compared && cpuOk ? 0 : 1);
