// npm run perf:app-workers: app.js with --workers 2 (or more) against 1 on /memory/key1, the
// fast engine, interleaved rounds (a benchmark, not a test: it prints figures and never fails
// on speed). One Express process is often the limit of every store behind it
// (docs/measurement.md, "One app process"); this measures what more processes give here and
// works out what they would give on a machine with more cores.
//
//   npm run perf:app-workers -- [--workers 1,2] [-c 20] [-t 5] [--rounds 5]
//
// Every app runs for the whole benchmark (idle between its steps) and is warmed first; each
// round measures each once, the order rotating. Per step: rps, mean latency, and the CPU per
// response of the app (its primary and workers, from /proc) and of the driver (this process).
// Then medians, the ratio to one worker, and the arithmetic for C cores from the measured CPU
// per response. Each step prints how busy the machine was meanwhile: on a shared machine, re-run
// where CPU steal and other processes are near 0. Two cores cannot show the gain (the driver
// needs one of them); the arithmetic says what would.
import { availableParallelism } from 'node:os';
import { readFileSync, readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { measureStep } from '../driver/step.js';
import { HTTP_ENGINES } from '../driver/engines/index.js';
import { startAppProcess } from '../driver/app-process.js';
import { machineMonitorFor } from '../driver/machine-load.js';
import { systemInfo } from '../util/system-info.js';
import { renderSystemLine } from '../report/system.js';
import { median } from '../util/stats.js';

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '1,2' },
    concurrency: { type: 'string', short: 'c', default: '20' },
    duration: { type: 'string', short: 't', default: '5' },
    rounds: { type: 'string', default: '5' },
  },
});
const counts = values.workers.split(',').map(Number);
const concurrency = Number(values.concurrency);
const seconds = Number(values.duration);
const rounds = Number(values.rounds);
if (!counts.length || counts.some((n) => !Number.isInteger(n) || n < 1) || !counts.includes(1) ||
  !(concurrency > 0) || !(seconds > 0) || !(rounds > 0)) {
  console.error('usage: npm run perf:app-workers -- [--workers 1,2,...: 1 among them] [-c N] [-t SECONDS] ' +
    '[--rounds N]');
  process.exit(2);
}
const CLOCK_TICKS = 100; // /proc's utime and stime unit on Linux

// The CPU seconds of pid and every live descendant (the primary and its workers), from /proc.
function treeCpuSeconds(root) {
  const stats = new Map();
  for (const name of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(name), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {} // gone while we looked
  }
  const inTree = (pid) => {
    for (let at = pid; at > 1; at = stats.get(at)?.ppid) if (at === root) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, { ticks: own }] of stats) if (inTree(pid)) ticks += own;
  return ticks / CLOCK_TICKS;
}

const fixed = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

async function step(app) {
  const url = `${app.url}/memory/key1`;
  const machine = machineMonitorFor([url]).start();
  const [appBefore, driverBefore] = [treeCpuSeconds(app.child.pid), process.cpuUsage()];
  const load = { url, concurrency, durationSeconds: seconds, keepAlive: true };
  const measured = await measureStep(HTTP_ENGINES.fast, load);
  const driverCpu = process.cpuUsage(driverBefore);
  const appSeconds = treeCpuSeconds(app.child.pid) - appBefore;
  const { stealPercent, othersCpuPercent } = machine.stop();
  const responses = measured.responses;
  return {
    rps: measured.rps,
    meanMs: measured.latency.meanMs,
    errors: measured.errors.total ?? 0,
    appUs: (appSeconds * 1e6) / responses,
    appCores: appSeconds / measured.wallSeconds,
    driverUs: (driverCpu.user + driverCpu.system) / responses,
    steal: stealPercent,
    others: othersCpuPercent,
  };
}

console.log(renderSystemLine(systemInfo({ target: 'app.js --stores memory --no-embedded', engine: 'fast' })));
console.log(`/memory/key1, the fast engine, -c ${concurrency}, ${seconds} s steps, ${rounds} rounds; ` +
  `app workers ${counts.join(' vs ')}; this machine: ${availableParallelism()} CPUs\n`);
const apps = new Map();
try {
  for (const n of counts) {
    apps.set(n, await startAppProcess({ stores: ['memory'], args: ['--no-embedded', '--workers', String(n)] }));
  }
  for (const [, app] of apps) {
    const warm = { url: `${app.url}/memory/key1`, concurrency, durationSeconds: 2, keepAlive: true };
    await measureStep(HTTP_ENGINES.fast, warm);
  }
  const figures = new Map(counts.map((n) => [n, []]));
  for (let round = 0; round < rounds; round += 1) {
    const order = counts.map((_, i) => counts[(i + round) % counts.length]);
    for (const n of order) {
      const one = await step(apps.get(n));
      figures.get(n).push(one);
      console.log(`round ${round + 1} workers ${n}: ${Math.round(one.rps)} rps, mean ${fixed(one.meanMs, 2)} ms, ` +
        `app ${fixed(one.appUs)} µs/response (${fixed(one.appCores, 2)} cores), ` +
        `driver ${fixed(one.driverUs)} µs/response, errors ${one.errors}; ` +
        `machine: steal ${fixed(one.steal)}%, other processes ${fixed(one.others, 0)}% of a core`);
    }
  }

  const medianOf = (n, key) => median(figures.get(n).map((one) => one[key]));
  console.log('\nMedians:');
  const base = medianOf(1, 'rps');
  for (const n of counts) {
    console.log(`  workers ${String(n).padEnd(3)} ${String(Math.round(medianOf(n, 'rps'))).padStart(7)} rps ` +
      `(x${fixed(medianOf(n, 'rps') / base, 2)} of 1)  app ${fixed(medianOf(n, 'appUs'))} µs/response on ` +
      `${fixed(medianOf(n, 'appCores'), 2)} cores  driver ${fixed(medianOf(n, 'driverUs'))} µs/response`);
  }

  // The arithmetic: a worker serves at most 1e6 / a responses a second on a core of its own
  // (a: the app's CPU per response with one worker: Express, the route, the memory store;
  // the primary hands out connections, not requests, so keep-alive costs it nothing more).
  // N workers on C cores: at most min(N, C) cores of app. With the driver on the same machine
  // (d: its CPU per response) all of it shares C cores: at most C x 1e6 / (a + d).
  const a = medianOf(1, 'appUs');
  const d = medianOf(1, 'driverUs');
  console.log(`\nArithmetic from one worker's ${fixed(a)} µs of app CPU and ${fixed(d)} µs of driver CPU ` +
    'per response (fast engine), for C cores and --workers C:');
  for (const cores of [2, 4, 8, 16, 32]) {
    const alone = (cores * 1e6) / a;
    const shared = (cores * 1e6) / (a + d);
    console.log(`  C=${String(cores).padEnd(3)} driver on another machine: up to ${Math.round(alone)} rps ` +
      `(x${cores} of 1 worker's ${Math.round(1e6 / a)}); driver here too: up to ${Math.round(shared)} rps`);
  }
  console.log('  (upper bounds: they assume the app\'s cost per response stays as measured with more processes, ' +
    'which shared caches, memory bandwidth and the kernel\'s network stack make optimistic; measure on the machine)');
} finally {
  await Promise.all([...apps.values()].map((app) => app.stop()));
}
