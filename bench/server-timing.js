// npm run perf:server-timing: what the store routes' Server-Timing header costs the app. The
// app's CPU per request on GET /memory/key1 (the route where the app's own cost is all there is),
// loaded by the fast engine in a closed loop, against two app.js processes: one with the header
// (the default) and one started with --no-server-timing. Measured interleaved (on, off, off,
// on, ...) over several rounds, so a drift of the machine falls on both alike; each round's
// on/off ratio compares two measurements taken back to back. A benchmark, not a test: it
// reports, never fails on speed. Target: at most 2% more CPU per request with the header.
//
// The app's CPU is read from /proc: the on-CPU nanoseconds of each of its threads
// (/proc/<pid>/task/*/schedstat), summed; where that is missing, /proc/<pid>/stat's utime + stime
// in clock ticks (10 ms: use longer PERF_SECONDS then).
//
//   npm run perf:server-timing   (PERF_SECONDS per measurement, default 10; PERF_ROUNDS, default 5)
import { readFileSync, readdirSync } from 'node:fs';
import { startAppProcess } from '../driver/app-process.js';
import { measureStep } from '../driver/step.js';
import { fastEngine } from '../driver/engines/fast.js';
import { createMachineMonitor } from '../driver/machine-load.js';
import { resolveSetting } from '../config/precedence.js';
import { positiveInteger } from '../config/setting-values.js';
import { systemInfo } from '../util/system-info.js';
import { renderSystemLine } from '../report/system.js';

const TARGET_PERCENT = 2;
const CONCURRENCY = 20;
const WARMUP_SECONDS = 2;
const TICK_NS = 1e7; // /proc/<pid>/stat's clock tick, 1/100 s on Linux

const { value: seconds, problem } = resolveSetting('perfSeconds');
let rounds = 5;
try {
  if (process.env.PERF_ROUNDS) rounds = positiveInteger(process.env.PERF_ROUNDS);
} catch {
  console.error(`perf:server-timing: PERF_ROUNDS must be a positive whole number, not "${process.env.PERF_ROUNDS}"`);
  process.exit(2);
}
if (problem) {
  console.error(`perf:server-timing: ${problem}`);
  process.exit(2);
}

const readText = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/** The CPU time of process pid so far, in ns: { ns, source }, or null without /proc. */
function processCpuNs(pid) {
  let threads = [];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {}
  const onCpu = threads.map((tid) => Number(readText(`/proc/${pid}/task/${tid}/schedstat`)?.split(' ')[0]));
  if (onCpu.length && onCpu.every(Number.isFinite)) {
    return { ns: onCpu.reduce((sum, ns) => sum + ns, 0), source: 'schedstat' };
  }
  const stat = readText(`/proc/${pid}/stat`);
  if (!stat) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { ns: (Number(fields[11]) + Number(fields[12])) * TICK_NS, source: 'stat ticks' };
}

const env = { ...process.env };
delete env.STOREBENCH_SERVER_TIMING; // "on" must be on, whatever the shell says
const apps = {
  on: await startAppProcess({ stores: ['memory'], args: ['--no-embedded'], env }),
  off: await startAppProcess({ stores: ['memory'], args: ['--no-embedded', '--no-server-timing'], env }),
};

// One closed-loop step of the fast engine against app `name`: its responses, rps, the app's CPU
// per response in µs, and whether each response carried the header (its store time count).
async function measure(name, durationSeconds) {
  const { url, child } = apps[name];
  const before = processCpuNs(child.pid);
  const step = await measureStep(fastEngine, {
    url: `${url}/memory/key1`, concurrency: CONCURRENCY, durationSeconds, keepAlive: true, timeoutMs: 10_000,
  });
  const after = processCpuNs(child.pid);
  const cpuNs = before && after ? after.ns - before.ns : null;
  return {
    rps: step.rps,
    responses: step.responses,
    errors: step.errors.total,
    stored: step.storeTime?.count ?? 0,
    usPerRequest: cpuNs === null || !step.responses ? null : cpuNs / 1000 / step.responses,
    source: after?.source ?? 'not measured',
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const pct = (value) => (value == null ? 'n/a' : `${value.toFixed(0)}%`);

try {
  console.log(renderSystemLine(systemInfo()));
  console.log(`the fast engine, c=${CONCURRENCY}, ${seconds} s per measurement, GET /memory/key1, ` +
    `${rounds} rounds interleaved; app CPU from /proc\n`);
  for (const name of ['on', 'off']) {
    const warm = await measure(name, WARMUP_SECONDS);
    const expected = name === 'on' ? warm.responses : 0;
    if (warm.errors || warm.stored !== expected) {
      throw new Error(`the ${name} app answered ${warm.errors} errors and ${warm.stored} of ${warm.responses} ` +
        `responses with Server-Timing (expected ${expected}): not the comparison this measures`);
    }
  }
  const monitor = createMachineMonitor({ rootPids: [process.pid, apps.on.child.pid, apps.off.child.pid] });
  const cost = { on: [], off: [] };
  let source = 'not measured';
  for (let round = 1; round <= rounds; round += 1) {
    // Alternate which goes first, so neither always follows the other.
    for (const name of round % 2 ? ['on', 'off'] : ['off', 'on']) {
      const sample = monitor.start();
      const result = await measure(name, seconds);
      const machine = sample.stop();
      source = result.source;
      cost[name].push(result.usPerRequest);
      const us = result.usPerRequest === null ? 'n/a' : `${result.usPerRequest.toFixed(1)} µs`;
      console.log(`round ${round}  header ${name.padEnd(3)}  app CPU ${us.padStart(9)} per request  ` +
        `${result.rps.toFixed(0).padStart(6)} rps  steal ${pct(machine.stealPercent)}  ` +
        `other processes ${pct(machine.othersCpuPercent)} of a core` +
        `${result.errors ? `  ${result.errors} errors` : ''}`);
    }
  }
  if (cost.on.includes(null) || cost.off.includes(null)) {
    console.log('\nthe app\'s CPU could not be read from /proc here: no figure');
  } else {
    // Each round's on/off: the two ran back to back, so a drift between rounds cancels out.
    const ratios = cost.on.map((on, i) => on / cost.off[i]);
    const percent = (median(ratios) - 1) * 100;
    console.log(`\nper round, app CPU per request on/off: ${ratios.map((r) => r.toFixed(3)).join(', ')}`);
    console.log(`median: off ${median(cost.off).toFixed(1)} µs, on ${median(cost.on).toFixed(1)} µs per request ` +
      `(${source}); the header costs ${percent.toFixed(1)}% of the app's CPU per request ` +
      `(median of the rounds' ratios; target <= ${TARGET_PERCENT}%: ${percent <= TARGET_PERCENT ? 'met' : 'NOT met'})`);
  }
} finally {
  await Promise.allSettled([apps.on.stop(), apps.off.stop()]);
}
