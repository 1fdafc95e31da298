// npm run perf:soak: does the app's memory stay flat under a long mixed run? Starts app.js
// (memory and redis) as a child process, runs the driver's mixed:90/10 workload against redis
// for PERF_SOAK_SECONDS (default 600) at concurrency 20, and samples the app's resident memory
// (VmRSS of its process, from /proc) every 10 s. Prints the samples' start, end and peak, and
// what the run measured. A benchmark, not a test: it reports, it never fails on a figure.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { startAppProcess } from '../driver/app-process.js';
import { parseArguments } from '../cli/options.js';
import { runBenchmark } from '../driver/run.js';
import { systemInfo } from '../util/system-info.js';
import { renderSystemLine } from '../report/system.js';

const SAMPLE_EVERY_MS = 10_000;
const seconds = Number(process.env.PERF_SOAK_SECONDS || 600);
if (!Number.isInteger(seconds) || seconds < 10 || seconds > 3600) {
  console.error('perf:soak: PERF_SOAK_SECONDS must be a whole number of seconds from 10 to 3600');
  process.exit(2);
}

/** The process's resident memory in MB, from /proc/<pid>/status (Linux only). */
function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((text) => text.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) / 1024;
}

const token = randomBytes(24).toString('base64url');
const app = await startAppProcess({
  stores: ['memory', 'redis'],
  env: { ...process.env, STOREBENCH_WRITE_TOKEN: token },
});
try {
  console.log(renderSystemLine(systemInfo()));
  const argv = [
    '--target', app.url, '--stores', 'redis', '--workload', 'mixed:90/10', '--records', '100000',
    '--value-size', '1KB', '-c', '20', '-t', String(seconds), '--warmup', '0', '--token', token, '-q',
  ];
  const { options, problems } = parseArguments(argv);
  if (problems.length) throw new Error(problems.join('; '));
  console.log(`node test ${argv.map((arg) => (arg === token ? '***' : arg)).join(' ')}`);
  const samples = [];
  const sample = () => samples.push({ at: Date.now(), mb: rssMb(app.child.pid) });
  sample();
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  const result = await runBenchmark(options, {});
  clearInterval(timer);
  sample();
  const [step] = result.steps;
  const load = result.loads?.[0];
  if (load) console.log(`load phase: ${load.loaded} records in ${load.seconds.toFixed(1)} s`);
  if (step) {
    console.log(`step: ${step.requests} requests in ${step.wallSeconds.toFixed(0)} s, ${step.rps.toFixed(0)} rps, ` +
      `mean ${step.latency.meanMs.toFixed(2)} ms, errors ${step.errors.total}`);
  }
  const verification = result.verifications?.[0];
  if (verification) {
    console.log(`verification: ${verification.verified} of ${verification.sampled} written values ` +
      `read back as acknowledged, ${verification.mismatched} mismatched`);
  }
  // The first sample is before the load phase; the figure that matters is after the load (the
  // records are in Redis, not in the app) against the end.
  const first = samples[0];
  const afterLoad = samples[Math.min(samples.length - 1, 3)];
  const last = samples.at(-1);
  const peak = Math.max(...samples.map((s) => s.mb));
  console.log(`app RSS: start ${first.mb.toFixed(1)} MB, after 30 s ${afterLoad.mb.toFixed(1)} MB, ` +
    `end ${last.mb.toFixed(1)} MB, peak ${peak.toFixed(1)} MB over ${samples.length} samples ` +
    `(${((last.at - first.at) / 60000).toFixed(1)} min)`);
  console.log(`samples (MB, every ${SAMPLE_EVERY_MS / 1000} s): ${samples.map((s) => s.mb.toFixed(0)).join(' ')}`);
} finally {
  await app.stop();
}
process.exit(0);
