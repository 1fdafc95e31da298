// Accuracy check (a benchmark, not a test): our driver and wrk against the same endpoint at
// the same concurrency, in the same run. Targets: rps within 5% of wrk's, mean latency within
// 10% of wrk's mean.
//
//   npm run perf:accuracy -- [--server app|bare|sleep|busy] [-c 20] [-t 10] [--rounds 4] [--wrk-threads 1] [--cpu-only]
//
// Then the driver's CPU per request: one step each with 1 and 2 worker threads
// (--workers), beside wrk's where wrk is installed; target: 2 workers within 10% of 1 worker
// (splitting the load and adding the histograms cost nothing per request). Without wrk, or
// with --cpu-only, only this part runs.
//
// Servers (each in a child process): app = app.js serving /memory/key1 (the real target);
// bare = a bare node:http server (so fast that a Node client, not the server, is the limit);
// sleep = the bare server holding each request --sleep-ms (default 5) ms, so neither client
// is CPU-bound; busy = the bare server spending --busy-us (default 400) µs of CPU per request,
// so the server is the bottleneck. The driver and wrk take turns, never at
// once, alternating who goes first.
import { parseArgs } from 'node:util';
import { measureStep } from '../driver/step.js';
import { httpEngine } from '../driver/engines/http.js';
import { startAppProcess } from '../driver/app-process.js';
import { which } from '../util/which.js';
import { systemInfo } from '../util/system-info.js';
import { renderSystemLine } from '../report/system.js';
import { startBareServer } from './bare-server-process.js';
import { wrk } from './wrk.js';
import { median } from '../util/stats.js';
import { driverCpuPerRequest, wrkCpuPerRequest } from './cpu-per-request.js';

const RPS_TOLERANCE = 0.05;
const MEAN_TOLERANCE = 0.1;
const WARMUP_SECONDS = 5;
const CPU_SPLIT_TOLERANCE = 0.1;

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: 'app' },
    concurrency: { type: 'string', short: 'c', default: '20' },
    duration: { type: 'string', short: 't', default: '10' },
    rounds: { type: 'string', default: '4' },
    'wrk-threads': { type: 'string', default: '1' },
    'sleep-ms': { type: 'string', default: '5' },
    'busy-us': { type: 'string', default: '400' },
    'cpu-only': { type: 'boolean', default: false },
  },
});
const concurrency = Number(values.concurrency);
const seconds = Number(values.duration);
const rounds = Number(values.rounds);
const knownServer = ['app', 'bare', 'sleep', 'busy'].includes(values.server);
if (!knownServer || !(concurrency > 0) || !(seconds > 0) || !(rounds > 0)) {
  console.error('usage: node bench/accuracy.js [--server app|bare|sleep|busy] [--sleep-ms N] [--busy-us N] [-c N] ' +
    '[-t SECONDS] [--rounds N] [--wrk-threads N] [--cpu-only]');
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
  if (values.server === 'busy') return bare(['--busy-us', values['busy-us']]);
  const app = await startAppProcess({ stores: ['memory'] });
  return { url: `${app.url}/memory/key1`, stop: app.stop };
}

/** Runs wrk and reads its Requests/sec and mean latency (Thread Stats avg). */
const runWrk = (url, runSeconds = seconds) =>
  wrk(url, { connections: concurrency, seconds: runSeconds, threads: Number(values['wrk-threads']) });

const ratioText = (ratio) => `${ratio.toFixed(3)} (${ratio >= 1 ? '+' : ''}${((ratio - 1) * 100).toFixed(1)}%)`;

const server = await startServer();
const serverLabel = {
  app: 'app.js (child process)',
  bare: 'bare node:http (child process)',
  sleep: `node:http holding each request ${values['sleep-ms']} ms (child process)`,
  busy: `node:http spending ${values['busy-us']} µs of CPU per request (child process)`,
}[values.server];
const system = systemInfo({ target: `${serverLabel} ${server.url}`, engine: 'loadtest' });
console.log(renderSystemLine(system));
console.log(`Target: ${system.target}; concurrency ${concurrency}; ${seconds} s per run; keep-alive on; ` +
  `${rounds} round(s), alternating who goes first`);
const rpsRatios = [];
const meanRatios = [];
let cpuOk = true;
try {
  if (wrkRounds) await compareWithWrk();
  cpuOk = await cpuPerRequest();
} finally {
  await server.stop();
}

async function compareWithWrk() {
  // Warm the server up with both clients first (JIT, connections, caches); not counted.
  // Without it the first client to run in round 1 meets a colder server than the second.
  await measureStep(httpEngine, { url: server.url, concurrency, durationSeconds: WARMUP_SECONDS });
  await runWrk(server.url, WARMUP_SECONDS);
  for (let round = 1; round <= rounds; round += 1) {
    const runOurs = () => measureStep(httpEngine, { url: server.url, concurrency, durationSeconds: seconds });
    let ours;
    let wrkResult;
    if (round % 2) {
      ours = await runOurs();
      wrkResult = await runWrk(server.url);
    } else {
      wrkResult = await runWrk(server.url);
      ours = await runOurs();
    }
    const rpsRatio = ours.rps / wrkResult.rps;
    const meanRatio = ours.latency.meanMs / wrkResult.meanLatencyMs;
    rpsRatios.push(rpsRatio);
    meanRatios.push(meanRatio);
    console.log(`\nround ${round} (${round % 2 ? 'driver first' : 'wrk first'})`);
    const { latency } = ours;
    console.log(`  driver: ${ours.rps.toFixed(0)} rps, mean ${latency.meanMs.toFixed(3)} ms, ` +
      `p50 ${latency.p50Ms.toFixed(3)} ms, p99 ${latency.p99Ms.toFixed(3)} ms, ${ours.errors.total} errors, ` +
      `driver CPU ${ours.cpuPercent.toFixed(0)}%`);
    const wrkErrors = wrkResult.errors ? `, ${wrkResult.errors} errors` : '';
    console.log(`  wrk:    ${wrkResult.rps.toFixed(0)} rps, mean ${wrkResult.meanLatencyMs.toFixed(3)} ms${wrkErrors}`);
    console.log(`  loadtest's own figures for the driver's run: ${ours.engineReported.rps} rps, ` +
      `mean ${ours.engineReported.meanLatencyMs} ms`);
    console.log(`  rps  driver/wrk = ${ratioText(rpsRatio)}`);
    console.log(`  mean driver/wrk = ${ratioText(meanRatio)}`);
    // Little's law for both: in a closed loop mean latency should equal concurrency / rps.
    const littleMs = (concurrency / ours.rps) * 1000;
    const wrkLittleMs = (concurrency / wrkResult.rps) * 1000;
    console.log('  Little\'s law (concurrency/rps vs mean): ' +
      `driver ${littleMs.toFixed(3)} vs ${latency.meanMs.toFixed(3)} ms; ` +
      `wrk ${wrkLittleMs.toFixed(3)} vs ${wrkResult.meanLatencyMs.toFixed(3)} ms`);
  }
}

// The driver's CPU per request with 1 and 2 worker threads, and wrk's; true when 2 workers
// cost within CPU_SPLIT_TOLERANCE of one per request.
async function cpuPerRequest() {
  const us = (value) => (value === null ? 'n/a' : `${value.toFixed(1)} µs`);
  console.log(`\nCPU per request (one ${seconds} s step each, concurrency ${concurrency}):`);
  const figures = [];
  for (const workers of [1, 2]) {
    const figure = await driverCpuPerRequest(server.url, { workers, concurrency, seconds });
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

if (!wrkRounds) process.exit(cpuOk ? 0 : 1);
const rpsOk = Math.abs(median(rpsRatios) - 1) <= RPS_TOLERANCE;
const meanOk = Math.abs(median(meanRatios) - 1) <= MEAN_TOLERANCE;
console.log(`\nmedian over ${rounds} round(s):`);
console.log(`  rps  driver/wrk = ${ratioText(median(rpsRatios))}  ` +
  `target within ${RPS_TOLERANCE * 100}%: ${rpsOk ? 'met' : 'MISSED'}`);
console.log(`  mean driver/wrk = ${ratioText(median(meanRatios))}  ` +
  `target within ${MEAN_TOLERANCE * 100}%: ${meanOk ? 'met' : 'MISSED'}`);
process.exit(rpsOk && meanOk && cpuOk ? 0 : 1);
