// Where the driver's own CPU goes, per response (a benchmark tool, not a test): runs `node test`
// with the flags after `--` in this process, as test.js does (its live report drawing a progress
// line to a terminal that discards it), and takes a V8 CPU profile (node:inspector) of every
// other measured step, from its `step` event to its `step-done`: so the step, the machine and
// tier sampling around it, the probe and the progress line, but not the start or the report.
// The steps in between run without the profiler: their thread CPU per response is the figure,
// and each part's share of the profiled steps' busy samples (bench/profile-parts.js, by package
// path) splits it. The profiler costs CPU of its own (its sampling wakes the thread), which
// lands outside the samples: hence the split of the unprofiled figure, not of the profiled one.
// The step's thread is the main thread; with --workers the steps run elsewhere and only the
// main thread's share shows.
//
//   npm run perf:profile -- [--out DIR] [--interval-us 1000] [--sleep-ms N] -- <node test flags>
//
// --sleep-ms N starts bench/bare-server.js holding each answer N ms and adds --url for it.
// Use --warmup 0 (a step's warm-up windows are steps too) and --repeat 5 or more: the first
// step runs cold and is left out. Each profile is kept as OUT/step-N.cpuprofile (Chrome
// DevTools, speedscope).
import { Session } from 'node:inspector/promises';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { optionsOf } from '../cli/options.js';
import { createLiveReport } from '../cli/live-report.js';
import { CLI_ONLY } from '../options/code.js';
import { run } from '../index.js';
import { threadCpuMicros } from '../driver/thread-cpu.js';
import { systemInfo } from '../util/system-info.js';
import { renderSystemLine } from '../report/system.js';
import { median } from '../util/stats.js';
import { startBareServer } from './bare-server-process.js';
import { byGroup, cpuPerResponse, profileParts } from './profile-parts.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PROFILER = 'node inspector';
const split = process.argv.indexOf('--');
const own = split < 0 ? process.argv.slice(2) : process.argv.slice(2, split);
const testArgv = split < 0 ? [] : process.argv.slice(split + 1);
const { values } = parseArgs({
  args: own,
  options: {
    out: { type: 'string', default: 'profiles' },
    'interval-us': { type: 'string', default: '1000' },
    'sleep-ms': { type: 'string' },
  },
});
const intervalUs = Number(values['interval-us']);
if (!testArgv.length || !(intervalUs >= 50)) {
  console.error('usage: node bench/driver-profile.js [--out DIR] [--interval-us N (50 or more)] [--sleep-ms N] ' +
    '-- <node test flags>');
  process.exit(2);
}

const server = values['sleep-ms'] ? await startBareServer(['--sleep-ms', values['sleep-ms']]) : null;
if (server) testArgv.push('--url', `${server.url}/key1`);
const { options, problems } = optionsOf(testArgv);
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(2);
}
const libraryOptions = Object.fromEntries(Object.entries(options).filter(([name]) => !(name in CLI_ONLY)));

const discard = () => Object.assign(new Writable({ write: (chunk, encoding, done) => done() }), { isTTY: true });
const live = createLiveReport({ options: {}, stdout: discard(), stderr: discard() });
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: intervalUs });
await mkdir(values.out, { recursive: true });

const steps = [];
let current = null;
let measured = 0;
const onProgress = (event) => {
  live.onProgress(event);
  if (event.type === 'step' && !event.load.warmup) {
    measured += 1;
    const profiled = measured % 2 === 0;
    current = { index: measured, profiled, cpuBefore: threadCpuMicros(), processBefore: process.cpuUsage() };
    if (profiled) current.starting = session.post('Profiler.start');
  } else if (event.type === 'step-done' && current) {
    const done = current;
    current = null;
    done.cpuMicros = threadCpuMicros() - done.cpuBefore;
    const processCpu = process.cpuUsage(done.processBefore);
    done.processMicros = processCpu.user + processCpu.system;
    done.step = event.step;
    if (done.profiled) done.stopping = done.starting.then(() => session.post('Profiler.stop'));
    steps.push(done);
  }
};

let result;
try {
  result = await run(libraryOptions, { onProgress });
} finally {
  await server?.stop();
}
console.log(renderSystemLine(systemInfo({ target: result.steps[0]?.url ?? '', engine: result.settings.engine })));
console.log(`node test ${testArgv.join(' ')}`);
console.log(`a CPU profile of every other step, sampled every ${intervalUs} µs; ` +
  'CPU µs per response of the step\'s thread (and of the whole process)\n');

const us = (value) => value.toFixed(1).padStart(7);
const profiledRows = [];
for (const step of steps) {
  const { responses, rps, latency } = step.step;
  const perResponse = step.cpuMicros / responses;
  console.log(`step ${step.index} ${step.profiled ? '(profiled)' : '(plain)   '}: ${responses} responses, ` +
    `${Math.round(rps)} rps, mean ${latency.meanMs.toFixed(3)} ms · thread ${us(perResponse)} µs ` +
    `(process ${us(step.processMicros / responses)} µs) per response`);
  if (!step.profiled) continue;
  const { profile } = await step.stopping;
  await writeFile(join(values.out, `step-${step.index}.cpuprofile`), JSON.stringify(profile));
  // The profiler's own start and stop (node:inspector) run inside the window: not the driver's.
  const parts = profileParts(profile, ROOT);
  parts.delete(PROFILER);
  const { rows } = cpuPerResponse(parts, step.cpuMicros, responses);
  profiledRows.push({ perResponse, rows });
}

const plain = steps.filter((step) => !step.profiled && step.index > 1)
  .map((step) => step.cpuMicros / step.step.responses);
const profiled = profiledRows.map((row) => row.perResponse);
if (!plain.length || !profiledRows.length) {
  console.log('\nno unprofiled step after the first, or no profiled one: use --repeat 5 or more');
} else {
  const plainUs = median(plain);
  console.log(`\nthread CPU per response, median: unprofiled ${plainUs.toFixed(1)} µs, ` +
    `profiled ${median(profiled).toFixed(1)} µs (the profiler's own cost is the difference)`);
  // Each part's mean share of the profiled steps' busy samples, times the unprofiled figure.
  const shareOf = (rows, pick) => {
    const total = rows.reduce((sum, row) => sum + row.us, 0);
    return total > 0 ? pick(rows) / total : 0;
  };
  const meanOf = (list) => list.reduce((sum, value) => sum + value, 0) / list.length;
  const table = (names, pick) => [...names]
    .map((name) => ({ name, share: meanOf(profiledRows.map(({ rows }) => shareOf(rows, (all) => pick(all, name)))) }))
    .sort((a, b) => b.share - a.share);
  const line = ({ name, share }) => `  ${us(share * plainUs)} µs ${(share * 100).toFixed(1).padStart(5)}%  ${name}`;
  const groups = new Set(profiledRows.flatMap(({ rows }) => byGroup(rows).map((row) => row.group)));
  const groupUs = (rows, group) => byGroup(rows).find((row) => row.group === group)?.us ?? 0;
  console.log(`\nby group (the mean share over ${profiledRows.length} profiled steps of the unprofiled figure):`);
  for (const row of table(groups, groupUs)) console.log(line(row));
  const parts = new Set(profiledRows.flatMap(({ rows }) => rows.map((row) => row.part)));
  const partUs = (rows, part) => rows.find((row) => row.part === part)?.us ?? 0;
  console.log('\nby part (the 25 largest):');
  for (const row of table(parts, partUs).slice(0, 25)) console.log(line(row));
  console.log(`\nprofiles: ${values.out}/step-N.cpuprofile`);
}
session.disconnect();
