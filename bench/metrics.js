// npm run perf:metrics: what the app's --metrics costs. GET /memory/key1 with wrk at
// concurrency 20, against app.js without and with --metrics, interleaved (off, on, off, on...)
// over 3 rounds so a drift of the machine falls on both alike; a benchmark, not a test: it
// reports, never fails on speed.
//
//   npm run perf:metrics   (PERF_SECONDS per measurement, default 10)
import { startAppProcess } from '../driver/app-process.js';
import { which } from '../util/which.js';
import { systemInfo } from '../util/system-info.js';
import { renderSystemLine } from '../report/system.js';
import { createMachineMonitor } from '../driver/machine-load.js';
import { resolveSetting } from '../config/precedence.js';
import { wrk } from './wrk.js';

const ROUNDS = 3;
const connections = 20;
const { value: seconds, problem } = resolveSetting('perfSeconds');
if (problem) {
  console.error(`perf:metrics: ${problem}`);
  process.exit(2);
}
if (!which('wrk')) {
  console.error('perf:metrics: wrk is not installed (apt-get install wrk)');
  process.exit(1);
}

const env = { ...process.env };
delete env.STOREBENCH_METRICS; // "off" must be off, whatever the shell says
const apps = {
  off: await startAppProcess({ stores: ['memory'], env }),
  on: await startAppProcess({ stores: ['memory'], args: ['--metrics'], env }),
};
const rps = { off: [], on: [] };
try {
  console.log(renderSystemLine(systemInfo()));
  console.log(`wrk -t1 -c${connections} -d${seconds}s GET /memory/key1, ${ROUNDS} rounds interleaved\n`);
  for (const name of ['off', 'on']) await wrk(`${apps[name].url}/memory/key1`, { connections, seconds: 1 }); // warm-up
  // The machine during each measurement: steal, and CPU used outside this bench, wrk and the two apps.
  const monitor = createMachineMonitor({ rootPids: [process.pid, apps.off.child.pid, apps.on.child.pid] });
  const pct = (value) => (value == null ? 'n/a' : `${value.toFixed(0)}%`);
  for (let round = 1; round <= ROUNDS; round += 1) {
    // Alternate which goes first, so neither always follows the other.
    for (const name of round % 2 ? ['off', 'on'] : ['on', 'off']) {
      const sample = monitor.start();
      const result = await wrk(`${apps[name].url}/memory/key1`, { connections, seconds });
      const machine = sample.stop();
      rps[name].push(result.rps);
      console.log(`round ${round}  --metrics ${name.padEnd(3)}  ${result.rps.toFixed(0).padStart(7)} rps  ` +
        `mean ${result.meanLatencyMs.toFixed(2)} ms` +
        `  steal ${pct(machine.stealPercent)}  other processes ${pct(machine.othersCpuPercent)} of a core  ` +
        `load ${machine.loadAverage ?? 'n/a'}` +
        `${result.errors ? `  ${result.errors} errors` : ''}`);
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const [off, on] = [median(rps.off), median(rps.on)];
  // Each round's on/off ratio: the two ran back to back, so a drift between rounds cancels out.
  const ratios = rps.on.map((on, i) => on / rps.off[i]);
  console.log(`\nper round, on/off: ${ratios.map((r) => r.toFixed(2)).join(', ')} ` +
    `(median ${median(ratios).toFixed(2)})`);
  console.log(`median rps: off ${off.toFixed(0)}, on ${on.toFixed(0)}: ` +
    `--metrics costs ${((1 - on / off) * 100).toFixed(1)}% ` +
    `(rounds off ${rps.off.map((v) => v.toFixed(0)).join(', ')}; on ${rps.on.map((v) => v.toFixed(0)).join(', ')})`);
  const metrics = await (await fetch(`${apps.on.url}/metrics`)).text();
  const served = metrics.split('\n').find((line) => line.startsWith('storebench_app_requests_total{store="memory"'));
  console.log(`the --metrics app counted: ${served}`);
} finally {
  await Promise.allSettled([apps.off.stop(), apps.on.stop()]);
}
